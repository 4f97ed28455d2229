package client

import (
	"encoding/json"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

func explore(h *harness, js string) <-chan string {
	out := make(chan string, 1)
	go func() {
		s, err := h.client.Explore(ctxlite.Background(), js)
		if err != nil {
			s = "error: " + err.Error()
		}
		out <- s
	}()
	return out
}

// A call hierarchy is prepared by the model's server and each step goes
// back to the connection that produced the item, with the server's item
// unchanged; a feature the server does not offer sends nothing.
func TestCallHierarchyThroughTheItemsConnection(t *testing.T) {
	h := newHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2},"callHierarchyProvider":true}}`)
	a.recvMethod("textDocument/didOpen")

	ans := explore(h, `{"op":"callHierarchy","model":"kandev://s/main.go","lineNumber":5,"column":6}`)
	req := a.recvMethod("textDocument/prepareCallHierarchy")
	require.JSONEq(t, `{"textDocument":{"uri":"file:///w/main.go"},"position":{"line":4,"character":5}}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"name":"Greet","kind":12,"uri":"file:///w/greet/greet.go","range":{"start":{"line":4,"character":0},"end":{"line":6,"character":1}},"selectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":10}},"data":"opaque"}]}`, req.ID)
	var items []struct {
		Name, Model, Conn, LSP string
	}
	require.NoError(t, json.Unmarshal([]byte(answer(t, ans)), &items))
	require.Len(t, items, 1)
	require.Equal(t, "kandev://s/greet/greet.go", items[0].Model)

	item, _ := json.Marshal(map[string]string{"conn": items[0].Conn, "lsp": items[0].LSP})
	ans = explore(h, `{"op":"incomingCalls","item":`+string(item)+`}`)
	req = a.recvMethod("callHierarchy/incomingCalls")
	require.Contains(t, string(req.Params), `"data":"opaque"`)
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"from":{"name":"main","kind":12,"uri":"file:///w/main.go","range":{"start":{"line":2,"character":0},"end":{"line":5,"character":1}},"selectionRange":{"start":{"line":2,"character":5},"end":{"line":2,"character":9}}},"fromRanges":[{"start":{"line":4,"character":1},"end":{"line":4,"character":6}}]}]}`, req.ID)
	require.Contains(t, answer(t, ans), `"from":{"name":"main","kind":11`)

	// Not offered: nothing is sent.
	require.Equal(t, "[]", answer(t, explore(h, `{"op":"typeHierarchy","model":"kandev://s/main.go","lineNumber":1,"column":1}`)))
	require.Equal(t, "[]", answer(t, explore(h, `{"op":"workspaceSymbols","model":"kandev://s/main.go","query":"x"}`)))
	// An item of a connection that is gone: nothing either.
	require.Equal(t, "[]", answer(t, explore(h, `{"op":"outgoingCalls","item":{"conn":"gone","lsp":"{}"}}`)))
	a.nothingQueued()
	require.Contains(t, answer(t, explore(h, `{"op":"nope"}`)), "error:")
}

// Workspace symbols registered dynamically are asked of the model's server.
func TestWorkspaceSymbolsRegisteredDynamically(t *testing.T) {
	h := newHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	a.recvMethod("textDocument/didOpen")
	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[{"id":"ws","method":"workspace/symbol","registerOptions":{"resolveProvider":true}}]}}`)
	a.recvMethod("")
	ans := explore(h, `{"op":"workspaceSymbols","model":"kandev://s/main.go","query":"Gre"}`)
	req := a.recvMethod("workspace/symbol")
	require.JSONEq(t, `{"query":"Gre"}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":[{"name":"Greet","kind":12,"location":{"uri":"file:///w/greet/greet.go"}}]}`, req.ID)
	require.Contains(t, answer(t, ans), `"name":"Greet","kind":11,"tags":[],"model":"kandev://s/greet/greet.go","conn":`)
}
