//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// asMain makes the test binary act as the fake itself, so the tests (and
// the child the fake spawns, which re-executes this binary) need no build.
const asMain = "FAKELSP_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// client drives one fake over its stdio.
type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  *os.File
	w      *framing.Writer
	r      *framing.Reader
	record string
	ws     string
}

// startFake runs the fake in a fresh workspace holding s as .fakelsp.json.
func startFake(t *testing.T, s script.Script, args ...string) *client {
	t.Helper()
	ws := t.TempDir()
	s.RecordFile = filepath.Join(ws, "record.jsonl")
	require.NoError(t, script.Write(ws, s))
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), asMain+"=1")
	cmd.Stderr = os.Stderr
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdin, cmd.Stdout = inR, outW
	require.NoError(t, cmd.Start())
	inR.Close()
	outW.Close()
	c := &client{t: t, cmd: cmd, stdin: inW, w: framing.NewWriter(inW), r: framing.NewReader(outR), record: s.RecordFile, ws: ws}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		inW.Close()
		outR.Close()
	})
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(c.t, err)
	require.NoError(c.t, c.w.Write(b))
}

func (c *client) request(id any, method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// next reads one message; reads end with the process, so no deadline is
// needed beyond the test's own.
func (c *client) next() message {
	c.t.Helper()
	b, err := c.r.Read()
	require.NoError(c.t, err)
	var m message
	require.NoError(c.t, json.Unmarshal(b, &m))
	require.Equal(c.t, "2.0", m.JSONRPC)
	return m
}

// wait returns the exit code.
func (c *client) wait() int {
	c.t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(c.t, err)
		return 0
	case <-time.After(20 * time.Second):
		c.t.Fatal("fake did not exit")
		return -1
	}
}

func (c *client) records() []script.Record {
	c.t.Helper()
	rs, err := script.ReadRecords(c.record)
	require.NoError(c.t, err)
	return rs
}

func (c *client) initialize(params map[string]any) message {
	c.t.Helper()
	if params == nil {
		params = map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}
	}
	c.request(1, "initialize", params)
	m := c.next()
	require.Equal(c.t, "1", string(m.ID))
	return m
}

func TestVersion(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-version")
	cmd.Env = append(os.Environ(), asMain+"=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	require.Equal(t, "fakelsp "+version+"\n", string(out))
}

// TestLifecycle walks a whole session the way a client does and checks the
// answers and the record, in order.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Hover: "**hi**"}, "--stdio")

	c.request("early", "textDocument/hover", map[string]any{})
	m := c.next()
	require.Equal(t, `"early"`, string(m.ID), "string ids come back verbatim")
	require.Equal(t, -32002, m.Error.Code, "requests before initialize are refused")

	m = c.initialize(nil)
	require.Nil(t, m.Error)
	var res struct {
		Capabilities json.RawMessage
		ServerInfo   struct{ Name, Version string }
	}
	require.NoError(t, json.Unmarshal(m.Result, &res))
	require.JSONEq(t, string(script.DefaultCapabilities), string(res.Capabilities))
	require.Equal(t, "fakelsp", res.ServerInfo.Name)

	c.notify("initialized", map[string]any{})
	uri := "file:///w/main.go"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 3, "text": "x"}})
	m = c.next()
	require.Equal(t, "textDocument/publishDiagnostics", m.Method)
	require.JSONEq(t, `{"uri":"file:///w/main.go","version":3,"diagnostics":[]}`, string(m.Params))

	c.request(7, "textDocument/hover", map[string]any{})
	m = c.next()
	require.Equal(t, "7", string(m.ID))
	require.JSONEq(t, `{"contents":{"kind":"markdown","value":"**hi**"}}`, string(m.Result))

	c.request(8, "textDocument/definition", map[string]any{})
	m = c.next()
	require.Equal(t, -32601, m.Error.Code)

	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 4}})
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.request(9, "shutdown", nil)
	m = c.next()
	require.Equal(t, "9", string(m.ID))
	require.Equal(t, "null", string(m.Result))
	c.notify("exit", nil)
	require.Equal(t, 0, c.wait(), "exit after shutdown is 0")

	var seq []string
	for _, r := range c.records() {
		seq = append(seq, r.Kind+":"+r.Method)
	}
	require.Equal(t, []string{
		"event:start", "request:textDocument/hover", "request:initialize", "notification:initialized",
		"notification:textDocument/didOpen", "request:textDocument/hover", "request:textDocument/definition",
		"notification:textDocument/didChange", "notification:textDocument/didSave", "request:shutdown", "notification:exit", "event:exit",
	}, seq)
}

