package client

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// Behaviours of real servers that a polite fake never shows, each played by
// the fake agent exactly as the server sends it.

// rust-analyzer sends window/workDoneProgress/create and the begin for the
// new token back to back, without waiting for the create's answer: the
// begin is not dropped.
func TestProgressBeginRightAfterCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := newModel("fn main() {}\n")
	_, err := h.client.OpenDocument("s", "src/main.rs", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshake(t, h, a, "/w", "file:///w")
	a.recvMethod("textDocument/didOpen")

	a.send(`{"jsonrpc":"2.0","id":"c1","method":"window/workDoneProgress/create","params":{"token":"rustAnalyzer/Indexing"}}`)
	a.send(`{"jsonrpc":"2.0","method":"$/progress","params":{"token":"rustAnalyzer/Indexing","value":{"kind":"begin","title":"Indexing","percentage":0}}}`)
	a.recvMethod("") // the create's answer
	s := waitStatus(t, h.client, "s", wire.Rust, "indexing progress", func(s Status) bool { return s.Progress.Primary != nil })
	require.Equal(t, "Indexing", s.Progress.Primary.Title)
}
