package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

// Behaviours of real servers that a polite fake never shows, each played by
// the fake agent exactly as the server sends it.

// rust-analyzer sends window/workDoneProgress/create and the begin for the
// new token back to back, without waiting for the create's answer: the
// begin is not dropped.
func TestProgressBeginRightAfterCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, a := readyDoc(t, h, "s", "src/main.rs", "fn main() {}\n")

	a.send(`{"jsonrpc":"2.0","id":"c1","method":"window/workDoneProgress/create","params":{"token":"rustAnalyzer/Indexing"}}`)
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"rustAnalyzer/Indexing","value":{"kind":"begin","title":"Indexing","percentage":0}}}`)
	a.recvMethod("") // the create's answer
	s := waitStatus(t, h.client, "s", wire.Rust, "indexing progress", func(s Status) bool { return s.Progress.Primary != nil })
	require.Equal(t, "Indexing", s.Progress.Primary.Title)
}

// logLines collects the client's developer log.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) matching(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

// A server registers capabilities late and repeatedly (gopls registers
// workspace/didChangeWatchedFiles, typescript-language-server re-registers
// what it already has): a method the client does not wire changes nothing,
// and a change re-registers only the providers it touches, so a peek
// preview's placeholder model survives and Monaco's provider order holds.
func TestLateRegistrationsChangeOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	_, _, a := readyDoc(t, h, "s", "main.go", "package main\n")
	first := rec.providers(t)
	require.Len(t, first, 4)
	id := first["hover"].connID

	register := func(id, params string) {
		t.Helper()
		a.send(`{"jsonrpc":"2.0","id":%q,"method":"client/registerCapability","params":{"registrations":[%s]}}`, id, params)
		a.recvMethod("") // answered only after the registration took effect
	}
	register("w1", `{"id":"watch","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.go"}]}}`)
	register("w2", `{"id":"cfg","method":"workspace/didChangeConfiguration"}`)
	require.Empty(t, rec.providers(t), "unwired methods change no provider")
	rec.none(t, "ended")

	// The same hover again: nothing to redo.
	register("w3", `{"id":"h2","method":"textDocument/hover","registerOptions":{"documentSelector":[{"language":"go"}]}}`)
	require.Empty(t, rec.providers(t))

	// New completion trigger characters: completion alone is redone.
	register("w4", `{"id":"c2","method":"textDocument/completion","registerOptions":{"documentSelector":[{"language":"go"}],"triggerCharacters":["("]}}`)
	got := rec.providers(t)
	require.Len(t, got, 1)
	require.Equal(t, `{"triggerCharacters":[".","("],"resolve":false}`, got["completion"].opts)

	// Withdrawn: only it is disposed, and its requests stop.
	a.send(`{"jsonrpc":"2.0","id":"u1","method":"client/unregisterCapability","params":{"unregisterations":[{"id":"c2","method":"textDocument/completion"}]}}`)
	a.recvMethod("")
	got = rec.providers(t)
	require.Len(t, got, 1)
	require.Equal(t, `{"triggerCharacters":["."],"resolve":false}`, got["completion"].opts)
	require.Equal(t, id, got["completion"].connID)
}

// A provider request the server fails is answered null (Monaco shows
// nothing) and logged once per cause, not once per keystroke.
func TestProviderFailuresLoggedOncePerCause(t *testing.T) {
	t.Parallel()
	var log logLines
	h := newHarnessWith(t, func(c *Config) { c.Logf = log.logf })
	rec := make(recordingEditor, 256)
	h.client.cfg.Editor = rec
	_, _, a := readyDoc(t, h, "s", "main.go", "package main\n")
	id := rec.next(t, "provider").connID

	hoverFails := func(code int, message string) {
		t.Helper()
		got := provide(h, id, features.Hover, `{"uri":"kandev://s/main.go","lineNumber":1,"column":1}`)
		req := a.recvMethod("textDocument/hover")
		a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.ID, code, message)
		require.Equal(t, "null", answer(t, got))
	}
	for range 5 {
		hoverFails(-32603, "no package for file")
	}
	require.Equal(t, 1, log.matching("no package for file"))
	hoverFails(-32603, "another cause")
	require.Equal(t, 1, log.matching("another cause"))
	// The server dropping an outdated request is no failure; it is asked
	// again (retry.go) until the bound.
	got := provide(h, id, features.Hover, `{"uri":"kandev://s/main.go","lineNumber":1,"column":1}`)
	for range maxRequestRetries + 1 {
		req := a.recvMethod("textDocument/hover")
		a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32801,"message":"content modified"}}`, req.ID)
	}
	require.Equal(t, "null", answer(t, got))
	require.Equal(t, 0, log.matching("content modified"))
}

