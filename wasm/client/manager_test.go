package client

import (
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
	"github.com/stretchr/testify/require"
)

// policyFunc adapts a function to Policy.
type policyFunc func(string, wire.Language) bool

func (f policyFunc) ShouldConnect(s string, l wire.Language) bool { return f(s, l) }

// configMap is a Configs over a map, changeable while connections run.
type configMap struct {
	mu sync.Mutex
	m  map[wire.Language]string
}

func (c *configMap) Config(l wire.Language, _ string, _ bool) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[l]; ok {
		return []byte(v)
	}
	return nil
}

func (c *configMap) set(l wire.Language, v string) {
	c.mu.Lock()
	c.m[l] = v
	c.mu.Unlock()
}

func newHarnessWith(t *testing.T, mut func(*Config)) *harness {
	t.Helper()
	h := &harness{
		clock:    &clocktest.Manual{},
		dialer:   &fakeDialer{agents: make(chan *fakeAgent, 4), t: t},
		statuses: make(statusLog, 1024),
	}
	cfg := Config{RelayURL: "ws://relay.test/lsp", Dial: h.dialer.dial, Clock: h.clock, Version: "test", Logf: t.Logf,
		OnStatus: func(s Status) { h.statuses <- s }, ShutdownTimeout: 100 * clock.Millisecond}
	if mut != nil {
		mut(&cfg)
	}
	c, err := New(cfg)
	require.NoError(t, err)
	h.client = c
	t.Cleanup(func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		require.NoError(t, c.Close(ctx))
	})
	return h
}

// waitStatus waits until the pair's latest status satisfies cond.
func waitStatus(t *testing.T, c *Client, session string, lang wire.Language, what string, cond func(Status) bool) Status {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, ok := c.Status(session, lang)
		if ok && cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; last %+v", what, s)
		}
		time.Sleep(time.Millisecond)
	}
}

// noDial asserts the client has started no connection beyond those the test
// took. It counts generations rather than waiting for a dial that might
// still be on its way: a generation is counted before its goroutine dials
// (harness.generations), so nothing can arrive after the check.
func noDial(t *testing.T, h *harness) {
	t.Helper()
	if n := h.generations(); n != h.taken {
		t.Fatalf("unexpected dial: %d connections started, %d taken", n, h.taken)
	}
}

// stopAnswered answers the shutdown of a stopping connection.
func stopAnswered(a *fakeAgent) {
	sd := a.recvMethod("shutdown")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, sd.ID)
	a.recvMethod("exit")
}

// Two editors of one (session, language) share one connection; the last
// lease arms the idle timeout, which tears down to off.
func TestLeasesShareOneConnectionAndIdleTeardown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m1, m2 := newModel("package a\n"), newModel("package b\n")
	d1, err := h.client.OpenDocument("s", "a.go", m1, m1)
	require.NoError(t, err)
	d2, err := h.client.OpenDocument("s", "b.go", m2, m2)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	a.recvMethod("textDocument/didOpen")
	noDial(t, h)

	d1.Close()
	a.recvMethod("textDocument/didClose")
	h.clock.Advance(time.Hour) // a lease remains: no idle teardown
	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, StateReady, s.State)
	require.Equal(t, 1, s.Documents)

	d2.Close()
	a.recvMethod("textDocument/didClose")
	h.clock.Advance(time.Duration(DefaultIdleTimeout - clock.Millisecond))
	a.nothingQueued()
	h.clock.Advance(time.Millisecond)
	h.expectState(t, StateStopping)
	stopAnswered(a)
	s = h.expectState(t, StateOff)
	require.Equal(t, 0, s.CloseCode, "idle teardown is off, not an error")
}

// Opening a document while the idle timer runs keeps the connection.
func TestReopenDuringIdleKeepsConnection(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(c *Config) { c.IdleTimeout = clock.Minute })
	m := newModel("package a\n")
	d, err := h.client.OpenDocument("s", "a.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	d.Close()
	a.recvMethod("textDocument/didClose")
	h.clock.Advance(30 * time.Second)
	_, err = h.client.OpenDocument("s", "a.go", m, m)
	require.NoError(t, err)
	a.recvMethod("textDocument/didOpen")
	h.clock.Advance(time.Hour)
	a.nothingQueued()
	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, StateReady, s.State)
	noDial(t, h)
}

