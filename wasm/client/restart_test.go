package client

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
)

// A relay draining for a restart (1012) is no failure of the language
// server or the task host: the pair is unavailable with the code, not in
// error.
func TestServiceRestartIsUnavailable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.closeWith(int(wire.CloseServiceRestart))
	s := h.expectState(t, StateUnavailable)
	require.Equal(t, int(wire.CloseServiceRestart), s.CloseCode)

	st, code := Outcome(&transport.CloseError{Code: int(wire.CloseServiceRestart)}, false)
	require.Equal(t, StateUnavailable, st)
	require.Equal(t, int(wire.CloseServiceRestart), code)
}

// downDialer makes the harness's dials fail while down is set, as a relay
// that is not listening does.
func downDialer(down *atomic.Bool) func(*Config) {
	return func(cfg *Config) {
		dial := cfg.Dial
		cfg.Dial = func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error) {
			if down.Load() {
				return nil, errors.New("dial: connection refused")
			}
			return dial(ctx, url)
		}
	}
}

// readyWithMarker opens main.go, plays the handshake and publishes one
// error for it; it returns the agent and the model.
func readyWithMarker(t *testing.T, h *harness) (*fakeAgent, *model) {
	t.Helper()
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"message":"old error"}]}}`)
	require.Len(t, m.nextMarkers(t), 1)
	return a, m
}

// reattach plays a reconnected generation's handshake on a and returns
// its didOpen.
func reattach(t *testing.T, h *harness, a *fakeAgent) rpcMsg {
	t.Helper()
	a.send(`{"status":"ready","workspacePath":"/w"}`)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a.recvMethod("initialized")
	return a.recvMethod("textDocument/didOpen")
}

// A ready connection whose path drops (1006: the relay was killed) comes
// back by itself: the pair says it is reconnecting, with the attempt and
// the time of the drop, the first attempt goes out at once, and the new
// generation opens the document with the text typed meanwhile. The marker
// stays through the outage: the first markers set after the drop are the
// new server's, never an empty list first.
func TestLostPathReconnectsByItself(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, m := readyWithMarker(t, h)

	a.closeWith(1006)
	s := h.expectState(t, StateReconnecting)
	require.Equal(t, 1, s.Attempt)
	require.Equal(t, 1006, s.CloseCode)
	require.NotZero(t, s.LostAt)
	m.set("package main // typed while disconnected\n")

	h.clock.Advance(0)
	a2 := h.agent(t)
	open := reattach(t, h, a2)
	require.Contains(t, string(open.Params), "typed while disconnected")
	s = waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady })
	require.Zero(t, s.Attempt, "the episode is over")
	require.Zero(t, s.LostAt)
	require.Equal(t, uint64(2), s.Gen)

	a2.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":7}},"message":"new error"}]}}`)
	ms := m.nextMarkers(t)
	require.Len(t, ms, 1, "the first markers after the drop are the new server's")
	require.Equal(t, "new error", ms[0].Message)
}

// While the relay stays down the attempts continue, further apart, then
// stop: the pair shows the error with its last code and Retry, and the
// markers kept through the attempts are cleared. Each attempt counts up.
func TestReconnectGivesUp(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	h := newHarness(t, downDialer(&down))
	a, m := readyWithMarker(t, h)

	down.Store(true)
	a.closeWith(int(wire.CloseServiceRestart))
	s := h.expectState(t, StateReconnecting)
	require.Equal(t, 1, s.Attempt)
	for attempt := 2; attempt <= len(reconnectDelays); attempt++ {
		h.clock.Advance(10 * time.Second) // past any delay
		s = waitStatus(t, h.client, "s", wire.Go, "attempt", func(s Status) bool { return s.Attempt == attempt })
		require.Equal(t, StateReconnecting, s.State)
	}
	h.clock.Advance(10 * time.Second)
	s = h.expectState(t, StateError)
	require.Zero(t, s.Attempt)
	require.Empty(t, m.nextMarkers(t), "the kept marker is cleared when the attempts give up")

	// Retry starts afresh and works once the relay is back.
	down.Store(false)
	require.True(t, h.client.Start("s", wire.Go))
	a2 := h.agent(t)
	s = h.expectState(t, StateConnecting)
	require.Zero(t, s.Attempt, "a Retry after giving up is a new connection, not attempt 9")
	reattach(t, h, a2)
	waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady })
}

