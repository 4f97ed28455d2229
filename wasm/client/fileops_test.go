package client

import (
	"encoding/json"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/stretchr/testify/require"
)

// fileOpsInitializeResult declares, as typescript-language-server does,
// willRename for script files and any folder; here for Go files.
const fileOpsInitializeResult = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2},` +
	`"workspace":{"fileOperations":{"willRename":{"filters":[{"scheme":"file","pattern":{"glob":"**/*.go","matches":"file"}},` +
	`{"scheme":"file","pattern":{"glob":"**","matches":"folder"}}]}}}}}`

func willChange(h *harness, js string) <-chan FileOpResult {
	out := make(chan FileOpResult, 1)
	go func() {
		r, err := h.client.WillChangeFiles(ctxlite.Background(), js)
		if err != nil {
			r.Failed = []string{"error: " + err.Error()}
		}
		out <- r
	}()
	return out
}

// A rename the server declared interest in goes to it as willRenameFiles
// with its own URIs, for the matching entries only; the edit it answers
// is applied before WillChangeFiles returns; didRenameFiles goes out only
// once the server registered for it.
func TestFileRenameUpdatesImporters(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	m := newModel("package main\n\nimport \"example.com/w/pkg\"\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	init := handshakeWith(t, h, a, fileOpsInitializeResult)
	var params struct {
		Capabilities struct {
			Workspace struct {
				FileOperations map[string]bool `json:"fileOperations"`
			} `json:"workspace"`
		} `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(init, &params))
	require.Equal(t, map[string]bool{"dynamicRegistration": true, "willCreate": true, "didCreate": true,
		"willRename": true, "didRename": true, "willDelete": true, "didDelete": true}, params.Capabilities.Workspace.FileOperations)
	a.recvMethod("textDocument/didOpen")

	const rename = `{"sessionId":"s","kind":"rename","files":[{"path":"pkg","newPath":"lib","folder":true},{"path":"web/x.css","newPath":"web/y.css"}]}`
	res := willChange(h, rename)
	req := a.recvMethod("workspace/willRenameFiles")
	require.JSONEq(t, `{"files":[{"oldUri":"file:///w/pkg","newUri":"file:///w/lib"}]}`, string(req.Params))
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"changes":{"file:///w/main.go":[{"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":27}},"newText":"\"example.com/w/lib\""}]}}}`, req.ID)
	got := <-res
	require.Equal(t, FileOpResult{Applied: 1}, got)
	require.JSONEq(t, `{"applied":1,"failed":[]}`, got.JSON())
	applied := rec.next(t, "apply")
	require.Contains(t, applied.snap, `kandev://s/main.go`)
	require.Contains(t, applied.snap, `example.com/w/lib`)

	// No didRename declared yet: nothing goes out.
	require.NoError(t, h.client.DidChangeFiles(rename))
	a.nothingQueued()

	a.send(`{"jsonrpc":"2.0","id":"r1","method":"client/registerCapability","params":{"registrations":[{"id":"d","method":"workspace/didRenameFiles",` +
		`"registerOptions":{"filters":[{"pattern":{"glob":"**/*.css"}}]}}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"r1","result":null}`, a.recv().raw)
	require.NoError(t, h.client.DidChangeFiles(rename))
	did := a.recvMethod("workspace/didRenameFiles")
	require.JSONEq(t, `{"files":[{"oldUri":"file:///w/web/x.css","newUri":"file:///w/web/y.css"}]}`, string(did.Params))

	// A server watching the files hears of the change at once, before the
	// page opens documents at the new paths.
	a.send(`{"jsonrpc":"2.0","id":"r2","method":"client/registerCapability","params":{"registrations":[{"id":"w","method":"workspace/didChangeWatchedFiles",` +
		`"registerOptions":{"watchers":[{"globPattern":{"baseUri":"file:///w","pattern":"**/*"},"kind":7}]}}]}}`)
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"r2","result":null}`, a.recv().raw)
	require.NoError(t, h.client.DidChangeFiles(rename))
	a.recvMethod("workspace/didRenameFiles")
	watch := a.recvMethod("workspace/didChangeWatchedFiles")
	require.JSONEq(t, `{"changes":[{"uri":"file:///w/pkg","type":3},{"uri":"file:///w/lib","type":1},{"uri":"file:///w/web/x.css","type":3},{"uri":"file:///w/web/y.css","type":1}]}`, string(watch.Params))

	// A create the server never asked about costs no message.
	require.Equal(t, FileOpResult{}, <-willChange(h, `{"sessionId":"s","kind":"create","files":[{"path":"pkg/new.go"}]}`))
	a.nothingQueued()
	// Another session's files are not this server's.
	require.Equal(t, FileOpResult{}, <-willChange(h, `{"sessionId":"t","kind":"rename","files":[{"path":"a.go","newPath":"b.go"}]}`))
	a.nothingQueued()

	_, err = h.client.WillChangeFiles(ctxlite.Background(), `{"sessionId":"s","kind":"rename","files":[{"path":"../etc","newPath":"x"}]}`)
	require.Error(t, err)
	require.Error(t, h.client.DidChangeFiles(`{"kind":"delete"}`))
}

// A server that fails the request (or answers null) loses its say; the
// operation goes on and the failure is reported, not thrown.
func TestFileRenameSurvivesAFailingServer(t *testing.T) {
	t.Parallel()
	h, rec := editorHarness(t)
	m := newModel("package main\n")
	_, err := h.client.OpenDocument("s", "main.go", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, fileOpsInitializeResult)
	a.recvMethod("textDocument/didOpen")

	const rename = `{"sessionId":"s","kind":"rename","files":[{"path":"a.go","newPath":"b.go"}]}`
	res := willChange(h, rename)
	req := a.recvMethod("workspace/willRenameFiles")
	a.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"no project"}}`, req.ID)
	got := <-res
	require.Equal(t, 0, got.Applied)
	require.Len(t, got.Failed, 1)
	require.Contains(t, got.Failed[0], "no project")

	res = willChange(h, rename)
	req = a.recvMethod("workspace/willRenameFiles")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":null}`, req.ID)
	require.Equal(t, FileOpResult{}, <-res)
	rec.none(t, "apply")
}
