package client

import (
	"encoding/json"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

// A server's window/showDocument reaches the page: workspace files as
// model URIs with the selection in Monaco's terms, anything else as an
// external URI the page alone may open; a file outside the workspace is
// refused without asking the page.
func TestShowDocumentGoesThroughThePage(t *testing.T) {
	asked := make(chan ShowDocument, 4)
	answer := make(chan bool, 4)
	h := newHarness(t, func(c *Config) {
		c.ShowDocument = func(_ ctxlite.Context, d ShowDocument) bool { asked <- d; return <-answer }
	})
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	init := handshake(t, h, a, "/w", "file:///w")
	var params struct {
		Capabilities struct {
			Window struct {
				ShowDocument struct{ Support bool } `json:"showDocument"`
			} `json:"window"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &params))
	require.True(t, params.Capabilities.Window.ShowDocument.Support)
	a.recvMethod("textDocument/didOpen")

	a.send(`{"jsonrpc":"2.0","id":"d1","method":"window/showDocument","params":{"uri":"file:///w/pkg/util.go","takeFocus":true,"selection":{"start":{"line":4,"character":2},"end":{"line":4,"character":9}}}}`)
	d := <-asked
	require.Equal(t, ShowDocument{SessionID: "s", Model: "kandev://s/pkg/util.go", TakeFocus: true,
		Selection: `{"startLineNumber":5,"startColumn":3,"endLineNumber":5,"endColumn":10}`}, d)
	answer <- true
	require.JSONEq(t, `{"success":true}`, string(a.recv().Result))

	a.send(`{"jsonrpc":"2.0","id":"d2","method":"window/showDocument","params":{"uri":"https://pkg.go.dev/fmt","external":true}}`)
	require.Equal(t, ShowDocument{SessionID: "s", External: "https://pkg.go.dev/fmt"}, <-asked)
	answer <- false // the page declined
	require.JSONEq(t, `{"success":false}`, string(a.recv().Result))

	a.send(`{"jsonrpc":"2.0","id":"d3","method":"window/showDocument","params":{"uri":"file:///etc/passwd"}}`)
	require.JSONEq(t, `{"success":false}`, string(a.recv().Result))
	require.Empty(t, asked, "a file outside the workspace never reaches the page")
}

// Without a page callback the capability is not offered and every request
// is answered success: false.
func TestShowDocumentWithoutThePage(t *testing.T) {
	h := newHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	init := handshake(t, h, a, "/w", "file:///w")
	require.NotContains(t, string(init.Params), "showDocument")
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","id":"d1","method":"window/showDocument","params":{"uri":"https://example.com","external":true}}`)
	require.JSONEq(t, `{"success":false}`, string(a.recv().Result))
}

// With Config.Library, a file outside the workspace reaches the page as a
// library model (the page decides, with the task host, whether it opens).
func TestShowDocumentOfALibraryFile(t *testing.T) {
	asked := make(chan ShowDocument, 4)
	h := newHarness(t, func(c *Config) {
		c.Library = true
		c.ShowDocument = func(_ ctxlite.Context, d ShowDocument) bool { asked <- d; return true }
	})
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")

	a.send(`{"jsonrpc":"2.0","id":"d1","method":"window/showDocument","params":{"uri":"file:///usr/local/go/src/fmt/print.go","selection":{"start":{"line":272,"character":5},"end":{"line":272,"character":12}}}}`)
	require.Equal(t, ShowDocument{SessionID: "s", Model: "kandev-lib://s/usr/local/go/src/fmt/print.go",
		Selection: `{"startLineNumber":273,"startColumn":6,"endLineNumber":273,"endColumn":13}`}, <-asked)
	require.JSONEq(t, `{"success":true}`, string(a.recv().Result))
	require.JSONEq(t, `{"handled":true,"path":"/usr/local/go/src/fmt/print.go","library":true,"model":"kandev-lib://s/usr/local/go/src/fmt/print.go","sessionId":"s"}`,
		h.client.Navigate(`{"sessionId":"s","target":"kandev-lib://s/usr/local/go/src/fmt/print.go"}`))
}
