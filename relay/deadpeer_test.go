package relay

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// Short pings for tests: a vanished peer is noticed within
// 2×testPingInterval + testPingTimeout.
const (
	testPingInterval = 50 * time.Millisecond
	testPingTimeout  = time.Second
)

// blackhole forwards TCP between clients and target until drop; from then
// on it swallows every byte both ways and keeps every socket open, as a
// network that silently lost the client would (no FIN, no RST).
type blackhole struct {
	ln      net.Listener
	target  string
	dropped atomic.Bool
	// up counts the bytes forwarded from clients to target.
	up atomic.Int64

	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

func newBlackhole(t *testing.T, target string) *blackhole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &blackhole{ln: ln, target: target}
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

// addr is the proxy's host:port.
func (p *blackhole) addr() string { return p.ln.Addr().String() }

// drop makes the network lose everything from now on.
func (p *blackhole) drop() { p.dropped.Store(true) }

func (p *blackhole) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Go(func() { p.copy(s, c, &p.up) })
		p.wg.Go(func() { p.copy(c, s, nil) })
	}
}

// copy forwards src to dst until src fails; once dropped, it reads and
// discards.
func (p *blackhole) copy(dst, src net.Conn, count *atomic.Int64) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			return
		}
		if p.dropped.Load() {
			continue
		}
		if count != nil {
			count.Add(int64(n))
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			return
		}
	}
}

// A browser whose connection silently disappears (no close frame, no FIN)
// stops answering pings: the relay closes its stream — the agent sees 4010
// — and frees the capacity slot, so the next browser gets in. (With no
// resume grace: a held slot is TestLostStreamHoldsItsSlotForItsResume.)
func TestVanishedBrowserFreesSlot(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), MaxConnections: 1,
		PingInterval: testPingInterval, PingTimeout: testPingTimeout, ResumeGrace: -1})
	net := newBlackhole(t, srv.Listener.Addr().String())

	b, _, err := dialBrowser(testCtx(t), "ws://"+net.addr()+wire.RelayStreamPrefix+"pc?language=go", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.CloseNow() })
	_, got, err := b.Read(testCtx(t))
	require.NoError(t, err)
	require.Equal(t, a.ready, got)
	ac := a.next(t)
	_, code := connect(t, srv.URL, "pc")
	require.Equal(t, wire.CloseCapacity, code, "the one slot is taken")

	net.drop()
	assert.Equal(t, websocket.StatusCode(wire.ClosePathLost), websocket.CloseStatus(ac.ended(t)),
		"the agent's stream is closed as for a browser whose path was lost")
	waitIdle(t, rl)

	b2, code := connect(t, srv.URL, "pc")
	require.Zero(t, code, "the slot was freed")
	require.NoError(t, b2.Close(websocket.StatusNormalClosure, ""))
	a.next(t).ended(t)
	waitIdle(t, rl)
}

// An agent that stops answering pings (it no longer reads its socket) is
// treated as gone: the browser gets 4002 (the hop failed, not the server)
// and the slot is freed.
func TestSilentAgentEndsStream(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the fake agent's own clean-up
	a.script = func(context.Context, *websocket.Conn) error { <-release; return nil }
	srv, rl := newRelay(t, Config{Sessions: testSessions(a),
		PingInterval: testPingInterval, PingTimeout: testPingTimeout})

	b, code := connect(t, srv.URL, "pc")
	require.Zero(t, code)
	a.next(t)
	requireClose(t, b, wire.CloseUnavailable)
	waitIdle(t, rl)
}

// An idle stream whose peers answer pings stays open through many of them.
func TestIdleStreamSurvivesPings(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: testSessions(a),
		PingInterval: testPingInterval, PingTimeout: testPingTimeout})
	net := newBlackhole(t, srv.Listener.Addr().String())

	b, _, err := dialBrowser(testCtx(t), "ws://"+net.addr()+wire.RelayStreamPrefix+"pc?language=go", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.CloseNow() })
	// The browser reads all the time, as a real one does: that is what
	// answers pings.
	msgs := make(chan []byte, 8)
	go func() {
		defer close(msgs)
		for {
			_, m, err := b.Read(context.Background())
			if err != nil {
				return
			}
			msgs <- m
		}
	}()
	require.Equal(t, a.ready, <-msgs)
	ac := a.next(t)

	// Wait until the browser has answered several pings: a pong from a
	// client is 7 bytes (2 header, 4 mask, the 1-digit payload).
	start := net.up.Load()
	deadline := time.Now().Add(15 * time.Second)
	for net.up.Load()-start < 5*7 {
		require.True(t, time.Now().Before(deadline), "no pongs went up")
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}
	assert.Equal(t, int64(1), rl.slotsInUse(), "still open")
	ctx := testCtx(t)
	require.NoError(t, b.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1}`)))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1}`, string(<-msgs))
	// The reader goroutine may take the relay's answer to this close, so
	// Close's own wait for it can fail: the agent's side is the evidence.
	_ = b.Close(websocket.StatusNormalClosure, "")
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(ac.ended(t)))
	waitIdle(t, rl)
}

// A 17 MiB browser frame closes the browser with 1009 and an empty reason
// (not coder/websocket's "read limited at …"), the agent with 1001, and the
// relay serves the next stream.
func TestOversizedBrowserFrame(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("s")), MaxConnections: 1})
	b, ac := openStream(t, srv, a)

	big := bytes.Repeat([]byte("x"), 17<<20)
	wrote := make(chan error, 1)
	go func() { wrote <- b.Write(context.Background(), websocket.MessageText, big) }()
	requireClose(t, b, wire.CloseCode(websocket.StatusMessageTooBig))
	<-wrote // whatever it returned: the relay has closed the connection
	assert.Equal(t, websocket.StatusCode(wire.CloseGoingAway), websocket.CloseStatus(ac.ended(t)))
	waitIdle(t, rl)

	b2, ac2 := openStream(t, srv, a)
	requireEcho(t, b2, []byte(`{"jsonrpc":"2.0","id":2}`))
	require.NoError(t, b2.Close(websocket.StatusNormalClosure, ""))
	ac2.ended(t)
	waitIdle(t, rl)
}

// requireEcho sends msg on b and checks the echo agent sends it back
// unchanged.
func requireEcho(t *testing.T, b *websocket.Conn, msg []byte) {
	t.Helper()
	ctx := testCtx(t)
	require.NoError(t, b.Write(ctx, websocket.MessageText, msg))
	_, got, err := b.Read(ctx)
	require.NoError(t, err)
	require.True(t, bytes.Equal(msg, got), "the message changed")
}

// A message of exactly the limit still passes whole.
func TestMessageAtLimitPasses(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	b, ac := openStream(t, srv, a)
	requireEcho(t, b, []byte(`"`+strings.Repeat("y", wire.MaxMessageSize-2)+`"`))
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(ac.ended(t)))
	waitIdle(t, rl)
}