// A server that advertises no textDocumentSync and registers it
// dynamically, by document selector (as servers built on vscode-languageserver
// may): documents open when didOpen is registered, changes follow
// didChange's syncKind, saves reach it with text as didSave's includeText
// asks, and unregistering stops them.
func TestDynamicSynchronization(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("package main\n")
	doc, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w"}`)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"hoverProvider":true}}}`, init.ID)
	a.recvMethod("initialized")
	h.expectState(t, StateStarting)
	h.expectState(t, StateReady)
	a.nothingQueued() // no didOpen: not asked for

	register := func(id, params string) {
		t.Helper()
		a.send(`{"jsonrpc":"2.0","id":%q,"method":"client/registerCapability","params":{"registrations":[%s]}}`, id, params)
	}
	register("r1", `{"id":"open","method":"textDocument/didOpen","registerOptions":{"documentSelector":[{"language":"go"}]}},`+
		`{"id":"close","method":"textDocument/didClose","registerOptions":{"documentSelector":[{"language":"go"}]}},`+
		`{"id":"change","method":"textDocument/didChange","registerOptions":{"documentSelector":[{"language":"go"}],"syncKind":1}},`+
		`{"id":"py-save","method":"textDocument/didSave","registerOptions":{"documentSelector":[{"language":"python"}]}}`)
	// The didOpen and the registration's answer, in either order: a
	// registration read while the connection is still opening its
	// documents leaves the didOpen to the connection.
	got := map[string]rpcMsg{}
	for range 2 {
		m := a.recv()
		got[m.Method] = m
	}
	require.Contains(t, got, "", "the registration's answer")
	require.Contains(t, string(got["textDocument/didOpen"].Params), `"text":"package main\n"`)

	m.set("package main\n\nx")
	doc.MarkDirty()
	h.clock.Advance(time.Duration(DefaultDebounce))
	change := a.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), `"contentChanges":[{"text":"package main\n\nx"}]`)

	// didSave for python documents only: a Go save sends none.
	_, err = h.client.Saved(`{"model":"kandev://s/main.go","ok":true,"persistedVersion":1,"liveVersion":1}`)
	require.NoError(t, err)
	a.nothingQueued()
	register("r2", `{"id":"save","method":"textDocument/didSave","registerOptions":{"documentSelector":[{"language":"go"}],"includeText":true}}`)
	a.recvMethod("")
	_, err = h.client.Saved(`{"model":"kandev://s/main.go","ok":true,"persistedVersion":2,"liveVersion":2,"text":"package main\n\nx"}`)
	require.NoError(t, err)
	save := a.recvMethod("textDocument/didSave")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///w/main.go"},"text":"package main\n\nx"}`, string(save.Params))

	a.send(`{"jsonrpc":"2.0","id":"u1","method":"client/unregisterCapability","params":{"unregisterations":[{"id":"save","method":"textDocument/didSave"}]}}`)
	a.recvMethod("")
	_, err = h.client.Saved(`{"model":"kandev://s/main.go","ok":true,"persistedVersion":3,"liveVersion":3}`)
	require.NoError(t, err)
	a.nothingQueued()

	doc.Close()
	a.recvMethod("textDocument/didClose")
}

