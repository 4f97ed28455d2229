package client

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/stretchr/testify/require"
)

// The walking skeleton end to end against an agent that behaves like the
// real one in front of gopls.
func TestLifecycleAgainstFakeAgent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	mainGo := newModel("package main\n")
	doc, err := h.client.OpenDocument("demo 1", "cmd/main file.go", mainGo, mainGo)
	require.NoError(t, err)
	require.Equal(t, wire.Go, doc.Language())
	a := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/demo%201?language=go", a.url)

	init := handshake(t, h, a, "/srv/my task", "file:///srv/my%20task")

	// initialize carries what the spec asks for.
	var params struct {
		ProcessID        *int                       `json:"processId"`
		RootURI          string                     `json:"rootUri"`
		WorkspaceFolders []lsptypes.WorkspaceFolder `json:"workspaceFolders"`
		WorkDoneToken    json.RawMessage            `json:"workDoneToken"`
		Capabilities     struct {
			TextDocument struct {
				Synchronization    *struct{ DidSave bool } `json:"synchronization"`
				PublishDiagnostics *json.RawMessage        `json:"publishDiagnostics"`
			} `json:"textDocument"`
			Window struct {
				WorkDoneProgress bool `json:"workDoneProgress"`
			} `json:"window"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &params))
	require.Contains(t, init.raw, `"processId":null`)
	require.Nil(t, params.ProcessID)
	require.Equal(t, "file:///srv/my%20task", params.RootURI)
	require.Equal(t, []lsptypes.WorkspaceFolder{{URI: "file:///srv/my%20task", Name: "my task"}}, params.WorkspaceFolders)
	var token string
	require.NoError(t, json.Unmarshal(params.WorkDoneToken, &token))
	require.NotEmpty(t, token)
	require.True(t, params.Capabilities.Window.WorkDoneProgress)
	require.NotNil(t, params.Capabilities.TextDocument.PublishDiagnostics)
	require.NotNil(t, params.Capabilities.TextDocument.Synchronization)
	require.True(t, params.Capabilities.TextDocument.Synchronization.DidSave)

	// The document opened before ready goes out now, with an escaped URI.
	const uri = "file:///srv/my%20task/cmd/main%20file.go"
	open := a.recvMethod("textDocument/didOpen")
	require.JSONEq(t, `{"textDocument":{"uri":"`+uri+`","languageId":"go","version":1,"text":"package main\n"}}`, string(open.Params))
	require.Equal(t, uri, doc.URI())

	// A second document opened after ready goes out at once.
	other := newModel("package util\n")
	otherDoc, err := h.client.OpenDocument("demo 1", "util.go", other, other)
	require.NoError(t, err)
	open2 := a.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open2.Params), `"uri":"file:///srv/my%20task/util.go"`)

	// The first edit of a turn of the event loop leaves at once as an
	// incremental didChange (gopls asks for change 2); the turn's later
	// ones leave together in one more when it ends, with no timer and no
	// read of the text.
	readsBefore := mainGo.reads
	edits := []struct {
		text string
		col  int
		ins  string
	}{{"package main\n\nf", 1, "f"}, {"package main\n\nfu", 2, "u"}, {"package main\n\nfunc", 3, "nc"}}
	for i, e := range edits {
		mainGo.set(e.text)
		require.NoError(t, doc.Changed(fmt.Sprintf(`{"versionId":%d,"changes":[{"range":{"startLineNumber":3,"startColumn":%d,"endLineNumber":3,"endColumn":%d},"rangeOffset":0,"rangeLength":0,"text":%q}]}`, i+2, e.col, e.col, e.ins)))
	}
	require.Equal(t, readsBefore, mainGo.reads, "edits must not read the text")
	change := a.recvMethod("textDocument/didChange")
	require.JSONEq(t, `{"textDocument":{"uri":"`+uri+`","version":2},"contentChanges":[`+
		`{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":0}},"text":"f"}]}`, string(change.Params))
	a.nothingQueued()
	h.clock.EndTurn()
	change = a.recvMethod("textDocument/didChange")
	require.JSONEq(t, `{"textDocument":{"uri":"`+uri+`","version":3},"contentChanges":[`+
		`{"range":{"start":{"line":2,"character":1},"end":{"line":2,"character":1}},"text":"u"},`+
		`{"range":{"start":{"line":2,"character":2},"end":{"line":2,"character":2}},"text":"nc"}]}`, string(change.Params))
	require.Equal(t, readsBefore, mainGo.reads)
	a.nothingQueued()

	mainGo.set("package main\n\nfunc main() {}\n")
	doc.MarkDirty()
	change = a.recvMethod("textDocument/didChange")
	require.Contains(t, string(change.Params), `"version":4`)
	h.clock.EndTurn()

	// Server requests the client must answer sensibly, while diagnostics flow.
	a.send(`{"jsonrpc":"2.0","id":1,"method":"workspace/configuration","params":{"items":[{"section":"gopls"},{"section":"go"}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":[null,null]}`, a.recv().raw)
	a.send(`{"jsonrpc":"2.0","id":"p","method":"window/workDoneProgress/create","params":{"token":"t"}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"p","result":null}`, a.recv().raw)
	a.send(`{"jsonrpc":"2.0","id":2,"method":"client/registerCapability","params":{"registrations":[]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":2,"result":null}`, a.recv().raw)
	a.send(`{"jsonrpc":"2.0","id":3,"method":"workspace/semanticTokens/refresh"}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":3,"result":null}`, a.recv().raw)
	a.sendMalformed(`{"jsonrpc":"2.0","id":4,"method":"workspace/applyEdit","params":{}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":4,"result":{"applied":false,"failureReason":"malformed workspace/applyEdit params"}}`, a.recv().raw)
	a.send(`{"jsonrpc":"2.0","id":5,"method":"workspace/unknown","params":{}}`)
	m := a.recv()
	require.NotNil(t, m.Error)
	require.Equal(t, jsonrpc.ErrMethodNotFound.Code, m.Error.Code)

	// publishDiagnostics becomes markers on the matching model only.
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":%q,"version":4,"diagnostics":[`+
		`{"range":{"start":{"line":2,"character":5},"end":{"line":2,"character":9}},"severity":1,"source":"compiler","code":"UndeclaredName","message":"undefined: mian"},`+
		`{"range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"severity":2,"message":"w"}]}}`, uri)
	require.Equal(t, []monaco.Marker{
		{StartLineNumber: 3, StartColumn: 6, EndLineNumber: 3, EndColumn: 10, Message: "undefined: mian", Severity: monaco.SeverityError, Source: "compiler", Code: "UndeclaredName"},
		{StartLineNumber: 1, StartColumn: 1, EndLineNumber: 2, EndColumn: 1, Message: "w", Severity: monaco.SeverityWarning},
	}, mainGo.nextMarkers(t))
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///srv/my%%20task/util.go","diagnostics":[` +
		`{"range":{"start":{"line":0,"character":8},"end":{"line":0,"character":12}},"severity":3,"message":"info"}]}}`)
	require.Equal(t, []monaco.Marker{{StartLineNumber: 1, StartColumn: 9, EndLineNumber: 1, EndColumn: 13, Message: "info", Severity: monaco.SeverityInfo}}, other.nextMarkers(t))
	require.Empty(t, mainGo.markers, "diagnostics for util.go reached main file.go")

	// Closing one document sends didClose and clears its markers.
	otherDoc.Close()
	closeMsg := a.recvMethod("textDocument/didClose")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///srv/my%20task/util.go"}}`, string(closeMsg.Params))
	require.Empty(t, other.nextMarkers(t))
	otherDoc.Close() // idempotent
	a.nothingQueued()

	// A pending edit when the server exits is dropped with the connection.
	doc.MarkDirty()

	// The server exits: 4006, error state, markers cleared.
	a.closeWith(int(wire.CloseServerExited))
	s := h.expectState(t, StateError)
	require.Equal(t, Status{SessionID: "demo 1", Language: "go", Gen: 1, State: StateError, CloseCode: 4006, Documents: 1}, s)
	require.Empty(t, mainGo.nextMarkers(t))
	got, ok := h.client.Status("demo 1", wire.Go)
	require.True(t, ok)
	require.Equal(t, s, got)
	h.clock.Advance(time.Second) // the edit pending when it ended sends nothing

	// The next document for the failed pair does not dial by itself (the
	// view offers Retry); Start (Retry) dials a new connection.
	again := newModel("package main\n")
	_, err = h.client.OpenDocument("demo 1", "main.go", again, again)
	require.NoError(t, err)
	noDial(t, h) // a failed pair does not redial on open
	require.True(t, h.client.Start("demo 1", wire.Go))
	a2 := h.agent(t)
	handshake(t, h, a2, "/ws", "")
	// Both documents open on the new connection, the one still open from
	// the crashed connection with its current text.
	var uris []string
	for range 2 {
		var p struct {
			TextDocument struct{ URI, Text string }
		}
		require.NoError(t, json.Unmarshal(a2.recvMethod("textDocument/didOpen").Params, &p))
		uris = append(uris, p.TextDocument.URI+" "+p.TextDocument.Text)
	}
	require.ElementsMatch(t, []string{"file:///ws/main.go package main\n", "file:///ws/cmd/main%20file.go package main\n\nfunc main() {}\n"}, uris)
	a2.closeWith(int(wire.CloseGoingAway))
	h.expectState(t, StateUnavailable) // closed by the far side: not off
}

func TestInstallStatusesAndInstallFailure(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("x = 1\n")
	_, err := h.client.OpenDocument("s", "app.py", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/s?language=python", a.url)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"installing","language":"python"}`)
	h.expectState(t, StateInstalling)
	a.send(`{"status":"install_failed","language":"python","error":"npm ERR! 404 pyright"}`)
	a.closeWith(int(wire.CloseInstallFailed))
	s := h.expectState(t, StateError)
	require.Equal(t, 4003, s.CloseCode)
	require.Equal(t, "npm ERR! 404 pyright", s.Message)
}

func TestInstalledThenReadyThenGoingAway(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "lib.rs", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"installing","language":"rust"}`)
	h.expectState(t, StateInstalling)
	a.send(`{"status":"installed","language":"rust"}`)
	h.expectState(t, StateStarting)
	a.send(`{"status":"ready","workspacePath":"/w"}`)
	init := a.recvMethod("initialize") // still starting: no repeated status
	require.Contains(t, string(init.Params), `"rootUri":"file:///w"`)
	a.closeWith(int(wire.CloseGoingAway))
	s := h.expectState(t, StateUnavailable)
	require.Equal(t, 1001, s.CloseCode)
}

func TestInitializeErrorKeepsServerMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","workspaceUri":"file:///w"}`)
	h.expectState(t, StateStarting)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"no go.mod found"}}`, init.ID)
	s := h.expectState(t, StateError)
	require.Equal(t, "no go.mod found", s.Message)
	require.Equal(t, 0, s.CloseCode)
}

func TestStopShutsDownPolitely(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("package main\n")
	doc, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"e"}]}}`)
	require.Len(t, m.nextMarkers(t), 1)

	stopped := make(chan error, 1)
	go func() { stopped <- h.client.Stop(ctxlite.Background(), "s", wire.Go) }()
	h.expectState(t, StateStopping)
	sd := a.recvMethod("shutdown")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, sd.ID)
	a.recvMethod("exit")
	require.NoError(t, <-stopped)
	require.Empty(t, m.nextMarkers(t))
	s := h.expectState(t, StateOff)
	require.Equal(t, 0, s.CloseCode)
	doc.Close() // after the connection ended: nothing to send, nothing to clear
	select {
	case ms := <-m.markers:
		t.Fatalf("markers after stop: %v", ms)
	default:
	}
}

