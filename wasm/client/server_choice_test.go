package client

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The stream URL asks the relay for the chosen server, and choosing another
// ends the connection and opens the document on the new one without the
// page closing anything.
func TestChosenServerIsAskedForAndAChangeRestarts(t *testing.T) {
	var mu sync.Mutex
	server := "tsgo"
	h := newHarness(t, func(c *Config) {
		c.Servers = func(lang wire.Language) []string {
			mu.Lock()
			defer mu.Unlock()
			if lang == wire.TypeScript && server != "" {
				return []string{server}
			}
			return nil
		}
	})
	m := newModel("const a = 1;\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/s?language=typescript&server=tsgo", a.url)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	a.recvMethod("textDocument/didOpen")

	mu.Lock()
	server = "" // back to the language's default
	mu.Unlock()
	h.client.Restart(wire.TypeScript)
	h.expectState(t, StateStopping)
	a.recvMethod("shutdown")
	a.closeWith(1000)
	h.expectState(t, StateOff)
	b := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/s?language=typescript", b.url)
	handshakeWith(t, h, b, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	open := b.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"text":"const a = 1;\n"`)

	// Another language's connections are not touched.
	h.client.Restart(wire.Go)
	b.nothingQueued()
}