// Two Monaco models of one task file in one session (two editors) share
// one server document: one didOpen, diagnostics on both, provider calls
// answered for each, one didClose after the last closes.
func TestTwoModelsOfOneFileShareTheServerDocument(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	m1 := &namedModel{model: newModel("package main\n"), uri: "kandev://s/main.go"}
	m2 := &namedModel{model: newModel("package main\n"), uri: "kandev://s/main.go?view=2"}
	d1, err := h.client.OpenDocument("s", "main.go", m1, m1)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	id := rec.next(t, "provider").connID

	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"first"}]}}`)
	require.Equal(t, "first", m1.nextMarkers(t)[0].Message)

	// The second model: no second didOpen, and it shows the diagnostics
	// published before it came.
	d2, err := h.client.OpenDocument("s", "main.go", m2, m2)
	require.NoError(t, err)
	a.nothingQueued()
	require.Equal(t, "first", m2.nextMarkers(t)[0].Message)

	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"both"}]}}`)
	require.Equal(t, "both", m1.nextMarkers(t)[0].Message)
	require.Equal(t, "both", m2.nextMarkers(t)[0].Message)

	for _, uri := range []string{m1.uri, m2.uri} {
		got := provide(h, id, features.Hover, `{"uri":"`+uri+`","lineNumber":1,"column":1}`)
		req := a.recvMethod("textDocument/hover")
		require.Contains(t, string(req.Params), `"uri":"file:///w/main.go"`)
		a.send(`{"jsonrpc":"2.0","id":%s,"result":{"contents":"package main"}}`, req.ID)
		require.Contains(t, answer(t, got), "package main")
	}

	// An edit in the second model: the server gets that model's whole text.
	m2.set("package main\n\nfunc f() {}\n")
	require.NoError(t, d2.Changed(`{"versionId":2,"isFlush":false,"isEolChange":false,"changes":[{"range":{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":1},"rangeOffset":13,"rangeLength":0,"text":"\nfunc f() {}\n"}]}`))
	h.clock.Advance(time.Duration(DefaultDebounce))
	change := a.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), `"contentChanges":[{"text":"package main\n\nfunc f() {}\n"}]`)

	// The first model's text is no longer the server's: its calls are
	// answered null without a request (a token or a range from the other
	// text would fall past its lines), until its text is the same again.
	require.Equal(t, "null", answer(t, provide(h, id, features.Hover, `{"uri":"`+m1.uri+`","lineNumber":1,"column":1}`)))
	a.nothingQueued()
	m1.set("package main\n\nfunc f() {}\n")
	got := provide(h, id, features.Hover, `{"uri":"`+m1.uri+`","lineNumber":1,"column":1}`)
	req := a.recvMethod("textDocument/hover")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"contents":"package main"}}`, req.ID)
	require.Contains(t, answer(t, got), "package main")

	d1.Close()
	a.nothingQueued() // the other model still shows the file
	d2.Close()
	a.recvMethod("textDocument/didClose")

	// Opened again: a fresh didOpen.
	_, err = h.client.OpenDocument("s", "main.go", m1, m1)
	require.NoError(t, err)
	a.recvMethod("textDocument/didOpen")
}

// namedModel is a fake model with its own Monaco URI (client.ModelInfo).
type namedModel struct {
	*model
	uri string
}

func (m *namedModel) ModelURI() string       { return m.uri }
func (m *namedModel) MonacoLanguage() string { return "go" }

// A session without a live server — none reached ready, or it has no LSP
// at all and Monaco's own TypeScript worker navigates — still opens its own
// model URIs through the page's tabs; file:// targets, which need the task
// host's workspace, and other sessions' models are left to Monaco.
func TestNavigateWithoutLiveServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.client.Navigate(`{"source":"kandev://nolsp/src/main.ts","target":"kandev://nolsp/src/util/greet.ts","tabs":[{"id":"tab-2","path":"src/util/greet.ts"}]}`)
	require.JSONEq(t, `{"handled":true,"path":"src/util/greet.ts","model":"kandev://nolsp/src/util/greet.ts","ancestors":["src","src/util"],"sessionId":"nolsp","tabId":"tab-2"}`, out)
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"kandev://nolsp/src/main.ts","target":"file:///srv/t/src/util/greet.ts"}`))
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"kandev://nolsp/src/main.ts","target":"kandev://other/src/x.ts"}`))
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"inmemory://model/1","target":"kandev://nolsp/x.ts"}`))
	noDial(t, h)
}

