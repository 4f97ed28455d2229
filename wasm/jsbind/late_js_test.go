//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// deferred is a promise with its resolve and reject, as a page that
// starts loading Monaco holds it.
const deferred = `(function () {
	const d = {};
	d.promise = new Promise((res, rej) => { d.resolve = res; d.reject = rej; });
	return d;
})()`

// consoleErrors replaces console.error with a recorder until restore.
func consoleErrors(t testing.TB) (logged func() string, restore func()) {
	rec := jsEval(t, `(function () {
		const r = { lines: [], orig: console.error };
		console.error = (...a) => { r.lines.push(a.join(' ')); };
		return r;
	})()`)
	return func() string { return stringify(t, get(t, rec, "lines")) },
		func() { require.NoError(t, get(t, jsGlobal(), "console").Set("error", get(t, rec, "orig"))) }
}

// configureLater configures with a promise of Monaco.
func (p *lspPage) configureLater(promise jsValue) {
	p.t.Helper()
	require.True(p.t, mustBool(p.t, call(p.t, p.lsp, "configure", obj(p.t, map[string]any{
		"monaco": promise, "relayURL": "ws://h/lsp", "locale": "en",
		"settings": obj(p.t, map[string]any{"lsp_auto_start_languages": []any{"go"}}),
	}))))
}

// prepareToReady has prepare dial demo/go and drives the socket through
// initialize, with no document and no Monaco.
func (p *lspPage) prepareToReady(caps string) jsValue {
	t := p.t
	t.Helper()
	require.True(t, mustBool(t, call(t, p.lsp, "prepare", "demo", "go")))
	waitFor(t, "dial", func() bool { return length(t, get(t, p.ctor, "all")) == 1 })
	ws := index(t, get(t, p.ctor, "all"), 0)
	call(t, ws, "onopen", obj(t, map[string]any{}))
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"status":"ready","workspacePath":"/w"}`}))
	waitFor(t, "initialize", func() bool { return length(t, get(t, ws, "sent")) == 1 })
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":1,"result":{"capabilities":` + caps + `}}`}))
	waitFor(t, "initialized", func() bool { return length(t, get(t, ws, "sent")) == 2 })
	return ws
}

// registrations lists Monaco's provider registrations as kind:language:disposed.
func registrations(t testing.TB, mon jsValue) string {
	return stringify(t, call(t, get(t, mon, "regs"), "map", jsEval(t, `(r) => r.kind + ':' + r.lang + ':' + r.disposed`)))
}

const lateCaps = `{"textDocumentSync":2,"hoverProvider":true,"definitionProvider":true,"completionProvider":{}}`

// With a promise of Monaco, the server initializes before Monaco exists;
// nothing touches Monaco until the promise resolves, and then it holds the
// same providers as a page that configured with Monaco at hand. A document
// cannot open before, and joins the prepared connection after.
func TestPromiseOfMonacoRegistersOnResolve(t *testing.T) {
	p := newLSPPage(t)
	t.Cleanup(func() { call(t, p.lsp, "dispose") })
	langs := get(t, p.mon, "languages")
	original := get(t, langs, "registerHoverProvider")
	d := jsEval(t, deferred)
	p.configureLater(get(t, d, "promise"))
	ws := p.prepareToReady(lateCaps)
	require.Contains(t, stringify(t, call(t, p.lsp, "view", "demo", "go")), `"state":"ready"`)
	require.Equal(t, 0, length(t, get(t, p.mon, "regs")))
	require.True(t, get(t, langs, "registerHoverProvider").Equal(original), "Monaco is untouched before it resolves")

	logged, restore := consoleErrors(t)
	early := call(t, p.lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "main.go", "model": jsEval(t, fakeModel)}))
	restore()
	require.Equal(t, jsTypeNull, early.Type())
	require.Contains(t, logged(), "monaco has not loaded yet")

	call(t, d, "resolve", p.mon)
	waitFor(t, "providers", func() bool { return liveProviders(t, p.mon) == 3*goModels(t) }) // hover, definition and completion per id
	require.False(t, get(t, langs, "registerHoverProvider").Equal(original), "the built-in wrapper is installed on resolution")

	doc := call(t, p.lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "main.go", "model": jsEval(t, fakeModel)}))
	require.Equal(t, jsTypeObject, doc.Type())
	waitFor(t, "didOpen", func() bool { return length(t, get(t, ws, "sent")) == 3 })
	require.Contains(t, str(t, index(t, get(t, ws, "sent"), 2)), "textDocument/didOpen")
	require.Equal(t, 1, length(t, get(t, p.ctor, "all")), "the document joins the prepared connection")

	// The same state as with Monaco given at once.
	ref := newLSPPage(t)
	t.Cleanup(func() { call(t, ref.lsp, "dispose") })
	ref.configure()
	ref.open(lateCaps)
	waitFor(t, "reference providers", func() bool { return liveProviders(t, ref.mon) == 3*goModels(t) })
	require.Equal(t, registrations(t, ref.mon), registrations(t, p.mon))
}

// A rejected promise ends the configuration: its prepared connection
// closes, nothing is registered, and the page hears why.
func TestPromiseOfMonacoRejectedClosesConnections(t *testing.T) {
	p := newLSPPage(t)
	d := jsEval(t, deferred)
	p.configureLater(get(t, d, "promise"))
	require.True(t, mustBool(t, call(t, p.lsp, "prepare", "demo", "go")))
	waitFor(t, "dial", func() bool { return length(t, get(t, p.ctor, "all")) == 1 })
	ws := index(t, get(t, p.ctor, "all"), 0)

	logged, restore := consoleErrors(t)
	call(t, d, "reject", jsEval(t, `new Error('chunk failed')`))
	waitFor(t, "console error", func() bool { return len(logged()) > 2 })
	restore()
	require.Contains(t, logged(), "chunk failed")
	waitFor(t, "socket closed", func() bool { return get(t, ws, "closedWith").Type() == jsTypeNumber })
	require.Equal(t, 0, length(t, get(t, p.mon, "regs")))
	require.Equal(t, jsTypeNull, call(t, p.lsp, "view", "demo", "go").Type(), "the configuration is over")
	require.False(t, mustBool(t, call(t, p.lsp, "prepare", "demo", "go")))
}

// dispose(), or configure again, before the promise resolves: nothing of
// that configuration is registered when it does.
func TestPromiseOfMonacoAfterDisposeRegistersNothing(t *testing.T) {
	for _, replace := range []string{"dispose", "configure"} {
		t.Run(replace, func(t *testing.T) {
			p := newLSPPage(t)
			t.Cleanup(func() { call(t, p.lsp, "dispose") })
			langs := get(t, p.mon, "languages")
			original := get(t, langs, "registerHoverProvider")
			d := jsEval(t, deferred)
			p.configureLater(get(t, d, "promise"))
			p.prepareToReady(lateCaps)
			if replace == "dispose" {
				call(t, p.lsp, "dispose")
			} else {
				p.configureLater(get(t, jsEval(t, deferred), "promise"))
			}
			call(t, d, "resolve", p.mon)
			// The resolution runs in a microtask; a second promise
			// settled after it proves it ran.
			after := jsEval(t, `(function () { const r = { done: false }; Promise.resolve().then(() => Promise.resolve()).then(() => { r.done = true; }); return r; })()`)
			waitFor(t, "microtasks", func() bool { return truthy(get(t, after, "done")) })
			require.Equal(t, 0, length(t, get(t, p.mon, "regs")))
			require.True(t, get(t, langs, "registerHoverProvider").Equal(original))
			require.Equal(t, 0, length(t, get(t, p.mon, "openers")))
		})
	}
}