func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{})
	c.initialize(nil)
	c.notify("exit", nil)
	require.Equal(t, 1, c.wait(), "exit without shutdown is 1")
}

func TestStdinEOFEndsServer(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{})
	c.initialize(nil)
	c.stdin.Close()
	require.Equal(t, 1, c.wait())
}

func TestCustomCapabilities(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Capabilities: json.RawMessage(`{"completionProvider":{"triggerCharacters":["."]}}`)})
	m := c.initialize(nil)
	require.JSONEq(t, `{"capabilities":{"completionProvider":{"triggerCharacters":["."]}},"serverInfo":{"name":"fakelsp","version":"`+version+`"}}`, string(m.Result))
}

func TestEcho(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Echo: true})
	for _, body := range []string{`{"jsonrpc":"2.0","method":"exit"}`, strings.Repeat("y", 1<<20), ""} {
		require.NoError(t, c.w.Write([]byte(body)))
		got, err := c.r.Read()
		require.NoError(t, err)
		require.Equal(t, body, string(got))
	}
	c.stdin.Close()
	require.Equal(t, 0, c.wait())
}

func TestExitOnDidOpen(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{ExitOnDidOpen: script.Int(7)})
	c.initialize(nil)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///a"}})
	require.Equal(t, 7, c.wait())
}

func TestInitializeError(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{InitializeError: &script.RPCError{Code: -32603, Message: "project import failed"}})
	m := c.initialize(nil)
	require.Equal(t, &script.RPCError{Code: -32603, Message: "project import failed"}, m.Error)
	require.Nil(t, m.Result)
}

// A delayed initialize answer does not stop the fake from reading: the
// hover sent after it is answered first.
func TestInitializeDelay(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{InitializeDelayMs: 300})
	c.request(1, "initialize", map[string]any{})
	c.request(2, "textDocument/hover", map[string]any{})
	require.Equal(t, "2", string(c.next().ID))
	m := c.next()
	require.Equal(t, "1", string(m.ID))
	require.NotNil(t, m.Result)
}

func TestNeverAnswerInitialize(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{NeverAnswerInitialize: true})
	c.request(1, "initialize", map[string]any{})
	c.request(2, "shutdown", nil)
	require.Equal(t, "2", string(c.next().ID), "shutdown answered, initialize still pending")
	c.notify("exit", nil)
	require.Equal(t, 0, c.wait())
}

// A fake that stops reading stdin makes a writer stall once the pipe is
// full.
func TestStopReadingStdin(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{StopReadingStdin: true})
	require.NoError(t, c.stdin.SetWriteDeadline(time.Now().Add(200*time.Millisecond)))
	err := c.w.Write(make([]byte, 8<<20))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
	// SIGTERM only once the fake handles it: sent earlier (a slow start),
	// it would kill the fake outright rather than make it exit 1.
	require.Eventually(t, func() bool {
		for _, r := range c.records() {
			if r.Method == "blocking" {
				return true
			}
		}
		return false
	}, 20*time.Second, 10*time.Millisecond, "the fake blocks with its stop handler installed")
	require.NoError(t, c.cmd.Process.Signal(syscall.SIGTERM))
	require.Equal(t, 1, c.wait())
}

func TestProgress(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Progress: []script.ProgressStep{
		{On: script.OnInitialize, Kind: "begin", Title: "Importing", Percentage: script.Int(0)},
		{On: script.OnInitialize, DelayMs: 10, Kind: "report", Message: "half", Percentage: script.Int(50)},
		{On: script.OnInitialized, Token: json.RawMessage(`42`), Create: true, Kind: "begin", Title: "Indexing"},
		{On: script.OnInitialized, Token: json.RawMessage(`42`), Kind: "end", Message: "done", Percentage: script.Int(100)},
	}, InitializeDelayMs: 200})
	c.request(1, "initialize", map[string]any{"workDoneToken": "init-tok"})
	want := []string{
		`{"token":"init-tok","value":{"kind":"begin","title":"Importing","percentage":0}}`,
		`{"token":"init-tok","value":{"kind":"report","message":"half","percentage":50}}`,
	}
	for _, w := range want {
		m := c.next()
		require.Equal(t, "$/progress", m.Method)
		require.JSONEq(t, w, string(m.Params))
	}
	require.Equal(t, "1", string(c.next().ID), "progress came before the initialize answer")

	c.notify("initialized", map[string]any{})
	m := c.next()
	require.Equal(t, "window/workDoneProgress/create", m.Method)
	require.JSONEq(t, `{"token":42}`, string(m.Params))
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(m.ID), "result": nil})
	for _, w := range []string{`{"token":42,"value":{"kind":"begin","title":"Indexing"}}`, `{"token":42,"value":{"kind":"end","message":"done"}}`} {
		m := c.next()
		require.Equal(t, "$/progress", m.Method)
		require.JSONEq(t, w, string(m.Params))
	}
	rs := c.records()
	require.Equal(t, "answer", rs[len(rs)-1].Kind)
	require.Equal(t, "window/workDoneProgress/create", rs[len(rs)-1].Method)
}