// A server that rejects initialize and exits: the close code that follows
// (4006) does not hide the server's message.
func TestInitializeRejectionThenClose(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	// The close races the rejection's handling; several rounds make a
	// lost message show.
	for round := range 10 {
		if round > 0 {
			require.True(t, h.client.Start("s", wire.Go))
		}
		a := h.agent(t)
		a.send(`{"status":"ready","workspacePath":"/w"}`)
		init := a.recvMethod("initialize")
		a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"gopls: no views"}}`, init.ID)
		a.closeWith(int(wire.CloseServerExited))
		s := waitStatus(t, h.client, "s", wire.Go, "the rejection", func(s Status) bool { return s.State == StateError })
		require.Equal(t, "gopls: no views", s.Message, "round %d", round)
		require.Equal(t, 0, s.CloseCode, "round %d", round)
	}
}

// The server answers workspace/workspaceFolders with the folders initialize
// declared: the task workspace and each repository the ready frame lists.
func TestWorkspaceFoldersFromReadyFrame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "svc/main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	a.send(`{"status":"ready","workspacePath":"/srv/task","workspaceUri":"file:///srv/task","repoSubpaths":[".","svc","libs/core"]}`)
	init := a.recvMethod("initialize")
	const folders = `[{"uri":"file:///srv/task","name":"task"},{"uri":"file:///srv/task/svc","name":"svc"},{"uri":"file:///srv/task/libs/core","name":"core"}]`
	var params struct {
		WorkspaceFolders json.RawMessage `json:"workspaceFolders"`
		Capabilities     struct {
			Workspace struct {
				WorkspaceFolders bool `json:"workspaceFolders"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &params))
	require.JSONEq(t, folders, string(params.WorkspaceFolders))
	require.True(t, params.Capabilities.Workspace.WorkspaceFolders)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a.recvMethod("initialized")
	a.send(`{"jsonrpc":"2.0","id":"f1","method":"workspace/workspaceFolders"}`)
	var answer rpcMsg
	for answer.ID == nil {
		if m := a.recv(); m.Method == "" {
			answer = m
		}
	}
	require.JSONEq(t, `"f1"`, string(answer.ID))
	require.JSONEq(t, folders, string(answer.Result))
}

// A document opened while its pair's idle shutdown runs connects again
// once the shutdown has finished.
func TestReopenDuringIdleShutdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	d, m, a := readyDoc(t, h, "s", "a.go", "package a\n")
	d.Close()
	a.recvMethod("textDocument/didClose")
	h.clock.Advance(time.Duration(DefaultIdleTimeout))
	h.expectState(t, StateStopping)
	sd := a.recvMethod("shutdown")

	// The user opens the file again while the server shuts down.
	d, err := h.client.OpenDocument("s", "a.go", m, m)
	require.NoError(t, err)
	noDial(t, h)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, sd.ID)
	a.recvMethod("exit")
	h.expectState(t, StateOff)

	a2 := h.agent(t)
	handshake(t, h, a2, "/w", "file:///w")
	a2.recvMethod("textDocument/didOpen")

	// A Stop after such an open wins: nothing connects again.
	d2, err := h.client.OpenDocument("s", "b.go", m, m)
	require.NoError(t, err)
	a2.recvMethod("textDocument/didOpen")
	d2.Close()
	a2.recvMethod("textDocument/didClose")
	d.Close()
	a2.recvMethod("textDocument/didClose")
	h.clock.Advance(time.Duration(DefaultIdleTimeout))
	h.expectState(t, StateStopping)
	sd = a2.recvMethod("shutdown")
	_, err = h.client.OpenDocument("s", "a.go", m, m)
	require.NoError(t, err)
	done, cancel := ctxlite.WithCancel(ctxlite.Background())
	cancel() // Stop takes effect now and returns without waiting
	require.ErrorIs(t, h.client.Stop(done, "s", wire.Go), ctxlite.Canceled)
	a2.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, sd.ID)
	a2.recvMethod("exit")
	h.expectState(t, StateOff)
	noDial(t, h)
}

