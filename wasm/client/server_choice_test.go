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

// A server change at a full cap: the replacement dials while the ended
// connection's server is still stopping and still holds its place, and is
// refused with 4005. It is tried again by itself on the reconnect schedule
// and reaches ready on the new server, with no Retry. A 4005 for a pair
// that replaces nothing stays unavailable at once (the cap is really full).
func TestAServerChangeAtTheCapTriesAgain(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	server := "tsgo"
	h := newHarness(t, func(c *Config) {
		c.Servers = func(lang wire.Language) []string {
			mu.Lock()
			defer mu.Unlock()
			if lang == wire.TypeScript {
				return []string{server}
			}
			return nil
		}
	})
	m := newModel("const a = 1;\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	a.recvMethod("textDocument/didOpen")

	mu.Lock()
	server = "typescript-language-server"
	mu.Unlock()
	h.client.Restart(wire.TypeScript)
	h.expectState(t, StateStopping)
	a.recvMethod("shutdown")
	a.closeWith(1000)
	h.expectState(t, StateOff)
	b := h.agent(t)
	require.Contains(t, b.url, "server=typescript-language-server")
	h.expectState(t, StateConnecting)
	b.closeWith(int(wire.CloseCapacity))
	s := h.expectState(t, StateReconnecting)
	require.Equal(t, 4005, s.CloseCode)
	require.Equal(t, 1, s.Attempt)

	// The old place is free now: the next attempt gets in.
	h.clock.Advance(0)
	c := h.agent(t)
	require.Contains(t, c.url, "server=typescript-language-server")
	c.send(`{"status":"ready","workspacePath":"/w"}`)
	init := c.recvMethod("initialize")
	c.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}}`, init.ID)
	c.recvMethod("initialized")
	open := c.recvMethod("textDocument/didOpen")
	require.Contains(t, string(open.Params), `"text":"const a = 1;\n"`)
	s = waitStatus(t, h.client, "s", wire.TypeScript, "ready", func(s Status) bool { return s.State == StateReady })
	require.Zero(t, s.Attempt)

	// A Go file's first connection refused at the cap replaces nothing:
	// unavailable with 4005 at once, no attempt after it.
	g := newModel("package main\n")
	_, err = h.client.OpenDocument("s", "main.go", g, g)
	require.NoError(t, err)
	d := h.agent(t)
	d.closeWith(int(wire.CloseCapacity))
	s = waitStatus(t, h.client, "s", wire.Go, "unavailable", func(s Status) bool { return s.State != StateConnecting })
	require.Equal(t, StateUnavailable, s.State)
	require.Equal(t, 4005, s.CloseCode)
	require.Zero(t, s.Attempt)
}

// Adding a second server to a language that had none chosen names the
// default one explicitly (["typescript-language-server", "eslint"]): the
// running connection of the default server is the same server and stays;
// only the new slot connects.
func TestAddingAServerKeepsTheDefaultRunning(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var list []string
	h := newHarness(t, func(c *Config) {
		c.Servers = func(lang wire.Language) []string {
			mu.Lock()
			defer mu.Unlock()
			if lang == wire.TypeScript {
				return list
			}
			return nil
		}
	})
	m := newModel("const a = 1;\n")
	_, err := h.client.OpenDocument("s", "a.ts", m, m)
	require.NoError(t, err)
	a := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/s?language=typescript", a.url)
	handshakeWith(t, h, a, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}}}`)
	a.recvMethod("textDocument/didOpen")

	first := h.current("s", wire.TypeScript)
	mu.Lock()
	list = []string{"typescript-language-server", "eslint"}
	mu.Unlock()
	// Restart ends what it ends before it returns (the connection's
	// context), so the check right after it is no race.
	h.client.Restart(wire.TypeScript)
	require.Same(t, first, h.current("s", wire.TypeScript))
	require.NoError(t, first.ctx.Err(), "the default server's connection was not ended")
	b := h.agent(t)
	require.Equal(t, "ws://relay.test/lsp/s?language=typescript&server=eslint", b.url)
	a.nothingQueued()
}
