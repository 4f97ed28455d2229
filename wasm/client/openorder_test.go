package client

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/stretchr/testify/require"
)

// openWatch is a client end of the socket that notes when a didOpen has
// been written.
type openWatch struct {
	jsonrpc.Transport
	opened *atomic.Bool
}

func (w openWatch) Write(ctx ctxlite.Context, msg []byte) error {
	err := w.Transport.Write(ctx, msg)
	if bytes.Contains(msg, []byte(`"method":"textDocument/didOpen"`)) {
		w.opened.Store(true)
	}
	return err
}

// orderEditor records whether a provider was registered before the
// document's didOpen had been written.
type orderEditor struct {
	recordingEditor
	opened *atomic.Bool
	early  *atomic.Bool
}

func (e orderEditor) Provider(connID, lang string, f features.Feature, opts string) {
	if opts != "" && !e.opened.Load() {
		e.early.Store(true)
	}
	e.recordingEditor.Provider(connID, lang, f, opts)
}

// Once initialized, the documents waiting for the server are opened
// before the connection's providers are registered with Monaco: the
// server starts on them sooner (registering is the longest step there on
// a cold page), and no provider request can precede its didOpen.
func TestDocumentsOpenBeforeProvidersRegister(t *testing.T) {
	var opened, early atomic.Bool
	var h *harness
	h = newHarness(t, func(c *Config) {
		c.Dial = func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error) {
			tr, err := h.dialer.dial(ctx, url)
			return openWatch{Transport: tr, opened: &opened}, err
		}
	})
	rec := make(recordingEditor, 256)
	h.client.cfg.Editor = orderEditor{recordingEditor: rec, opened: &opened, early: &early}

	readyDoc(t, h, "S1", "main.go", "package main\n\nfunc main() {}\n")
	rec.next(t, "provider")
	require.False(t, early.Load(), "a provider was registered before the didOpen was written")
}

// Opening first must not cost the document its claim on the model in the
// suppression state: the connection is placed there before the didOpens,
// so the built-ins Kandev replaces (Monaco's TypeScript ones) yield on the
// model as soon as the server's providers are registered.
func TestDocumentOpenedFirstClaimsItsModel(t *testing.T) {
	h := newHarness(t)
	rec := make(recordingEditor, 256)
	h.client.cfg.Editor = rec

	readyDoc(t, h, "S1", "src/a.ts", "export const a = 1;\n")
	// The snapshots published until the providers are all registered: the
	// last one must hand the model to the server.
	snap := ""
	for !strings.Contains(snap, `"kandev://s1/src/a.ts"`) {
		snap = rec.next(t, "suppress").snap
	}
	require.Contains(t, snap, `"kandev://s1/src/a.ts":["completion"`)
}
