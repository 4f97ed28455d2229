//go:build linux

package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/e2e/fakelsp/fakelsptest"
	"github.com/kandev/lsp/e2e/fakelsp/script"
	"github.com/kandev/lsp/internal/wire"
)

// fakeFixture serves a Handler whose gopls is the fake language server,
// driven by s; every message the fake reads is recorded in f.record.
type fakeFixture struct {
	*fixture
	record string
}

func newFakeFixture(t testing.TB, s script.Script, mod ...func(*Config)) *fakeFixture {
	t.Helper()
	f := newFixture(t, "", mod...)
	fakelsptest.Install(t, f.bin, "gopls")
	ff := &fakeFixture{fixture: f, record: filepath.Join(t.TempDir(), "record.jsonl")}
	ff.script(t, s)
	return ff
}

// script sets the behaviour of the next fake started.
func (f *fakeFixture) script(t testing.TB, s script.Script) {
	t.Helper()
	s.RecordFile = f.record
	require.NoError(t, script.Write(f.ws, s))
}

func (f *fakeFixture) records(t testing.TB) []script.Record {
	t.Helper()
	rs, err := script.ReadRecords(f.record)
	require.NoError(t, err)
	return rs
}

// events returns the recorded events named what, in order.
func (f *fakeFixture) events(t testing.TB, what string) []script.Record {
	t.Helper()
	var out []script.Record
	for _, r := range f.records(t) {
		if r.Kind == "event" && r.Method == what {
			out = append(out, r)
		}
	}
	return out
}

// messages returns what the fake read, as kind:method, in order.
func (f *fakeFixture) messages(t testing.TB) []string {
	t.Helper()
	var seq []string
	for _, r := range f.records(t) {
		if r.Kind != "event" {
			seq = append(seq, r.Kind+":"+r.Method)
		}
	}
	return seq
}

func sendJSON(t testing.TB, c *websocket.Conn, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, b))
}

func didOpen(t testing.TB, c *websocket.Conn) {
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/a.go", "languageId": "go", "version": 1, "text": ""},
	}})
}

// A language server that crashes after didOpen closes the stream with 4006
// and no prose; the TERM-ignoring helper it leaves is reaped.
func TestServerCrashCloses4006(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{ExitOnDidOpen: script.Int(3), SpawnChildIgnoringTERM: true})
	c, _ := readReady(t, f.fixture)
	didOpen(t, c)
	requireClose(t, c, int(wire.CloseServerExited))
	child := f.events(t, "child")
	require.Len(t, child, 1)
	waitFor(t, func() bool { return !alive(child[0].Pid) })
	require.Equal(t, 3, f.events(t, "exit")[0].Code)
}

// The bridge carries a real session unchanged: initialize with an error
// answer is forwarded verbatim (the browser shows error.message).
func TestInitializeErrorForwarded(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{InitializeError: &script.RPCError{Code: -32603, Message: "Gradle import failed"}})
	c, _ := readReady(t, f.fixture)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Gradle import failed"}}`, string(b))
}

// Ending a stream while the server still reads sends it shutdown and exit,
// so it exits 0 by itself before any signal.
func TestTeardownSendsShutdownExit(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{}, func(c *Config) { c.StopGrace = 10 * time.Second })
	c, _ := readReady(t, f.fixture)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	_, _, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
	waitFor(t, func() bool { return len(f.events(t, "exit")) == 1 })

	require.Equal(t, []string{"request:initialize", "request:shutdown", "notification:exit"}, f.messages(t))
	require.Equal(t, 0, f.events(t, "exit")[0].Code, "a clean LSP exit, not a signal")
}

// A server that stops reading stdin gets no goodbye (its stdin is stuck)
// and is stopped by signals; the stdin write timeout closes 4006.
func TestStalledStdinFake(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{StopReadingStdin: true}, func(c *Config) { c.StdinWriteTimeout = 100 * time.Millisecond })
	c, _ := readReady(t, f.fixture)
	start := f.events(t, "start")
	waitFor(t, func() bool { start = f.events(t, "start"); return len(start) == 1 })
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, make([]byte, 4<<20)))
	requireClose(t, c, int(wire.CloseServerExited))
	waitFor(t, func() bool { return !alive(start[0].Pid) })
}