func TestRequestConfiguration(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{RequestConfiguration: []string{"gopls", "python.analysis"}})
	c.initialize(nil)
	c.notify("initialized", map[string]any{})
	m := c.next()
	require.Equal(t, "workspace/configuration", m.Method)
	require.JSONEq(t, `{"items":[{"section":"gopls"},{"section":"python.analysis"}]}`, string(m.Params))
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(m.ID), "result": []any{map[string]any{"staticcheck": true}, nil}})
	// A change notification makes the fake pull the configuration again.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	m2 := c.next()
	require.Equal(t, "workspace/configuration", m2.Method)
	require.NotEqual(t, string(m.ID), string(m2.ID), "a fresh request id")
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(m2.ID), "result": []any{map[string]any{"staticcheck": false}, nil}})
	c.request(2, "shutdown", nil) // a round trip: the answers have been read
	c.next()
	var answers []script.Record
	for _, r := range c.records() {
		if r.Kind == "answer" {
			answers = append(answers, r)
		}
	}
	require.Len(t, answers, 2)
	require.Equal(t, "workspace/configuration", answers[0].Method)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":[{"staticcheck":true},null]}`, string(answers[0].Message))
	require.JSONEq(t, `{"jsonrpc":"2.0","id":`+string(m2.ID)+`,"result":[{"staticcheck":false},null]}`, string(answers[1].Message))
}

func TestSpawnChildIgnoringTERM(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{SpawnChildIgnoringTERM: true})
	c.initialize(nil) // the child is spawned before serving
	var child int
	for _, r := range c.records() {
		if r.Kind == "event" && r.Method == "child" {
			child = r.Pid
		}
	}
	require.NotZero(t, child)
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	pgid, err := syscall.Getpgid(child)
	require.NoError(t, err)
	require.Equal(t, syscall.Getpgrp(), pgid, "the child stays in the server's group")
	// The child catches TERM (SigCgt bit 15) and so survives it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !catchesTerm(child) {
		select {
		case <-ctx.Done():
			t.Fatal("child never caught SIGTERM")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// catchesTerm reads the caught-signal mask of pid from /proc.
func catchesTerm(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("SigCgt:")); ok {
			mask, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 16, 64)
			return err == nil && mask&(1<<(uint(syscall.SIGTERM)-1)) != 0
		}
	}
	return false
}

func TestScriptFromEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	rec := filepath.Join(dir, "r.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"exitOnDidOpen": 5}`), 0o644))
	s, err := script.Load(t.TempDir(), func(k string) string {
		return map[string]string{script.EnvScript: p, script.EnvRecord: rec}[k]
	})
	require.NoError(t, err)
	require.Equal(t, 5, *s.ExitOnDidOpen)
	require.Equal(t, rec, s.RecordFile)
	_, err = script.Load(t.TempDir(), func(k string) string { return map[string]string{script.EnvScript: filepath.Join(dir, "missing")}[k] })
	require.Error(t, err, "an explicit script must exist")
	s, err = script.Load(t.TempDir(), func(string) string { return "" })
	require.NoError(t, err)
	require.Equal(t, script.Script{}, s, "no file is a plain server")
}

// TestAnswers: a scripted answer is the result of every request of its
// method; other methods stay unknown.
func TestAnswers(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Answers: map[string]json.RawMessage{
		"textDocument/completion": json.RawMessage(`{"isIncomplete":true,"items":[{"label":"a"}]}`),
	}}, "--stdio")
	require.Nil(t, c.initialize(nil).Error)
	c.notify("initialized", map[string]any{})
	for id := 1; id <= 2; id++ {
		c.request(id, "textDocument/completion", map[string]any{})
		m := c.next()
		require.JSONEq(t, `{"isIncomplete":true,"items":[{"label":"a"}]}`, string(m.Result))
	}
	c.request(3, "textDocument/signatureHelp", map[string]any{})
	require.Equal(t, -32601, c.next().Error.Code)
}

// A server that cannot load the project rejects initialize and exits.
func TestInitializeErrorThenExit(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{InitializeError: &script.RPCError{Code: -32603, Message: "no go.mod"}, ExitAfterInitializeError: true})
	m := c.initialize(nil)
	require.Equal(t, "no go.mod", m.Error.Message)
	require.Equal(t, 1, c.wait())
}

