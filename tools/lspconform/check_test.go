package lspconform

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func model(t *testing.T) *Model {
	t.Helper()
	path, ok := Find()
	if !ok {
		t.Skip("no LSP meta model (" + MetaModelEnv + ", or shared/lsp/" + metaName + " beside the project)")
	}
	m, err := Load(path)
	require.NoError(t, err)
	require.Equal(t, "3.18.0", m.Version)
	return m
}

func TestClientHeldToTheLetter(t *testing.T) {
	m := model(t)
	c := m.NewConn()
	ok := func(side Side, frame string) {
		t.Helper()
		require.NoError(t, c.Check(side, []byte(frame)))
	}
	bad := func(side Side, frame, want string) {
		t.Helper()
		err := c.Check(side, []byte(frame))
		require.Error(t, err, frame)
		require.Contains(t, err.Error(), want)
	}
	ok(Client, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"hover":{"contentFormat":["markdown"]}}}}}`)
	ok(Server, `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"hoverProvider":true,"experimentalThing":1},"serverInfo":{"name":"x"}}}`)
	bad(Client, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"hovr":{}}}}}`,
		"params.capabilities.textDocument.hovr: TextDocumentClientCapabilities declares no such property")
	bad(Client, `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","languageId":"go","version":"1","text":""}}}`,
		"params.textDocument.version: want integer")
	bad(Client, `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","version":1,"text":""}}}`,
		"params.textDocument.languageId: missing")
	bad(Client, `{"jsonrpc":"2.0","id":3,"method":"kandev/private","params":{}}`, "no such request")
	bad(Client, `{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":1,"message":"x"}}`, "only sent serverToClient")
	ok(Client, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}`)
	// A response is held to its request's result type.
	ok(Server, `{"jsonrpc":"2.0","id":"w1","method":"workspace/configuration","params":{"items":[{"section":"gopls"}]}}`)
	bad(Client, `{"jsonrpc":"2.0","id":"w1","result":{"gopls":{}}}`, "want an array")
	ok(Client, `{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a"},"position":{"line":0,"character":2}}}`)
	bad(Server, `{"jsonrpc":"2.0","id":4,"result":{"contents":{"kind":"markdown","value":"x"},"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":1}}}}`,
		"result.range.start.line: want uinteger")
	// A server's optional property as null reads as absent (pylsp's
	// containerName); a client's does not pass.
	ok(Client, `{"jsonrpc":"2.0","id":6,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///a"}}}`)
	ok(Server, `{"jsonrpc":"2.0","id":6,"result":[{"name":"os","containerName":null,"kind":2,"location":{"uri":"file:///a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":9}}}}]}`)
	bad(Client, `{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a"},"extra":null}}`, "declares no such property")
	ok(Client, `{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a"},"position":{"line":0,"character":2}}}`)
	bad(Server, `{"jsonrpc":"2.0","id":7,"result":{"contents":null}}`, "result.contents")
	// A server's null result reads as none, even where an array is due.
	ok(Client, `{"jsonrpc":"2.0","id":8,"method":"textDocument/documentColor","params":{"textDocument":{"uri":"file:///a"}}}`)
	ok(Server, `{"jsonrpc":"2.0","id":8,"result":null}`)
	ok(Server, `{"jsonrpc":"2.0","id":"c1","method":"workspace/configuration","params":{"items":[{"section":"x"}]}}`)
	bad(Client, `{"jsonrpc":"2.0","id":"c1","result":null}`, "want an array")
	bad(Client, `{"jsonrpc":"2.0","id":99,"result":null}`, "answers no request")
	ok(Client, `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`)
	// A server's own protocol: the client answers its "P/request" with
	// "P/response" (Vue's tsserver/request), and only once asked.
	bad(Client, `{"jsonrpc":"2.0","method":"tsserver/response","params":[[1,null]]}`, "no such notification")
	ok(Server, `{"jsonrpc":"2.0","method":"tsserver/request","params":[[1,"projectInfo",{}]]}`)
	ok(Client, `{"jsonrpc":"2.0","method":"tsserver/response","params":[[1,null]]}`)
	bad(Client, `{"jsonrpc":"2.0","method":"other/response","params":[]}`, "no such notification")
	// The task host's own frames are not the protocol's.
	ok(Server, `{"status":"ready","workspacePath":"/w"}`)
	ok(Server, `{"files":[{"path":"a.go","type":1}]}`)
}