// The close code decides the final state; only an intentional end is off.
func TestOutcomeByCloseCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		code  int
		state State
	}{
		{4001, StateError}, {4002, StateUnavailable}, {4003, StateError}, {4004, StateUnavailable},
		{4005, StateUnavailable}, {4006, StateError}, {4007, StateError}, {4008, StateError},
		{1000, StateUnavailable}, {1001, StateUnavailable}, {1006, StateError},
	}
	for _, c := range cases {
		h := newHarness(t)
		m := newModel("")
		_, err := h.client.OpenDocument("s", "main.go", m, m)
		require.NoError(t, err)
		a := h.agent(t)
		h.expectState(t, StateConnecting)
		a.closeWith(c.code)
		s := h.expectState(t, c.state)
		require.Equal(t, c.code, s.CloseCode, "code %d", c.code)
		require.Empty(t, s.Message, "transport prose never becomes a message")

		st, code := Outcome(&transport.CloseError{Code: c.code}, true)
		require.Equal(t, StateOff, st)
		require.Zero(t, code)
	}
}

// A crash (4006) is an error with its code after ready, and Retry (Start)
// brings a new generation that reopens the documents with no stale progress.
func TestCrashThenRetryStartsCleanGeneration(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","id":9,"method":"window/workDoneProgress/create","params":{"token":"idx"}}`)
	a.recv()
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"idx","value":{"kind":"begin","title":"Indexing","percentage":30}}}`)
	s := waitStatus(t, h.client, "s", wire.Go, "progress", func(s Status) bool { return s.Progress.Active() })
	require.Equal(t, "Indexing", s.Progress.Primary.Title)
	require.Equal(t, uint64(1), s.Gen)

	a.closeWith(int(wire.CloseServerExited))
	s = h.expectState(t, StateError)
	require.Equal(t, 4006, s.CloseCode)
	require.False(t, s.Progress.Active(), "a crash clears progress")

	m.set("package main // edited\n")
	require.True(t, h.client.Start("s", wire.Go))
	a2 := h.agent(t)
	s = h.expectState(t, StateConnecting)
	require.Equal(t, uint64(2), s.Gen)
	require.False(t, s.Progress.Active())
	require.Nil(t, s.Progress.Finished)
	a2.send(`{"status":"ready","workspacePath":"/w"}`)
	h.expectState(t, StateStarting)
	init := a2.recvMethod("initialize")
	a2.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	a2.recvMethod("initialized")
	open := a2.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"text":"package main // edited\n"`)
	// The old token means nothing to the new generation.
	a2.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"idx","value":{"kind":"begin","title":"stale"}}}`)
	a2.send(`{"jsonrpc":"2.0","id":1,"method":"workspace/semanticTokens/refresh"}`)
	a2.recv() // handled in order after the progress notification was queued
	s, _ = h.client.Status("s", wire.Go)
	require.Equal(t, StateReady, s.State)
	require.False(t, s.Progress.Active())
}

// setUpReplacement leaves generation 1 stopping (its shutdown unanswered)
// and generation 2, started after it, ready with the document open. c1 is
// generation 1's connection, whose done is closed once its end is handled.
func setUpReplacement(t *testing.T) (h *harness, a1, a2 *fakeAgent, m *model, d *Document, c1 *connection) {
	t.Helper()
	h = newHarness(t)
	m = newModel("package main\n")
	d, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a1 = h.agent(t)
	handshake(t, h, a1, "/w", "file:///w")
	a1.recvMethod("textDocument/didOpen")
	a1.send(`{"jsonrpc":"2.0","id":9,"method":"window/workDoneProgress/create","params":{"token":"t"}}`)
	a1.recv()
	c1 = h.current("s", wire.Go)

	go func() { _ = h.client.Stop(ctxlite.Background(), "s", wire.Go) }()
	h.expectState(t, StateStopping)
	a1.recvMethod("shutdown") // left unanswered: generation 1 lingers

	require.True(t, h.client.Start("s", wire.Go))
	a2 = h.agent(t)
	handshake(t, h, a2, "/w", "file:///w")
	a2.recvMethod("textDocument/didOpen")
	a2.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"gen2"}]}}`)
	require.Equal(t, "gen2", m.nextMarkers(t)[0].Message)
	return h, a1, a2, m, d, c1
}

