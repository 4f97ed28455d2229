package client

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/jsonlite"
)

func TestLayOverKeepsTheClientsMembersLast(t *testing.T) {
	require.Nil(t, layOver(nil, nil))
	require.JSONEq(t, `{"a":1}`, string(layOver(jsonlite.Raw(`{"a":1}`), nil)))
	require.JSONEq(t, `{"b":2}`, string(layOver(nil, jsonlite.Raw(`{"b":2}`))))
	out := layOver(jsonlite.Raw(` {"a":1,"b":1} `), jsonlite.Raw(`{"b":2}`))
	var m map[string]int
	require.NoError(t, json.Unmarshal(out, &m))
	require.Equal(t, map[string]int{"a": 1, "b": 2}, m, "a member both name is the client's")
	require.Equal(t, "{}", string(layOver(jsonlite.Raw(`{}`), jsonlite.Raw(`{ }`))))
}

// The catalog's languages reach the server as it expects them: go.mod with
// its own languageId, the entry's initializationOptions from the ready
// frame, and the configuration sections the VS Code servers read as
// objects (their entry's configuration lists them as {}) answered {}
// rather than null.
func TestCatalogLanguagesOpenAsTheServerExpects(t *testing.T) {
	h := newHarness(t)
	m := newModel("module example.com/demo\n")
	_, err := h.client.OpenDocument("s", "go.mod", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","server":"gopls"}`)
	init := a.recvMethod("initialize")
	require.NotContains(t, string(init.Params), "initializationOptions")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	a.recvMethod("initialized")
	open := a.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"languageId":"go.mod"`)

	h2 := newHarness(t)
	css := newModel("a { color: red }\n")
	_, err = h2.client.OpenDocument("s", "style.scss", css, css)
	require.NoError(t, err)
	b := h2.agent(t)
	b.send(`{"status":"ready","workspacePath":"/w","server":"vscode-css-language-server","initializationOptions":{"provideFormatter":true},` +
		`"configuration":{"css":{},"scss":{},"less":{}}}`)
	init = b.recvMethod("initialize")
	var p struct {
		InitializationOptions json.RawMessage `json:"initializationOptions"`
	}
	require.NoError(t, json.Unmarshal(init.Params, &p))
	require.JSONEq(t, `{"provideFormatter":true}`, string(p.InitializationOptions))
	b.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	b.recvMethod("initialized")
	open = b.recvMethod("textDocument/didOpen") // no didChangeConfiguration before it: not asked to push
	require.Contains(t, string(open.Params), `"languageId":"scss"`)
	b.send(`{"jsonrpc":"2.0","id":7,"method":"workspace/configuration","params":{"items":[{"section":"scss"},{"section":"css.lint"},{"section":"other"}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":7,"result":[{},null,null]}`, b.recv().raw)
}

// A server whose entry asks for it (pushConfiguration: the Markdown server
// reads its settings only so) gets its configuration in
// didChangeConfiguration right after initialized, before any document;
// others get none (the first half of TestCatalogLanguagesOpenAsTheServerExpects).
func TestPushConfigurationAtStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("# Title\n")
	_, err := h.client.OpenDocument("s", "README.md", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":"/w","server":"vscode-markdown-language-server",` +
		`"configuration":{"markdown":{"validate":{"enabled":true}}},"pushConfiguration":true}`)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	a.recvMethod("initialized")
	push := a.recvMethod("workspace/didChangeConfiguration")
	require.JSONEq(t, `{"settings":{"markdown":{"validate":{"enabled":true}}}}`, string(push.Params))
	a.recvMethod("textDocument/didOpen")
}