// window/showMessage and window/showMessageRequest reach people through
// OnMessage; a request is answered with the chosen action, or null when
// dismissed, and waits without holding up the server's other messages.
func TestServerMessagesReachPeople(t *testing.T) {
	t.Parallel()
	msgs := make(chan Message, 16)
	h := newHarnessWith(t, func(c *Config) { c.OnMessage = func(m Message) { msgs <- m } })
	_, m, a := readyDoc(t, h, "s", "main.go", "package main\n")
	next := func() Message {
		t.Helper()
		select {
		case m := <-msgs:
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no message")
			return Message{}
		}
	}

	a.send(`{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":2,"message":"gopls: go.work is out of date"}}`)
	got := next()
	require.Equal(t, Message{SessionID: "s", Language: "go", Type: 2, Text: "gopls: go.work is out of date"}, got)
	require.Equal(t, "warning", got.TypeName())

	a.send(`{"jsonrpc":"2.0","id":"q1","method":"window/showMessageRequest","params":{"type":1,"message":"Run go mod tidy?","actions":[{"title":"Yes"},{"title":"No"}]}}`)
	ask := next()
	require.NotEmpty(t, ask.ID)
	require.Equal(t, []string{"Yes", "No"}, ask.Actions)
	// Waiting for the choice holds up nothing: diagnostics still arrive.
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"meanwhile"}]}}`)
	require.Equal(t, "meanwhile", m.nextMarkers(t)[0].Message)
	require.True(t, h.client.Respond(ask.ID, "Yes", true))
	require.False(t, h.client.Respond(ask.ID, "No", true), "answered once")
	ans := a.recv()
	require.JSONEq(t, `"q1"`, string(ans.ID))
	require.JSONEq(t, `{"title":"Yes"}`, string(ans.Result))

	// Dismissed, or a title the server did not offer: null.
	for i, title := range []string{"", "Maybe"} {
		a.send(`{"jsonrpc":"2.0","id":%d,"method":"window/showMessageRequest","params":{"type":3,"message":"?","actions":[{"title":"Yes"}]}}`, i+10)
		ask = next()
		require.True(t, h.client.Respond(ask.ID, title, title != ""))
		ans = a.recv()
		require.JSONEq(t, `null`, string(ans.Result), ans.raw)
	}

	// The connection ends with a request unanswered: nothing waits on.
	a.send(`{"jsonrpc":"2.0","id":"q9","method":"window/showMessageRequest","params":{"type":3,"message":"later?"}}`)
	ask = next()
	a.closeWith(int(wire.CloseServerExited))
	h.expectState(t, StateError)
	require.Eventually(t, func() bool {
		h.client.mu.Lock()
		defer h.client.mu.Unlock()
		_, waiting := h.client.asks[ask.ID]
		return !waiting
	}, 10*time.Second, time.Millisecond)
}

// Without anybody listening, a request is answered null at once.
func TestShowMessageRequestWithoutListener(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, a := readyDoc(t, h, "s", "main.go", "package main\n")
	a.send(`{"jsonrpc":"2.0","id":1,"method":"window/showMessageRequest","params":{"type":1,"message":"?","actions":[{"title":"OK"}]}}`)
	ans := a.recv()
	require.JSONEq(t, `1`, string(ans.ID))
	require.Contains(t, ans.raw, `"result":null`)
}

// readyDoc opens one document and plays its connection through the
// handshake to the didOpen: a ready server holding the document.
func readyDoc(t *testing.T, h *harness, session, path, text string) (*Document, *model, *fakeAgent) {
	t.Helper()
	m := newModel(text)
	d, err := h.client.OpenDocument(session, path, m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	providersPublished(t, d)
	return d, m, a
}

// providersPublished waits until the connection serving d has handed the
// editor its providers, which it does right after the didOpens: provs is
// set under provMu, held for the whole first publication.
func providersPublished(t *testing.T, d *Document) {
	t.Helper()
	d.cl.mu.Lock()
	c := d.p.conn
	d.cl.mu.Unlock()
	require.NotNil(t, c)
	require.Eventually(t, func() bool {
		c.provMu.Lock()
		defer c.provMu.Unlock()
		return c.provs != nil
	}, 10*time.Second, time.Millisecond, "the connection's providers were never published")
}
