package client

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// A server that registers code actions, rename and formatting late gets
// exactly those three providers, with their options; their requests carry
// the server's own diagnostics; unregistering disposes exactly them, and
// nothing is sent for them afterwards.
func TestLateEditingProvidersComeAndGo(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	_, m, a := readyDoc(t, h, "s", "main.go", "package main\n\nimport \"os\"\n")
	id := rec.next(t, "provider").connID
	rec.providers(t) // the static ones

	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[
		{"id":"ca","method":"textDocument/codeAction","registerOptions":{"documentSelector":[{"language":"go"}],"codeActionKinds":["quickfix"],"resolveProvider":true}},
		{"id":"rn","method":"textDocument/rename","registerOptions":{"documentSelector":[{"language":"go"}],"prepareProvider":true}},
		{"id":"fm","method":"textDocument/formatting","registerOptions":{"documentSelector":[{"language":"go"}]}}]}}`)
	a.recvMethod("")
	got := rec.providers(t)
	require.Equal(t, map[string]string{"codeAction": `{"kinds":["quickfix"]}`, "rename": "{}", "formatting": "{}"}, optsOf(t, got, id))

	// The diagnostics that overlap the range go with the request as the
	// server published them, data and all; the others stay behind.
	a.send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","version":1,"diagnostics":[
		{"range":{"start":{"line":2,"character":7},"end":{"line":2,"character":11}},"severity":1,"code":"UnusedImport","source":"compiler","message":"\"os\" imported and not used","data":{"fix":1}},
		{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":7}},"severity":2,"message":"elsewhere"}]}}`)
	m.nextMarkers(t)
	ans := provide(h, id, features.CodeAction, `{"uri":"kandev://s/main.go","range":{"startLineNumber":3,"startColumn":9,"endLineNumber":3,"endColumn":9},"only":"quickfix","trigger":1}`)
	req := a.recvMethod("textDocument/codeAction")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///w/main.go"},"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":8}},
		"context":{"diagnostics":[{"range":{"start":{"line":2,"character":7},"end":{"line":2,"character":11}},"severity":1,"code":"UnusedImport","source":"compiler","message":"\"os\" imported and not used","data":{"fix":1}}],
		"only":["quickfix"],"triggerKind":1}}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"title":"Delete import","kind":"quickfix","isPreferred":true}]}`, req.ID)
	require.Contains(t, answer(t, ans), `"title":"Delete import"`)

	ans = provide(h, id, features.Formatting, `{"uri":"kandev://s/main.go","options":{"tabSize":8,"insertSpaces":false}}`)
	req = a.recvMethod("textDocument/formatting")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///w/main.go"},"options":{"tabSize":8,"insertSpaces":false}}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[]}`, req.ID)
	require.Equal(t, "[]", answer(t, ans))

	a.send(`{"jsonrpc":"2.0","id":"u1","method":"client/unregisterCapability","params":{"unregisterations":[
		{"id":"ca","method":"textDocument/codeAction"},{"id":"rn","method":"textDocument/rename"},{"id":"fm","method":"textDocument/formatting"}]}}`)
	a.recvMethod("")
	require.Equal(t, map[string]string{"codeAction": "", "rename": "", "formatting": ""}, optsOf(t, rec.providers(t), id), "disposed, and only they")
	require.Equal(t, "null", answer(t, provide(h, id, features.Formatting, `{"uri":"kandev://s/main.go","options":{"tabSize":8,"insertSpaces":false}}`)))
	require.Equal(t, "null", answer(t, provide(h, id, features.Rename, `{"uri":"kandev://s/main.go","lineNumber":1,"column":1,"newName":"x"}`)))
	a.nothingQueued()
}

// optsOf maps provider events to their options, all of connection id.
func optsOf(t *testing.T, evs map[string]editorEvent, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for f, e := range evs {
		require.Equal(t, id, e.connID, f)
		out[f] = e.opts
	}
	return out
}

// workspace/applyEdit is answered with the editor's outcome; an edit
// against a version the document has moved on from is refused whole,
// with the reason, before the editor is asked.
func TestServerWorkspaceEdit(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	_, _, a := readyDoc(t, h, "s", "main.go", "package main\n")

	a.send(`{"jsonrpc":"2.0","id":"e1","method":"workspace/applyEdit","params":{"label":"fix","edit":{"documentChanges":[
		{"textDocument":{"uri":"file:///w/main.go","version":1},"edits":[{"range":{"start":{"line":0,"character":8},"end":{"line":0,"character":12}},"newText":"greet"}]}]}}}`)
	plan := rec.next(t, "apply").snap
	require.JSONEq(t, `[{"op":"edit","sessionId":"s","path":"main.go","model":"kandev://s/main.go",
		"edits":[{"range":{"startLineNumber":1,"startColumn":9,"endLineNumber":1,"endColumn":13},"text":"greet"}]}]`, plan)
	res := a.recvMethod("")
	require.Equal(t, `"e1"`, string(res.ID))
	require.JSONEq(t, `{"applied":true}`, string(res.Result))

	a.send(`{"jsonrpc":"2.0","id":"e2","method":"workspace/applyEdit","params":{"edit":{"documentChanges":[
		{"textDocument":{"uri":"file:///w/main.go","version":0},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x"}]}]}}}`)
	res = a.recvMethod("")
	require.Equal(t, `"e2"`, string(res.ID))
	require.JSONEq(t, `{"applied":false,"failureReason":"a file changed since the server computed the edit"}`, string(res.Result))
	rec.none(t, "apply")

	// A file outside the session's workspace: refused too.
	a.send(`{"jsonrpc":"2.0","id":"e3","method":"workspace/applyEdit","params":{"edit":{"changes":{"file:///etc/passwd":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x"}]}}}}`)
	res = a.recvMethod("")
	require.JSONEq(t, `{"applied":false,"failureReason":"the edit names a file outside the workspace"}`, string(res.Result))
	rec.none(t, "apply")
}

// workspace/inlayHint/refresh reaches the connection's inlay-hint
// providers (Monaco asks again) and is answered.
func TestInlayHintRefresh(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	_, _, a := readyDoc(t, h, "s", "main.go", "package main\n")
	id := rec.next(t, "provider").connID
	a.send(`{"jsonrpc":"2.0","id":"i1","method":"workspace/inlayHint/refresh"}`)
	ev := rec.next(t, "refresh")
	require.Equal(t, id, ev.connID)
	require.Equal(t, features.InlayHints, ev.feature)
	res := a.recvMethod("")
	require.Equal(t, `"i1"`, string(res.ID))
	require.Equal(t, "null", string(res.Result))
}