// What is not a lost path ends as before: a server that exited (4006) is
// an error with Retry, at once, and nothing is dialled again.
func TestServerExitIsNotReconnected(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _ := readyWithMarker(t, h)
	a.closeWith(int(wire.CloseServerExited))
	s := h.expectState(t, StateError)
	require.Equal(t, 4006, s.CloseCode)
	h.clock.Advance(time.Minute)
	// Barrier: a Start dials; had anything been dialled before it, this
	// agent would be that one, still in its first generation's next.
	require.True(t, h.client.Start("s", wire.Go))
	a2 := h.agent(t)
	s = h.expectState(t, StateConnecting)
	require.Equal(t, uint64(2), s.Gen, "no generation was started between the crash and Start")
	_ = a2
}

// A connection that never became ready (the relay is not there at all)
// shows its error at once: reconnecting is for paths that worked.
func TestNoReconnectBeforeReady(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.closeWith(1006)
	h.expectState(t, StateError)
}

// Stop while a reconnect waits for its turn wins: the pair is off and the
// attempt never dials.
func TestStopDuringReconnectWait(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	h := newHarness(t, downDialer(&down))
	a, _ := readyWithMarker(t, h)
	down.Store(true)
	a.closeWith(1006)
	h.expectState(t, StateReconnecting)
	h.clock.Advance(0) // attempt 1 fails at once; attempt 2 waits
	waitStatus(t, h.client, "s", wire.Go, "attempt 2", func(s Status) bool { return s.Attempt == 2 })
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
	defer cancel()
	require.NoError(t, h.client.Stop(ctx, "s", wire.Go))
	h.expectState(t, StateOff)
	down.Store(false)
	h.clock.Advance(time.Minute)
	// Barrier: Start dials now; it is the first dial since the drop.
	require.True(t, h.client.Start("s", wire.Go))
	h.agent(t)
	s := h.expectState(t, StateConnecting)
	require.Zero(t, s.Attempt)
}

func TestReconnectDelays(t *testing.T) {
	t.Parallel()
	require.Zero(t, reconnectDelay(1, 42), "the first attempt goes at once")
	prev := clock.Duration(0)
	for n := 2; n <= len(reconnectDelays); n++ {
		base := reconnectDelays[n-1]
		for seed := uint64(1); seed < 200; seed++ {
			d := reconnectDelay(n, seed)
			require.GreaterOrEqual(t, d, base-base/5)
			require.LessOrEqual(t, d, base+base/5)
		}
		require.GreaterOrEqual(t, base, prev)
		prev = base
	}
	require.NotEqual(t, reconnectDelay(4, 1), reconnectDelay(4, 2), "jitter spreads editors apart")
}

// A path that carries nothing (a frozen relay keeps the socket open) is
// noticed from the browser: a heartbeat goes out every interval when the
// task host said it answers them; answered, the connection stays; one left
// unanswered for the timeout ends it as stalled, and the pair reconnects by
// itself.
func TestUnansweredHeartbeatReconnects(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","heartbeat":true}`)
	h.expectState(t, StateStarting)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a.recvMethod("initialized")
	h.expectState(t, StateReady)
	a.recvMethod("textDocument/didOpen")

	interval := time.Duration(wire.HeartbeatInterval)
	h.clock.Advance(interval)
	hb := a.recv()
	require.Equal(t, `{"heartbeat":1}`, hb.raw)
	a.send(`{"heartbeat":1}`) // the agent answers
	// Barrier: a request answered after the echo was queued means the
	// echo has been handled.
	a.send(`{"jsonrpc":"2.0","id":5,"method":"workspace/workspaceFolders"}`)
	a.recv()
	h.clock.Advance(interval)
	require.Equal(t, `{"heartbeat":2}`, a.recv().raw, "answered: the next one goes out")

	// The path freezes: no answer. Until the timeout nothing happens...
	h.clock.Advance(interval)
	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, StateReady, s.State, "10 s without an answer is within the timeout")
	// ...then the connection is lost and the pair reconnects.
	h.clock.Advance(interval)
	s = h.expectState(t, StateReconnecting)
	require.Equal(t, 1, s.Attempt)
	h.clock.Advance(0)
	a2 := h.agent(t)
	reattach(t, h, a2)
	waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady })
}

// Without the ready frame's heartbeat flag (an older task host) no
// heartbeat is sent: it would reach the language server.
func TestNoHeartbeatWithoutTheFlag(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _ := readyWithMarker(t, h)
	h.clock.Advance(time.Minute)
	// Barrier: a message sent after the minute is the next one read.
	a.send(`{"jsonrpc":"2.0","id":5,"method":"workspace/workspaceFolders"}`)
	got := a.recv()
	require.NotContains(t, got.raw, "heartbeat")
}
