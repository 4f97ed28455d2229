package client

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/monaco"
	"github.com/stretchr/testify/require"
)

// tsgoInitializeResult is a server that reports errors only when asked,
// as TypeScript 7's does: a static diagnosticProvider with
// interFileDependencies.
const tsgoInitializeResult = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2,"save":true},` +
	`"hoverProvider":true,"diagnosticProvider":{"interFileDependencies":true,"workspaceDiagnostics":false}},` +
	`"serverInfo":{"name":"typescript-go"}}`

// handshakeWith plays the agent through ready → initialize (answered with
// result) → initialized, and returns initialize's params.
func handshakeWith(t *testing.T, h *harness, a *fakeAgent, result string) json.RawMessage {
	t.Helper()
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","workspaceUri":"file:///w"}`)
	h.expectState(t, StateStarting)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, result)
	a.recvMethod("initialized")
	h.expectState(t, StateReady)
	return init.Params
}

// diag is one LSP diagnostic on the first line.
func diag(message string) string {
	return fmt.Sprintf(`{"range":{"start":{"line":0,"character":6},"end":{"line":0,"character":12}},"severity":1,"message":%q}`, message)
}

// pullParams is a textDocument/diagnostic request as the test reads it.
type pullParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Identifier       string `json:"identifier"`
	PreviousResultID string `json:"previousResultId"`
}

func recvPull(t *testing.T, a *fakeAgent) (rpcMsg, pullParams) {
	t.Helper()
	m := a.recvMethod("textDocument/diagnostic")
	var p pullParams
	require.NoError(t, json.Unmarshal(m.Params, &p))
	return m, p
}

func messages(ms []monaco.Marker) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Message)
	}
	return out
}

func TestPullDiagnosticsFollowTheDocument(t *testing.T) {
	h := newHarness(t)
	m := newModel("const answer: number = \"forty-two\";\n")
	d, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	params := handshakeWith(t, h, a, tsgoInitializeResult)
	var init struct {
		Capabilities struct {
			TextDocument struct {
				Diagnostic json.RawMessage `json:"diagnostic"`
			} `json:"textDocument"`
			Workspace struct {
				Diagnostics json.RawMessage `json:"diagnostics"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(params, &init))
	require.JSONEq(t, `{"dynamicRegistration":true,"relatedDocumentSupport":true,"markupMessageSupport":true}`, string(init.Capabilities.TextDocument.Diagnostic))
	require.JSONEq(t, `{"refreshSupport":true}`, string(init.Capabilities.Workspace.Diagnostics))

	// Pulled after the didOpen, shown as markers.
	a.recvMethod("textDocument/didOpen")
	req, p := recvPull(t, a)
	require.Equal(t, "file:///w/a.ts", p.TextDocument.URI)
	require.Empty(t, p.PreviousResultID)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"r1","items":[%s]}}`, req.ID, diag("Type 'string' is not assignable to type 'number'."))
	require.Equal(t, []string{"Type 'string' is not assignable to type 'number'."}, messages(m.nextMarkers(t)))

	// Pushed diagnostics of the same server are a set of their own: an
	// empty publish leaves the pulled markers.
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.ts","diagnostics":[%s]}}`, diag("pushed"))
	require.ElementsMatch(t, []string{"pushed", "Type 'string' is not assignable to type 'number'."}, messages(m.nextMarkers(t)))
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.ts","diagnostics":[]}}`)
	require.Equal(t, []string{"Type 'string' is not assignable to type 'number'."}, messages(m.nextMarkers(t)))

	// The fix goes out as a didChange, and the pull after it carries the
	// previous result id; the server's empty report clears the markers.
	m.set("const answer: number = 42;\n")
	require.NoError(t, d.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":1,"startColumn":24,"endLineNumber":1,"endColumn":35},"rangeOffset":23,"rangeLength":11,"text":"42"}]}`))
	a.recvMethod("textDocument/didChange")
	req, p = recvPull(t, a)
	require.Equal(t, "r1", p.PreviousResultID)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"r2","items":[]}}`, req.ID)
	require.Empty(t, m.nextMarkers(t))

	// The server asks for everything again.
	a.send(`{"jsonrpc":"2.0","id":"x1","method":"workspace/diagnostic/refresh"}`)
	var refreshAnswered, pulled bool
	for !refreshAnswered || !pulled {
		msg := a.recv()
		switch {
		case msg.Method == "textDocument/diagnostic":
			var p pullParams
			require.NoError(t, json.Unmarshal(msg.Params, &p))
			require.Equal(t, "r2", p.PreviousResultID)
			a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"unchanged","resultId":"r2"}}`, msg.ID)
			pulled = true
		case string(msg.ID) == `"x1"`:
			require.Nil(t, msg.Error)
			refreshAnswered = true
		default:
			t.Fatalf("unexpected %s", msg.raw)
		}
	}
}