// Scripted work-done progress crosses the bridge unchanged, including the
// server's own window/workDoneProgress/create request and our answer to it.
func TestProgressCrossesBridge(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{Progress: []script.ProgressStep{
		{On: script.OnInitialize, Kind: "begin", Title: "Importing", Percentage: script.Int(10)},
		{On: script.OnInitialized, Token: json.RawMessage(`"idx"`), Create: true, Kind: "begin", Title: "Indexing"},
	}, InitializeDelayMs: 50})
	c, _ := readReady(t, f.fixture)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"workDoneToken": 7}})
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"$/progress","params":{"token":7,"value":{"kind":"begin","title":"Importing","percentage":10}}}`, string(b))
	_, b, err = c.Read(testCtx(t))
	require.NoError(t, err)
	require.Contains(t, string(b), `"id":1`)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	_, b, err = c.Read(testCtx(t))
	require.NoError(t, err)
	var create struct {
		ID     json.RawMessage
		Method string
	}
	require.NoError(t, json.Unmarshal(b, &create))
	require.Equal(t, "window/workDoneProgress/create", create.Method)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": create.ID, "result": nil})
	_, b, err = c.Read(testCtx(t))
	require.NoError(t, err)
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"$/progress","params":{"token":"idx","value":{"kind":"begin","title":"Indexing"}}}`, string(b))
	waitFor(t, func() bool {
		rs := f.records(t)
		return len(rs) > 0 && rs[len(rs)-1].Kind == "answer" && rs[len(rs)-1].Method == "window/workDoneProgress/create"
	})
}

// TestCrashCyclesLeaveNoDescendants runs 50 cycles of open, crash and
// close — a server that exits on didOpen and leaves a TERM-ignoring child —
// and then requires that no process descends from this (agent) process and
// that every process group a server led is empty. It is not parallel, so
// no other test's processes are around while it counts.
func TestCrashCyclesLeaveNoDescendants(t *testing.T) {
	f := newFakeFixture(t, script.Script{ExitOnDidOpen: script.Int(1), SpawnChildIgnoringTERM: true},
		func(c *Config) { c.StopGrace, c.KillGrace = 50*time.Millisecond, 50*time.Millisecond })
	const cycles = 50
	for i := range cycles {
		c, _ := readReady(t, f.fixture)
		if i%2 == 0 {
			didOpen(t, c) // crash
			requireClose(t, c, int(wire.CloseServerExited))
		} else {
			// Close before the crash, but after the fake has recorded its
			// start: a fake still starting up (slow on a loaded machine)
			// would be stopped before it could, and go uncounted.
			waitFor(t, func() bool { return len(f.events(t, "start")) == i+1 })
			require.NoError(t, c.Close(websocket.StatusNormalClosure, "")) // close before the crash
		}
		c.CloseNow()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, f.h.Shutdown(ctx))

	starts, children := f.events(t, "start"), f.events(t, "child")
	require.Len(t, starts, cycles)
	// A crashing fake always spawned its child first (it reads didOpen
	// after); one closed right after ready may be stopped before it does.
	require.GreaterOrEqual(t, len(children), cycles/2)
	groups := map[int]bool{}
	for _, s := range starts {
		groups[s.Pgid] = true
	}
	require.Len(t, groups, cycles, "every server led its own group")
	waitFor(t, func() bool { return len(leftovers(os.Getpid(), groups)) == 0 })
}

// leftovers lists live processes that descend from agent or sit in one of
// groups.
func leftovers(agent int, groups map[int]bool) []int {
	type stat struct{ ppid, pgrp int }
	procs := map[int]stat{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 || f[0][0] == 'Z' {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		pgrp, _ := strconv.Atoi(string(f[2]))
		procs[pid] = stat{ppid, pgrp}
	}
	var out []int
	for pid, st := range procs {
		if groups[st.pgrp] {
			out = append(out, pid)
			continue
		}
		for p, seen := st.ppid, 0; p > 1 && seen < 64; p, seen = procs[p].ppid, seen+1 {
			if p == agent {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// Task stop says goodbye to the server (shutdown, exit), but the server's
// answer to that shutdown is the agent's business: the peer sees nothing
// but the 1001 close.
func TestShutdownAnswerNotForwarded(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, script.Script{})
	c, _ := readReady(t, f.fixture)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	_, _, err := c.Read(testCtx(t))
	require.NoError(t, err)

	done := make(chan error, 1)
	go func() { done <- f.h.Shutdown(testCtx(t)) }()
	for {
		_, b, err := c.Read(testCtx(t))
		if err != nil {
			require.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err))
			break
		}
		t.Errorf("peer got %s after task stop began", b)
	}
	require.NoError(t, <-done)
	waitFor(t, func() bool { return len(f.events(t, "exit")) == 1 })
	require.Equal(t, 0, f.events(t, "exit")[0].Code, "shutdown was answered and exit honoured")
}