func TestOpenDocumentRejects(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("")
	_, err := h.client.OpenDocument("s", "notes.txt", m, m)
	require.ErrorIs(t, err, ErrNoLanguage)
	for _, p := range []string{"/etc/x.go", "../x.go", "a/../../x.go", `a\b.go`} {
		_, err := h.client.OpenDocument("s", p, m, m)
		require.Error(t, err, p)
	}
	_, err = h.client.OpenDocument("", "main.go", m, m)
	require.Error(t, err)
	noDial(t, h)
}

func TestStreamURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ relay, session, lang, want string }{
		{"ws://h/lsp", "demo", "go", "ws://h/lsp/demo?language=go"},
		{"ws://h/lsp/", "a b/c?d", "typescript", "ws://h/lsp/a%20b%2Fc%3Fd?language=typescript"},
		{"wss://h/lsp", "ü-_.!~*'()", "python", "wss://h/lsp/%C3%BC-_.!~*'()?language=python"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, StreamURL(c.relay, c.session, c.lang))
	}
}

func TestLanguageID(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"a.ts": "typescript", "a.tsx": "typescriptreact", "a.mjs": "javascript", "a.jsx": "javascriptreact", "a.go": "go", "a.py": "python"} {
		info, ok := wire.ForFile(p)
		require.True(t, ok)
		require.Equal(t, want, languageID(p, string(info.Language)), p)
	}
}
