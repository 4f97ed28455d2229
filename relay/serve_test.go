package relay

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/executor"
)

// serving runs rl.Serve on a fresh loopback listener wrapped by wrap (nil:
// as it is) and returns the relay's base URL and Serve's result. Cleanup
// ends Serve if the test has not.
func serving(t *testing.T, ctx context.Context, rl *Relay, srv *http.Server, wrap func(net.Listener) net.Listener) (string, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + ln.Addr().String()
	if wrap != nil {
		ln = wrap(ln)
	}
	ctx, cancel := context.WithCancel(ctx)
	served, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		served <- rl.Serve(ctx, srv, ln)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return base, served
}

// returned waits for Serve's result within a deadline.
func returned(t *testing.T, served <-chan error) error {
	t.Helper()
	select {
	case err := <-served:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
		return nil
	}
}

// startedExecs starts the fake agent a like startsFake and hands each
// execution to the test, which watches its Done for the relay's Close.
func startedExecs(a *fakeAgent) (*countingStarter, <-chan executor.Execution) {
	execs := make(chan executor.Execution, 8)
	return &countingStarter{start: func(ctx context.Context, t executor.Task) (executor.Execution, error) {
		e, err := startsFake(a)(ctx, t)
		execs <- e
		return e, err
	}}, execs
}

// requireStopped checks that the relay stopped the agent it started (its
// Close ran) by the time Serve returned.
func requireStopped(t *testing.T, execs <-chan executor.Execution) {
	t.Helper()
	select {
	case e := <-execs:
		select {
		case <-e.Done:
		default:
			t.Fatal("the agent the relay started is still running")
		}
	default:
		t.Fatal("no agent was started")
	}
}

// When its context ends — the program's SIGTERM — Serve drains the relay
// as a deploy needs: a live stream closes with 1012 to the browser and to
// the agent (which holds its server for the resume), the agent the relay
// started is stopped, the listener accepts nothing more, and Serve
// returns nil. The server's Handler was nil: the relay alone is served.
func TestServeDrainsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st, execs := startedExecs(a)
	rl := New(Config{Sessions: testSessions(a), Starter: st, ShutdownGrace: 20 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, served := serving(t, ctx, rl, &http.Server{ReadHeaderTimeout: 10 * time.Second}, nil)

	b, code := connect(t, base, "restore")
	require.Zero(t, code, "the stream is relaying")
	ac := a.next(t)
	require.EqualValues(t, 1, st.n.Load(), "the relay started the session's agent")

	cancel()
	requireClose(t, b, wire.CloseServiceRestart)
	assert.Equal(t, websocket.StatusCode(wire.CloseServiceRestart), websocket.CloseStatus(ac.ended(t)),
		"the agent hop closes with 1012 too")
	require.NoError(t, returned(t, served))
	requireStopped(t, execs)
	_, err := testClient.Get(base + wire.RelayRuntimePath)
	assert.Error(t, err, "the listener is closed")
}

// failingListener passes connections of its listener through until fail
// is set; then the end of Accept is err, as a listener that broke.
type failingListener struct {
	net.Listener
	fail atomic.Bool
	err  error
}

func (l *failingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil && l.fail.Load() {
		return nil, l.err
	}
	return c, err
}

// When the server fails before the context ends, Serve returns its error,
// and the relay is drained all the same: the live stream is told 1012 on
// both hops and the agent the relay started is stopped. A server its
// owner shuts down ends Serve with http.ErrServerClosed, its streams
// drained too.
func TestServeReturnsTheServersError(t *testing.T) {
	t.Parallel()
	t.Run("failed", func(t *testing.T) {
		t.Parallel()
		a := newFakeAgent(t)
		st, execs := startedExecs(a)
		rl := New(Config{Sessions: testSessions(a), Starter: st})
		broken := errors.New("listener broke")
		var fl *failingListener
		base, served := serving(t, context.Background(), rl, &http.Server{Handler: rl}, func(ln net.Listener) net.Listener {
			fl = &failingListener{Listener: ln, err: broken}
			return fl
		})
		b, code := connect(t, base, "restore")
		require.Zero(t, code)
		ac := a.next(t)

		fl.fail.Store(true)
		require.NoError(t, fl.Listener.Close())
		requireClose(t, b, wire.CloseServiceRestart)
		assert.Equal(t, websocket.StatusCode(wire.CloseServiceRestart), websocket.CloseStatus(ac.ended(t)))
		assert.ErrorIs(t, returned(t, served), broken)
		requireStopped(t, execs)
	})
	t.Run("closed by its owner", func(t *testing.T) {
		t.Parallel()
		a := newFakeAgent(t)
		rl := New(Config{Sessions: testSessions(a)})
		srv := &http.Server{Handler: rl}
		base, served := serving(t, context.Background(), rl, srv, nil)
		b, code := connect(t, base, "pc")
		require.Zero(t, code)
		ac := a.next(t)

		require.NoError(t, srv.Close())
		requireClose(t, b, wire.CloseServiceRestart)
		assert.Equal(t, websocket.StatusCode(wire.CloseServiceRestart), websocket.CloseStatus(ac.ended(t)))
		assert.ErrorIs(t, returned(t, served), http.ErrServerClosed)
	})
}