// A replaced generation that ends late cannot close its replacement: the
// pair keeps generation 2 and its ready status.
func TestReplacedGenerationCannotCloseReplacement(t *testing.T) {
	t.Parallel()
	h, a1, a2, _, _, c1 := setUpReplacement(t)
	a1.closeWith(int(wire.CloseServerExited)) // generation 1 dies late
	// Generation 1's done is closed once its end is handled and its final
	// status decided (or dropped).
	<-c1.done
	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, StateReady, s.State)
	require.Equal(t, uint64(2), s.Gen)
	require.Zero(t, s.CloseCode)
	// Generation 2 is still the pair's connection and still works.
	a2.send(`{"jsonrpc":"2.0","id":3,"method":"workspace/configuration","params":{"items":[{}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":3,"result":[null]}`, a2.recv().raw)
	noDial(t, h)
}

// A replaced generation cannot clean up its replacement: its late
// diagnostics, progress and end leave generation 2's markers and progress
// alone.
func TestReplacedGenerationCannotCleanUpReplacement(t *testing.T) {
	t.Parallel()
	h, a1, _, m, _, c1 := setUpReplacement(t)
	a1.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[]}}`)
	a1.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"t","value":{"kind":"begin","title":"stale"}}}`)
	a1.closeWith(int(wire.CloseServerExited))
	// Generation 1 is done once every handler of its messages has returned
	// and its end is handled: whatever it could touch, it has.
	<-c1.done
	select {
	case ms := <-m.markers:
		t.Fatalf("generation 1 touched generation 2's markers: %v", ms)
	default:
	}
	s, _ := h.client.Status("s", wire.Go)
	require.False(t, s.Progress.Active())
	require.Equal(t, StateReady, s.State)
}

// A replaced generation cannot initialize its replacement or open documents
// on itself: its ready callback is refused.
func TestReplacedGenerationCannotInitializeReplacement(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("package main\n")
	d, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a1 := h.agent(t)
	h.expectState(t, StateConnecting)
	h.client.mu.Lock()
	gen1 := h.client.pairs[connKey{"s", wire.Go, 0}].conn
	h.client.mu.Unlock()

	go func() { _ = h.client.Stop(ctxlite.Background(), "s", wire.Go) }()
	<-gen1.ctx.Done()
	require.True(t, h.client.Start("s", wire.Go))
	a2 := h.agent(t)
	a1.closeWith(1000)

	// Generation 1's initialize answer arriving now (the race the run
	// goroutine can hit between Call returning and reporting ready).
	gen1.mu.Lock()
	gen1.ready = true
	gen1.mu.Unlock()
	_, current := h.client.update(gen1, StateReady, 0)
	require.False(t, current)
	d.open(gen1)
	require.Empty(t, d.URI(), "a replaced generation opened the document")

	s, _ := h.client.Status("s", wire.Go)
	require.Equal(t, StateConnecting, s.State)
	require.Equal(t, uint64(2), s.Gen)
	handshake2 := func() {
		a2.send(`{"status":"ready","workspacePath":"/w"}`)
		init := a2.recvMethod("initialize")
		a2.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
		a2.recvMethod("initialized")
		a2.recvMethod("textDocument/didOpen")
	}
	handshake2()
	waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady && s.Gen == 2 })
}

// The idle timer of a replaced generation cannot stop its replacement.
func TestReplacedGenerationIdleTimerCannotStopReplacement(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, func(c *Config) { c.IdleTimeout = clock.Minute })
	require.True(t, h.client.Start("s", wire.Go)) // no document: idle from the start
	a1 := h.agent(t)
	h.expectState(t, StateConnecting)
	go func() { _ = h.client.Stop(ctxlite.Background(), "s", wire.Go) }()
	h.expectState(t, StateOff)
	a1.closeWith(1000)
	require.True(t, h.client.Start("s", wire.Go))
	a2 := h.agent(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	h.clock.Advance(time.Hour) // generation 1's timer was disarmed; gen 2 has a lease
	a2.send(`{"status":"ready","workspacePath":"/w"}`)
	init := a2.recvMethod("initialize")
	a2.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	a2.recvMethod("initialized")
	a2.recvMethod("textDocument/didOpen")
	waitStatus(t, h.client, "s", wire.Go, "ready", func(s Status) bool { return s.State == StateReady && s.Gen == 2 })
}

