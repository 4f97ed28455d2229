package client

import (
	"errors"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
)

// readyResumable opens main.go on a task host that holds servers (the
// ready frame has a resume token), plays the handshake and publishes one
// error. The client has then received two data frames (the initialize
// answer, the diagnostics) and sent three (initialize, initialized,
// didOpen).
func readyResumable(t *testing.T, h *harness) (*fakeAgent, *model, *Document) {
	t.Helper()
	m := newModel("package main\n")
	doc, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	require.False(t, query(t, a).Has(wire.ParamReconnect), "a first stream is no reconnect: %s", a.url)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","heartbeat":true,"resume":"t1"}`)
	h.expectState(t, StateStarting)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a.recvMethod("initialized")
	h.expectState(t, StateReady)
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"message":"old error"}]}}`)
	require.Len(t, m.nextMarkers(t), 1)
	return a, m, doc
}

func query(t *testing.T, a *fakeAgent) url.Values {
	t.Helper()
	u, err := url.Parse(a.url)
	require.NoError(t, err)
	return u.Query()
}

// A lost socket is resumed on the same server: the pair says it is
// reconnecting, then ready again on the same generation with no second
// initialize; the edit typed while the socket was gone and the didOpen
// the task host never got go out again, once each, in order; the marker
// is never cleared; and the server's frames after the resume reach the
// editor.
func TestLostSocketResumesTheSameServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, m, doc := readyResumable(t, h)

	a.closeWith(1006)
	s := h.expectState(t, StateReconnecting)
	require.Equal(t, 1, s.Attempt)
	require.NotZero(t, s.LostAt)
	require.NoError(t, doc.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":1,"startColumn":13,"endLineNumber":1,"endColumn":13},"rangeOffset":12,"rangeLength":0,"text":" // typed"}]}`))

	h.clock.Advance(0)
	r := h.agent(t)
	q := query(t, r)
	require.Equal(t, "t1", q.Get(wire.ParamResume))
	require.Equal(t, "2", q.Get(wire.ParamReceived), "the initialize answer and the diagnostics arrived")
	// The task host took initialize and initialized, not the didOpen.
	r.send(`{"status":"resumed","resume":"t2","received":2}`)
	require.Equal(t, "textDocument/didOpen", r.recv().Method, "what the task host missed, first")
	change := r.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), "// typed")
	s = h.expectState(t, StateReady)
	require.Equal(t, uint64(1), s.Gen, "the same connection, the same server")
	require.Zero(t, s.Attempt)
	require.Equal(t, 1, h.generations(), "no new connection was started")
	select {
	case ms := <-m.markers:
		t.Fatalf("markers changed through a resume: %v", ms)
	default:
	}

	r.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[]}}`)
	require.Empty(t, m.nextMarkers(t), "the resumed socket feeds the editor")

	// The next loss presents the new token.
	r.closeWith(1006)
	h.expectState(t, StateReconnecting)
	h.clock.Advance(0)
	require.Equal(t, "t2", query(t, h.agent(t)).Get(wire.ParamResume))
}

// A task host that no longer holds the server (4009) gets a fresh
// connection at once: initialize again, the document opened with the
// editor's text.
func TestRefusedResumeConnectsAfresh(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, m, _ := readyResumable(t, h)
	a.closeWith(1012)
	h.expectState(t, StateReconnecting)
	m.set("package main // after\n")
	h.clock.Advance(0)
	r := h.agent(t)
	require.Equal(t, "t1", query(t, r).Get(wire.ParamResume))
	r.closeWith(int(wire.CloseResumeRefused))
	// The connection ends (the fresh attempt is armed with it), then the
	// first fresh attempt goes out at once.
	waitFor(t, func() bool { return h.current("s", wire.Go) == nil })
	h.clock.Advance(0)
	f := h.agent(t)
	require.False(t, query(t, f).Has(wire.ParamResume), "a fresh stream: %s", f.url)
	require.Equal(t, "1", query(t, f).Get(wire.ParamReconnect), "marked as a reconnect, for the relay's count: %s", f.url)
	open := reattach(t, h, f)
	require.Contains(t, string(open.Params), "// after")
	s := waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady })
	require.Equal(t, uint64(2), s.Gen)
}

// When no resume attempt reaches the task host, the pair shows the error
// with Retry once the schedule is spent, and starts no fresh attempts on
// top (they would only repeat the wait).
func TestResumeGivesUp(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	h := newHarness(t, downDialer(&down))
	a, _, _ := readyResumable(t, h)
	down.Store(true)
	a.closeWith(1006)
	h.expectState(t, StateReconnecting)
	for n := range reconnectDelays {
		waitStatus(t, h.client, "s", wire.Go, "attempt", func(s Status) bool { return s.Attempt == n+1 })
		h.clock.Advance(6 * 1e9)
	}
	s := waitStatus(t, h.client, "s", wire.Go, "error", func(s Status) bool { return s.State == StateError })
	require.Equal(t, 1006, s.CloseCode)
	before := h.generations()
	h.clock.Advance(60 * 1e9)
	require.Equal(t, before, h.generations(), "no fresh attempts after the resume gave up")
}

// Acks: the client acknowledges the task host's data frames after every
// AckEvery of them and with each heartbeat; the task host's acks free
// what the client keeps.
func TestClientAcks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, _ := readyResumable(t, h)
	c := h.current("s", wire.Go)
	require.NotNil(t, c.res)
	for i := 2; i < wire.AckEvery; i++ {
		a.send(`{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":4,"message":"x"}}`)
	}
	got := a.recv()
	require.Equal(t, `{"ack":64}`, got.raw, "acknowledged unasked after AckEvery frames")

	h.clock.Advance(wire.HeartbeatInterval)
	require.Equal(t, `{"heartbeat":1}`, a.recv().raw)
	require.Equal(t, `{"ack":64}`, a.recv().raw, "an ack goes with each heartbeat")

	c.res.mu.Lock()
	kept := c.res.out.Kept()
	c.res.mu.Unlock()
	require.Equal(t, 3, kept, "initialize, initialized, didOpen are kept")
	a.send(`{"ack":3}`)
	waitFor(t, func() bool {
		c.res.mu.Lock()
		defer c.res.mu.Unlock()
		return c.res.out.Kept() == 0
	})
}

