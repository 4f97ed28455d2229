package relay

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/capacity"
)

// Shutdown drains a relay for a deploy: live streams close with 1012 to
// the browser — nothing failed, connect again — and 1001 to the agent; a
// stream that arrives meanwhile is closed with 1012 before anything is
// started; Shutdown returns once every stream handler has returned, and
// the capacity slots are free.
func TestShutdownDrainsStreamsWith1012(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st})
	b1, code := connect(t, srv.URL, "pc")
	require.Zero(t, code)
	a1 := a.next(t)
	b2, code := connect(t, srv.URL, "docker")
	require.Zero(t, code)
	a2 := a.next(t)
	require.EqualValues(t, 1, st.n.Load(), "the container was resumed")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, rl.Shutdown(ctx), "every stream handler returned")
	requireClose(t, b1, wire.CloseServiceRestart)
	requireClose(t, b2, wire.CloseServiceRestart)
	for _, ac := range []*agentConn{a1, a2} {
		assert.Equal(t, websocket.StatusCode(wire.CloseServiceRestart), websocket.CloseStatus(ac.ended(t)),
			"the agent hop closes with 1012 too: the agent holds the server for the browser's resume")
	}
	u, err := rl.capacity.Usage(ctx)
	require.NoError(t, err)
	assert.Equal(t, capacity.Usage{Max: DefaultMaxConnections, Global: 2, Held: 2, Replicas: map[string]int{"local": 2}}, u,
		"no stream is bridged; the slots are held for the resumes, wherever they land")

	_, code = connect(t, srv.URL, "restore")
	assert.Equal(t, wire.CloseServiceRestart, code, "a stream after the drain started is told to connect again")
	assert.EqualValues(t, 1, st.n.Load(), "nothing started for it")
	assert.EqualValues(t, 2, a.requests.Load(), "nothing dialled for it")
	require.NoError(t, rl.Shutdown(ctx), "Shutdown may be called again")
}

// Shutdown gives up when its context ends first, and says so: here a
// browser that never answers the close frame holds its stream's handler in
// the close handshake. A later Shutdown waits for the rest.
func TestShutdownHonoursItsDeadline(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: testSessions(a)})
	b, _, err := dialBrowser(testCtx(t), streamURL(srv, "pc", "go"), nil)
	require.NoError(t, err)
	defer b.CloseNow()
	a.next(t) // the stream is relaying; b reads nothing from here on

	short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, rl.Shutdown(short), context.DeadlineExceeded)
	long, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	assert.NoError(t, rl.Shutdown(long), "the handshake times out and the handler returns")
}
