package client

import (
	"testing"

	"github.com/kandev/lsp/wasm/features"
	"github.com/stretchr/testify/require"
)

// With Config.Library, a definition in the Go toolchain comes back as the
// session's library model, navigation hands it to the page as a library
// target, and the file, opened read-only, is a document on the server
// (under its own file:// URI) that hover works in; an edit the server
// proposes for it is refused, as for any file outside the workspace.
func TestLibraryDocument(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	h.client.cfg.Library = true
	_, _, a := readyDoc(t, h, "S1", "main.go", "package main\n")
	id := rec.next(t, "provider").connID

	const printGo = "file:///usr/lib/go/src/fmt/print.go"
	const lib = "kandev-lib://s1/usr/lib/go/src/fmt/print.go"
	got := provide(h, id, features.Definition, `{"uri":"kandev://s1/main.go","lineNumber":1,"column":1}`)
	req := a.recvMethod("textDocument/definition")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"uri":"`+printGo+`","range":{"start":{"line":272,"character":5},"end":{"line":272,"character":12}}}}`, req.ID)
	require.Contains(t, answer(t, got), `"uri":"`+lib+`"`)

	require.JSONEq(t, `{"handled":true,"path":"/usr/lib/go/src/fmt/print.go","library":true,"model":"`+lib+`","sessionId":"S1"}`,
		h.client.Navigate(`{"source":"kandev://s1/main.go","target":"`+lib+`"}`))

	_, err := h.client.OpenLibraryDocument("S1", "usr/lib/go/src/fmt/print.go", newModel(""), newModel(""))
	require.Error(t, err, "a relative path is no library file")
	m := newModel("package fmt\n")
	d, err := h.client.OpenLibraryDocument("S1", "/usr/lib/go/src/fmt/../fmt/print.go", m, m)
	require.NoError(t, err)
	require.True(t, d.Library())
	require.Equal(t, "/usr/lib/go/src/fmt/print.go", d.Path())
	open := a.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"uri":"`+printGo+`"`)

	got = provide(h, id, features.Hover, `{"uri":"`+lib+`","lineNumber":1,"column":9}`)
	req = a.recvMethod("textDocument/hover")
	require.JSONEq(t, `{"textDocument":{"uri":"`+printGo+`"},"position":{"line":0,"character":8}}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"contents":{"kind":"markdown","value":"package fmt"}}}`, req.ID)
	require.Contains(t, answer(t, got), "package fmt")

	a.send(`{"jsonrpc":"2.0","id":"e1","method":"workspace/applyEdit","params":{"edit":{"changes":{"` + printGo + `":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x"}]}}}}`)
	res := a.recvMethod("")
	require.JSONEq(t, `{"applied":false,"failureReason":"the edit names a file outside the workspace"}`, string(res.Result))
	rec.none(t, "apply")

	d.Close()
	closed := a.recvMethod("textDocument/didClose")
	require.Contains(t, string(closed.Params), printGo)
}

// Without Config.Library nothing outside the workspace is handled, as
// before: the location keeps its file:// URI and navigation declines it.
func TestNoLibraryWithoutThePage(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	_, _, a := readyDoc(t, h, "s1", "main.go", "package main\n")
	id := rec.next(t, "provider").connID
	got := provide(h, id, features.Definition, `{"uri":"kandev://s1/main.go","lineNumber":1,"column":1}`)
	req := a.recvMethod("textDocument/definition")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"uri":"file:///usr/lib/go/src/fmt/print.go","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}}}`, req.ID)
	require.Contains(t, answer(t, got), `"uri":"file:///usr/lib/go/src/fmt/print.go"`)
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"kandev://s1/main.go","target":"file:///usr/lib/go/src/fmt/print.go"}`))
	require.JSONEq(t, `{"handled":false}`, h.client.Navigate(`{"source":"kandev://s1/main.go","target":"kandev-lib://s1/usr/lib/go/src/fmt/print.go"}`))
}