// workspace/configuration is answered item by item by section; a config
// change is pushed with didChangeConfiguration on the same connection and
// answered with the new value afterwards.
func TestConfigurationBySectionAndPushWithoutReconnect(t *testing.T) {
	t.Parallel()
	cfgs := &configMap{m: map[wire.Language]string{wire.Python: `{"python":{"analysis":{"typeCheckingMode":"basic"}},"pyright":{"disableOrganizeImports":true}}`}}
	h := newHarnessWith(t, func(c *Config) { c.Configs = cfgs })
	m := newModel("x = 1\n")
	_, err := h.client.OpenDocument("s", "app.py", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")

	a.send(`{"jsonrpc":"2.0","id":1,"method":"workspace/configuration","params":{"items":[{"section":"python.analysis"},{"section":"pyright"},{"section":"python.missing"},{"scopeUri":"file:///w"},{"section":"go"}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":[{"typeCheckingMode":"basic"},{"disableOrganizeImports":true},null,`+
		`{"python":{"analysis":{"typeCheckingMode":"basic"}},"pyright":{"disableOrganizeImports":true}},null]}`, a.recv().raw)
	a.sendMalformed(`{"jsonrpc":"2.0","id":2,"method":"workspace/configuration","params":"bad"}`)
	m2 := a.recv()
	require.NotNil(t, m2.Error)
	require.Equal(t, jsonrpc.ErrInvalidParams.Code, m2.Error.Code)

	cfgs.set(wire.Python, `{"python":{"analysis":{"typeCheckingMode":"strict"}}}`)
	h.client.PushConfiguration(wire.Python)
	h.client.PushConfiguration(wire.Go) // no Go connection: nothing sent
	ch := a.recvMethod("workspace/didChangeConfiguration")
	require.JSONEq(t, `{"settings":{"python":{"analysis":{"typeCheckingMode":"strict"}}}}`, string(ch.Params))
	a.nothingQueued()
	a.send(`{"jsonrpc":"2.0","id":3,"method":"workspace/configuration","params":{"items":[{"section":"python.analysis"}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":3,"result":[{"typeCheckingMode":"strict"}]}`, a.recv().raw)
	noDial(t, h)
	s, _ := h.client.Status("s", wire.Python)
	require.Equal(t, uint64(1), s.Gen, "no new connection")
}

// A document whose pair may not connect shows off; Start connects it and
// reopens it; Reconsider connects only allowed off pairs.
func TestPolicyGatesAutomaticConnects(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	allowed := false
	h := newHarnessWith(t, func(c *Config) {
		c.Policy = policyFunc(func(string, wire.Language) bool { mu.Lock(); defer mu.Unlock(); return allowed })
	})
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	s := h.expectState(t, StateOff)
	require.Equal(t, 1, s.Documents)
	noDial(t, h)
	h.client.Reconsider()
	noDial(t, h)

	mu.Lock()
	allowed = true
	mu.Unlock()
	h.client.Reconsider()
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")

	// A failed pair is not reconnected by Reconsider.
	a.closeWith(int(wire.CloseStartFailed))
	h.expectState(t, StateError)
	h.client.Reconsider()
	noDial(t, h)
	// Stop without a connection turns the error into off.
	require.NoError(t, h.client.Stop(ctxlite.Background(), "s", wire.Go))
	h.expectState(t, StateOff)
}

// A configuration that is not JSON is never copied into a message: the push
// is skipped and workspace/configuration answers an internal error.
func TestInvalidConfigurationIsNotSent(t *testing.T) {
	t.Parallel()
	cfgs := &configMap{m: map[wire.Language]string{wire.Python: `{"python":`}}
	h := newHarnessWith(t, func(c *Config) { c.Configs = cfgs })
	m := newModel("x = 1\n")
	_, err := h.client.OpenDocument("s", "app.py", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")

	h.client.PushConfiguration(wire.Python)
	a.send(`{"jsonrpc":"2.0","id":1,"method":"workspace/configuration","params":{"items":[{}]}}`)
	r := a.recv()
	require.NotNil(t, r.Error, r.raw)
	require.Equal(t, jsonrpc.ErrInternal.Code, r.Error.Code)
	a.nothingQueued()
}
