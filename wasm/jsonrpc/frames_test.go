package jsonrpc_test

import (
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/stretchr/testify/require"
)

// A frame that is a JSON object but no JSON-RPC message — the task host's
// own frames — reaches the handler as a method-less notification with the
// whole frame as Params, in order with the messages around it, and is
// never answered.
func TestForeignFramesReachTheHandlerInOrder(t *testing.T) {
	got := make(chan string, 8)
	_, p := newPair(t, jsonrpc.HandlerFunc(func(_ ctxlite.Context, r *jsonrpc.Request) (jsonlite.Appender, error) {
		got <- r.Method + " " + string(r.Params)
		return nil, nil
	}))
	p.send(`{"jsonrpc":"2.0","method":"a","params":1}`)
	p.send(`{"files":[{"path":"x.go","type":2}]}`)
	p.send(`{"jsonrpc":"2.0","id":"r","method":"b","params":2}`)
	require.Equal(t, "a 1", <-got)
	require.Equal(t, ` {"files":[{"path":"x.go","type":2}]}`, <-got)
	require.Equal(t, "b 2", <-got)
	require.Equal(t, `"r"`, string(p.recv().ID)) // only the request is answered
}