// stallPath lets a heartbeat go out on a's socket and go unanswered for
// wire.HeartbeatTimeout, until the pair is reconnecting.
func stallPath(t *testing.T, h *harness, a *fakeAgent) {
	t.Helper()
	h.clock.Advance(wire.HeartbeatInterval)
	require.Equal(t, `{"heartbeat":1}`, a.recv().raw)
	a.recv() // its ack
	h.clock.Advance(wire.HeartbeatInterval)
	h.clock.Advance(wire.HeartbeatInterval) // 20 s unanswered
	h.expectState(t, StateReconnecting)
}

// An unanswered heartbeat drops the socket and resumes on another,
// rather than ending the connection.
func TestStalledPathResumes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, _ := readyResumable(t, h)
	stallPath(t, h, a)
	// The stalled socket is closed as lost, not normally: a normal
	// closure would tell the task host to stop the server.
	_, err := a.end.Read(ctxlite.Background())
	ce, ok := errors.AsType[*transport.CloseError](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, int(wire.ClosePathLost), ce.Code)
	h.clock.Advance(0)
	r := h.agent(t)
	require.Equal(t, "t1", query(t, r).Get(wire.ParamResume))
	r.send(`{"status":"resumed","resume":"t2","received":2}`)
	require.Equal(t, "textDocument/didOpen", r.recv().Method)
	h.expectState(t, StateReady)
	require.Equal(t, 1, h.generations())
}

// A stalled socket is closed as lost by every path that closes it: the
// heartbeat's drop and the read side's resume race to close it, and a
// socket keeps whichever close comes first, so a normal closure from
// either would reach the task host as "stop the server".
func TestStalledSocketIsNeverClosedNormally(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		codes [][]int // per dialed socket, the codes it was closed with
	)
	h := newHarness(t, func(cfg *Config) {
		dial := cfg.Dial
		cfg.Dial = func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error) {
			tr, err := dial(ctx, url)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			defer mu.Unlock()
			codes = append(codes, nil)
			return &closeRecorder{PipeEnd: tr.(transport.PipeEnd), mu: &mu, codes: &codes[len(codes)-1]}, nil
		}
	})
	a, _, _ := readyResumable(t, h)
	stallPath(t, h, a)
	h.clock.Advance(0)
	r := h.agent(t) // the resume dials only after both closes
	r.send(`{"status":"resumed","resume":"t2","received":2}`)
	require.Equal(t, "textDocument/didOpen", r.recv().Method)
	h.expectState(t, StateReady)
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, codes[0])
	for _, c := range codes[0] {
		require.Equal(t, int(wire.ClosePathLost), c, "the stalled socket's closes: %v", codes[0])
	}
}

// closeRecorder is a pipe end that notes each close and its code.
type closeRecorder struct {
	transport.PipeEnd
	mu    *sync.Mutex
	codes *[]int
}

func (c *closeRecorder) Close() error { c.note(1000); return c.PipeEnd.Close() }

func (c *closeRecorder) CloseWith(code int) { c.note(code); c.PipeEnd.CloseWith(code) }

func (c *closeRecorder) note(code int) {
	c.mu.Lock()
	*c.codes = append(*c.codes, code)
	c.mu.Unlock()
}

// waitFor polls cond until it holds, within a deadline.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("condition not met before the deadline")
		}
	}
}

// Back online, or back in the foreground: the wait before the next
// attempt is cut short, for a resume and for a fresh reconnect alike.
func TestNudgeTriesAgainAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, _ := readyResumable(t, h)
	a.closeWith(1006)
	h.expectState(t, StateReconnecting)
	h.clock.Advance(0)
	h.agent(t).closeWith(1006) // the first resume attempt finds no path
	for s := h.statuses.next(t); s.Attempt < 2; s = h.statuses.next(t) {
	}
	h.client.Nudge() // the clock stays: only the nudge can start attempt 2
	r := h.agent(t)
	require.Equal(t, "t1", query(t, r).Get(wire.ParamResume))
	r.closeWith(int(wire.CloseResumeRefused))

	// The fresh connection's attempt waits on its timer (armed for now, but
	// the clock stays) — until the nudge.
	waitFor(t, func() bool { return h.current("s", wire.Go) == nil })
	h.client.Nudge()
	require.False(t, query(t, h.agent(t)).Has(wire.ParamResume), "a fresh stream")
}