func TestPullAfterAnEditInAnotherFileShowsItsMarkers(t *testing.T) {
	h := newHarness(t)
	ma, mb := newModel("export function twice(n: number) { return 2 * n }\n"), newModel("twice(2)\n")
	da, err := h.client.OpenDocument("s", "a.ts", ma, ma)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, tsgoInitializeResult)
	a.recvMethod("textDocument/didOpen")
	req, _ := recvPull(t, a)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"a1","items":[]}}`, req.ID)
	require.Empty(t, ma.nextMarkers(t))
	_, err = h.client.OpenDocument("s", "b.ts", mb, mb)
	require.NoError(t, err)
	a.recvMethod("textDocument/didOpen")
	req, p := recvPull(t, a)
	require.Equal(t, "file:///w/b.ts", p.TextDocument.URI)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"b1","items":[]}}`, req.ID)
	require.Empty(t, mb.nextMarkers(t)) // the report is in: no pull of b.ts in flight

	// a.ts changes; b.ts is pulled too (interFileDependencies) and shows
	// the error without being touched.
	ma.set("export function twice(s: string) { return s + s }\n")
	require.NoError(t, da.Changed(`{"isFlush":true,"versionId":2,"changes":[{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":2,"endColumn":1},"rangeOffset":0,"rangeLength":51,"text":"export function twice(s: string) { return s + s }\n"}]}`))
	a.recvMethod("textDocument/didChange")
	for range 2 {
		req, p := recvPull(t, a)
		if p.TextDocument.URI == "file:///w/b.ts" {
			require.Equal(t, "b1", p.PreviousResultID)
			a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"b2","items":[%s]}}`, req.ID, diag("Argument of type 'number' is not assignable to parameter of type 'string'."))
		} else {
			a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"unchanged","resultId":"a1"}}`, req.ID)
		}
	}
	require.Equal(t, []string{"Argument of type 'number' is not assignable to parameter of type 'string'."}, messages(mb.nextMarkers(t)))
	select {
	case ms := <-ma.markers:
		t.Fatalf("a.ts got markers %v from an unchanged report", ms)
	default:
	}
}

func TestDynamicPullProviderAndMethodNotFound(t *testing.T) {
	h := newHarness(t)
	m := newModel("let x = 1\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	a.recvMethod("textDocument/didOpen")

	// No provider yet: nothing is pulled. A registration pulls the open
	// document at once, with the registration's identifier.
	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[
		{"id":"lint","method":"textDocument/diagnostic","registerOptions":{"identifier":"eslint","documentSelector":[{"language":"typescript"}],"interFileDependencies":false,"workspaceDiagnostics":false}},
		{"id":"py","method":"textDocument/diagnostic","registerOptions":{"identifier":"other","documentSelector":[{"language":"python"}],"interFileDependencies":false,"workspaceDiagnostics":false}}]}}`)
	var req rpcMsg
	for req.Method != "textDocument/diagnostic" {
		req = a.recv() // the registration's answer comes first or second
	}
	var p pullParams
	require.NoError(t, json.Unmarshal(req.Params, &p))
	require.Equal(t, "eslint", p.Identifier, "only the registration whose selector matches")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"kind":"full","resultId":"1","items":[%s]}}`, req.ID, diag("'x' is assigned a value but never used."))
	require.Equal(t, []string{"'x' is assigned a value but never used."}, messages(m.nextMarkers(t)))

	// Unregistering the provider takes its markers away.
	a.send(`{"jsonrpc":"2.0","id":"u1","method":"client/unregisterCapability","params":{"unregisterations":[{"id":"lint","method":"textDocument/diagnostic"}]}}`)
	require.Empty(t, m.nextMarkers(t))
}

func TestPullMethodNotFoundLeavesPushWorking(t *testing.T) {
	var log logLines
	h := newHarnessWith(t, func(c *Config) { c.Logf = log.logf })
	m := newModel("let x = 1\n")
	d, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, tsgoInitializeResult)
	a.recvMethod("textDocument/didOpen")
	req, _ := recvPull(t, a)
	a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, req.ID)
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.ts","diagnostics":[%s]}}`, diag("pushed"))
	require.Equal(t, []string{"pushed"}, messages(m.nextMarkers(t)))

	// Once the failure is handled, changes no longer pull.
	require.Eventually(t, func() bool { return log.matching("off for this connection") == 1 }, 5*time.Second, time.Millisecond)
	m.set("let y = 1\n")
	require.NoError(t, d.Changed(`{"versionId":2,"changes":[{"range":{"startLineNumber":1,"startColumn":5,"endLineNumber":1,"endColumn":6},"rangeOffset":4,"rangeLength":1,"text":"y"}]}`))
	a.recvMethod("textDocument/didChange")
	h.clock.EndTurn()
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/a.ts","diagnostics":[]}}`)
	require.Empty(t, m.nextMarkers(t))
	a.nothingQueued()
}