// rust-analyzer sends the begin right after window/workDoneProgress/create,
// without waiting for its answer.
func TestProgressWithoutWaitingForCreate(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{Progress: []script.ProgressStep{
		{On: script.OnInitialized, Token: json.RawMessage(`"rustAnalyzer/Indexing"`), Create: true, NoWait: true, Kind: "begin", Title: "Indexing"},
	}})
	c.initialize(nil)
	c.notify("initialized", map[string]any{})
	create := c.next()
	require.Equal(t, "window/workDoneProgress/create", create.Method)
	// Not answered yet, and the begin is already there.
	begin := c.next()
	require.Equal(t, "$/progress", begin.Method)
	require.JSONEq(t, `{"token":"rustAnalyzer/Indexing","value":{"kind":"begin","title":"Indexing"}}`, string(begin.Params))
}

// Registrations come late, on their trigger, and wait for their answer;
// messages for people are notifications, or requests with actions whose
// answer is recorded.
func TestLateRegistrationsAndMessages(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{
		Registrations: []script.RegistrationStep{
			{On: script.OnInitialized, ID: "save", Method: "textDocument/didSave", RegisterOptions: json.RawMessage(`{"includeText":true}`)},
			{On: script.OnInitialized, ID: "save", Method: "textDocument/didSave", Unregister: true},
		},
		Messages: []script.MessageStep{
			{On: script.OnDidOpen, Type: 2, Message: "Cargo.toml has errors"},
			{On: script.OnDidOpen, Type: 1, Message: "Reload?", Actions: []string{"Reload", "Ignore"}},
		},
	})
	c.initialize(nil)
	c.notify("initialized", map[string]any{})
	reg := c.next()
	require.Equal(t, "client/registerCapability", reg.Method)
	require.JSONEq(t, `{"registrations":[{"id":"save","method":"textDocument/didSave","registerOptions":{"includeText":true}}]}`, string(reg.Params))
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(reg.ID), "result": nil})
	unreg := c.next()
	require.Equal(t, "client/unregisterCapability", unreg.Method)
	require.JSONEq(t, `{"unregisterations":[{"id":"save","method":"textDocument/didSave"}]}`, string(unreg.Params))
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(unreg.ID), "result": nil})

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///w/src/main.rs", "version": 1}})
	seen := map[string]message{}
	for len(seen) < 3 {
		m := c.next()
		seen[m.Method] = m
	}
	require.JSONEq(t, `{"type":2,"message":"Cargo.toml has errors"}`, string(seen["window/showMessage"].Params))
	ask := seen["window/showMessageRequest"]
	require.JSONEq(t, `{"type":1,"message":"Reload?","actions":[{"title":"Reload"},{"title":"Ignore"}]}`, string(ask.Params))
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(ask.ID), "result": map[string]string{"title": "Ignore"}})
	c.request(2, "shutdown", nil)
	require.Equal(t, "2", string(c.next().ID))
	var answered []string
	for _, r := range c.records() {
		if r.Kind == "answer" {
			answered = append(answered, r.Method)
			if r.Method == "window/showMessageRequest" {
				require.Contains(t, string(r.Message), `"title":"Ignore"`)
			}
		}
	}
	require.Equal(t, []string{"client/registerCapability", "client/unregisterCapability", "window/showMessageRequest"}, answered)
}

// A request step on a client method runs once, after the first such
// request was answered: the refresh a server sends makes the client ask
// again, which must not send it again.
func TestRequestStepAfterFirstAnswer(t *testing.T) {
	t.Parallel()
	c := startFake(t, script.Script{
		Answers:  map[string]json.RawMessage{"textDocument/semanticTokens/full": json.RawMessage(`{"data":[]}`)},
		Requests: []script.RequestStep{{On: "textDocument/semanticTokens/full", Method: "workspace/semanticTokens/refresh"}},
	})
	c.initialize(nil)
	full := map[string]any{"textDocument": map[string]string{"uri": "file:///w/src/main.rs"}}
	c.request(2, "textDocument/semanticTokens/full", full)
	require.JSONEq(t, `{"data":[]}`, string(c.next().Result))
	refresh := c.next()
	require.Equal(t, "workspace/semanticTokens/refresh", refresh.Method)
	require.Empty(t, refresh.Params, "a refresh carries no params")
	c.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(refresh.ID), "result": nil})
	c.request(3, "textDocument/semanticTokens/full", full)
	require.Equal(t, "3", string(c.next().ID))
	c.request(4, "shutdown", nil)
	require.Equal(t, "4", string(c.next().ID), "no second refresh before the shutdown's answer")
}
