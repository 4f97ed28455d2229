package client

import (
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/navigate"
	"github.com/stretchr/testify/require"
)

// contentEditor is a recordingEditor that also takes refreshed server
// documents (ContentSetter).
type contentEditor struct{ recordingEditor }

func (c contentEditor) SetContent(modelURI, text string) {
	c.recordingEditor <- editorEvent{kind: "content", lang: modelURI, snap: text}
}

// Server documents (LSP 3.18): a location in the server's own scheme maps
// to the session's content model URI, whose text the server gives; a
// refresh of a document the page read sets the model's text again, and a
// scheme no server declared reads as null without a request.
func TestServerDocuments(t *testing.T) {
	h := newHarness(t)
	rec := contentEditor{make(recordingEditor, 256)}
	h.client.cfg.Editor = rec
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("S1", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":1,"definitionProvider":true,"workspace":{"textDocumentContent":{"schemes":["fake-doc"]}}}}`)
	a.recvMethod("textDocument/didOpen")
	id := rec.next(t, "provider").connID

	got := provide(h, id, features.Definition, `{"uri":"kandev://s1/main.go","lineNumber":1,"column":1}`)
	req := a.recvMethod("textDocument/definition")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"uri":"fake-doc:///std/lib.rs","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]}`, req.ID)
	model := navigate.ContentURI("S1", "fake-doc:///std/lib.rs")
	require.Contains(t, answer(t, got), `"uri":"`+model+`"`)

	read := make(chan string, 1)
	go func() {
		out, err := h.client.Provide(ctxlite.Background(), "", ContentCall, `{"uri":"`+model+`"}`)
		require.NoError(t, err)
		read <- out
	}()
	req = a.recvMethod("workspace/textDocumentContent")
	require.JSONEq(t, `{"uri":"fake-doc:///std/lib.rs"}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"text":"fn lib() {}\n"}}`, req.ID)
	require.Equal(t, `"fn lib() {}\n"`, answer(t, read))

	a.send(`{"jsonrpc":"2.0","id":"r1","method":"workspace/textDocumentContent/refresh","params":{"uri":"fake-doc:///std/lib.rs"}}`)
	// The refresh is answered at once, not after the document is read
	// again; the read is a request of its own, which may go out first.
	x, y := a.recv(), a.recv()
	if x.Method != "" {
		x, y = y, x
	}
	require.Equal(t, `"r1"`, string(x.ID), "the refresh's answer: %s", x.raw)
	require.Equal(t, "workspace/textDocumentContent", y.Method, y.raw)
	req = y
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"text":"fn lib2() {}\n"}}`, req.ID)
	ev := rec.next(t, "content")
	require.Equal(t, model, ev.lang)
	require.Equal(t, "fn lib2() {}\n", ev.snap)

	// Another scheme: no server gives it.
	out, err := h.client.Provide(ctxlite.Background(), "", ContentCall, `{"uri":"`+navigate.ContentURI("S1", "jdt://x/y")+`"}`)
	require.NoError(t, err)
	require.Equal(t, "null", out)
}
