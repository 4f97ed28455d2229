//go:build js && wasm

package jsbind

import (
	"strings"
	"testing"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/stretchr/testify/require"
)

// fakeMonacoFull is fakeMonacoLanguages with recorded markers and models
// that can be looked up, as the binding's teardown needs.
const fakeMonacoFull = `(function () {
	const m = ` + fakeMonacoLanguages + `;
	m.markers = [];
	m.editor.setModelMarkers = (model, owner, markers) => { m.markers.push({ owner, markers }); };
	m.editor.getModel = () => null;
	return m;
})()`

// lspPage is a configured kandevLSP over fakes: the page's view.
type lspPage struct {
	t     testing.TB
	a     *api
	lsp   jsValue
	mon   jsValue
	ctor  jsValue
	clock *clocktest.Manual
}

func newLSPPage(t testing.TB) *lspPage {
	ctor := jsEval(t, fakeWebSocket)
	a := newAPI("v", func() (jsValue, error) { return ctor, nil }, func() (jsValue, error) { return jsEval(t, fakeStorage), nil })
	p := &lspPage{t: t, a: a, mon: jsEval(t, fakeMonacoFull), ctor: ctor, clock: &clocktest.Manual{}}
	a.clock = p.clock
	lsp, err := a.object()
	require.NoError(t, err)
	p.lsp = lsp
	return p
}

func (p *lspPage) configure() {
	p.t.Helper()
	require.True(p.t, mustBool(p.t, call(p.t, p.lsp, "configure", obj(p.t, map[string]any{
		"monaco": p.mon, "relayURL": "ws://h/lsp", "locale": "en",
		"settings": obj(p.t, map[string]any{"lsp_auto_start_languages": []any{"go"}}),
	}))))
}

// open opens main.go and drives its new connection to ready with the
// given capabilities; it returns the model and the socket.
func (p *lspPage) open(caps string) (modelV, ws jsValue) {
	t := p.t
	t.Helper()
	modelV = jsEval(t, fakeModel)
	n := length(t, get(t, p.ctor, "all"))
	doc := call(t, p.lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "main.go", "model": modelV}))
	require.Equal(t, jsTypeObject, doc.Type())
	waitFor(t, "dial", func() bool { return length(t, get(t, p.ctor, "all")) == n+1 })
	ws = index(t, get(t, p.ctor, "all"), n)
	call(t, ws, "onopen", obj(t, map[string]any{}))
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"status":"ready","workspacePath":"/w"}`}))
	waitFor(t, "initialize", func() bool { return length(t, get(t, ws, "sent")) == 1 })
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":1,"result":{"capabilities":` + caps + `}}`}))
	waitFor(t, "didOpen", func() bool { return length(t, get(t, ws, "sent")) == 3 })
	return modelV, ws
}

// sentAll is every frame the socket sent, one per line.
func sentAll(t testing.TB, ws jsValue) string {
	frames := get(t, ws, "sent")
	var b strings.Builder
	for i := 0; i < length(t, frames); i++ {
		b.WriteString(str(t, index(t, frames, i)))
		b.WriteByte('\n')
	}
	return b.String()
}

// goModels is how many Monaco language ids Go's providers are registered
// for (go, go.mod, go.work): each provider is one registration per id.
func goModels(t testing.TB) int {
	info, ok := wire.Lookup("go")
	require.True(t, ok)
	return len(info.MonacoIDs)
}

// liveProviders counts the registrations not disposed.
func liveProviders(t testing.TB, mon jsValue) int {
	regs := get(t, mon, "regs")
	n := 0
	for i := 0; i < length(t, regs); i++ {
		if !truthy(get(t, index(t, regs, i), "disposed")) {
			n++
		}
	}
	return n
}

// dispose() leaves Monaco as configure found it, and configure works again
// with exactly one set of providers.
func TestDisposeThenConfigure(t *testing.T) {
	p := newLSPPage(t)
	mon := p.mon
	langs := get(t, mon, "languages")
	original := get(t, langs, "registerHoverProvider")
	p.configure()
	require.False(t, get(t, langs, "registerHoverProvider").Equal(original), "configure wraps the built-in registration")
	// Monaco's TypeScript mode registers its hover through the wrapper.
	builtin := jsEval(t, `({ provideHover() { return { contents: [{ value: 'built-in' }] }; } })`)
	call(t, langs, "registerHoverProvider", "typescript", builtin)
	wrappedBuiltin := get(t, index(t, get(t, mon, "regs"), 0), "provider")

	events := jsEval(t, `(function () { const f = function (e) { f.events.push(e); }; f.events = []; return f; })()`)
	call(t, p.lsp, "onStatus", events)
	call(t, p.lsp, "onMessage", events)
	modelV, ws := p.open(`{"textDocumentSync":1,"hoverProvider":true,"definitionProvider":true}`)
	want := 1 + 2*goModels(t) // the built-in, then hover and definition per id
	waitFor(t, "providers", func() bool { return liveProviders(t, mon) == want })
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/main.go","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"m"}]}}`}))
	markers := get(t, mon, "markers")
	waitFor(t, "markers", func() bool { return length(t, markers) == 1 })

	require.True(t, mustBool(t, call(t, p.lsp, "dispose")))
	// Ours are gone; Monaco's own built-in stays registered.
	require.Equal(t, 1, liveProviders(t, mon))
	require.False(t, truthy(get(t, index(t, get(t, mon, "regs"), 0), "disposed")))
	require.True(t, get(t, langs, "registerHoverProvider").Equal(original), "register functions are Monaco's again")
	hasWrapped := jsEval(t, `(L) => Object.getOwnPropertySymbols(L).some((s) => s === Symbol.for('kandev.lsp.wrapped'))`)
	has, err := hasWrapped.Invoke(langs)
	require.NoError(t, err)
	require.False(t, truthy(has))
	require.Equal(t, 0, length(t, get(t, mon, "openers")))
	require.Equal(t, "[]", stringify(t, get(t, index(t, markers, length(t, markers)-1), "markers")), "markers cleared")
	require.Equal(t, 0, length(t, get(t, modelV, "change"))+length(t, get(t, modelV, "willDispose")), "model listeners disposed")
	require.Contains(t, sentAll(t, ws), `textDocument/didClose`)
	// The connection shuts down politely in the background.
	waitFor(t, "shutdown", func() bool { return strings.Contains(sentAll(t, ws), `"method":"shutdown"`) })
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":2,"result":null}`}))
	waitFor(t, "socket closed", func() bool { return !get(t, ws, "closedWith").IsNull() })
	// The built-in answers as Monaco's own once more.
	ask := jsEval(t, `(p) => JSON.stringify(p.provideHover({ uri: { toString() { return 'kandev://demo/a.ts'; } } }, {}))`)
	got, err := ask.Invoke(wrappedBuiltin)
	require.NoError(t, err)
	require.Contains(t, str(t, got), "built-in")
	require.True(t, call(t, p.lsp, "view", "demo", "go").IsNull(), "nothing is configured")
	nEvents := length(t, get(t, events, "events"))

	// Configure again: one set of providers, the listeners are the page's to add.
	p.configure()
	p.open(`{"textDocumentSync":1,"hoverProvider":true}`)
	waitFor(t, "providers again", func() bool { return liveProviders(t, mon) == 1+goModels(t) })
	require.Equal(t, nEvents, length(t, get(t, events, "events")), "listeners were dropped by dispose")
	// A built-in registered under the first install follows the new one.
	setSuppressed := jsEval(t, `(L) => L[Symbol.for('kandev.lsp.wrapped')].set({ 'kandev://demo/a.ts': ['hover'] })`)
	_, err = setSuppressed.Invoke(langs)
	require.NoError(t, err)
	got, err = ask.Invoke(wrappedBuiltin)
	require.NoError(t, err)
	require.Equal(t, "null", str(t, got))
	require.True(t, mustBool(t, call(t, p.lsp, "dispose")))
}

// Server messages reach the page's onMessage listeners; a request's choice
// goes back through respond(id, title); with no listener it is answered
// null at once.
func TestServerMessagesToPage(t *testing.T) {
	p := newLSPPage(t)
	p.configure()
	_, ws := p.open(`{"textDocumentSync":1}`)
	sent := func() int { return length(t, get(t, ws, "sent")) }
	last := func() string { return str(t, index(t, get(t, ws, "sent"), sent()-1)) }

	// Nobody listens yet: the request is answered null.
	n := sent()
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":"q0","method":"window/showMessageRequest","params":{"type":3,"message":"?","actions":[{"title":"OK"}]}}`}))
	waitFor(t, "null answer", func() bool { return sent() == n+1 })
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"q0","result":null}`, last())

	got := jsEval(t, `(function () { const f = function (m) { f.msgs.push(m); }; f.msgs = []; return f; })()`)
	off := call(t, p.lsp, "onMessage", got)
	msgs := get(t, got, "msgs")
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":1,"message":"gopls: broken"}}`}))
	waitFor(t, "message", func() bool { return length(t, msgs) == 1 })
	m := index(t, msgs, 0)
	require.Equal(t, "error", str(t, get(t, m, "type")))
	require.Equal(t, "gopls: broken", str(t, get(t, m, "message")))
	require.Equal(t, "Message from gopls", str(t, get(t, m, "title")))
	require.True(t, get(t, m, "id").IsNull())

	n = sent()
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":"q1","method":"window/showMessageRequest","params":{"type":2,"message":"Tidy?","actions":[{"title":"Yes"},{"title":"No"}]}}`}))
	waitFor(t, "request", func() bool { return length(t, msgs) == 2 })
	req := index(t, msgs, 1)
	require.Equal(t, `["Yes","No"]`, stringify(t, get(t, req, "actions")))
	require.True(t, mustBool(t, call(t, p.lsp, "respond", get(t, req, "id"), "No")))
	waitFor(t, "answer", func() bool { return sent() == n+1 })
	require.JSONEq(t, `{"jsonrpc":"2.0","id":"q1","result":{"title":"No"}}`, last())
	require.False(t, mustBool(t, call(t, p.lsp, "respond", get(t, req, "id"), "Yes")), "answered once")

	_, err := off.Invoke()
	require.NoError(t, err)
	require.Empty(t, p.a.msgLs)
	require.True(t, mustBool(t, call(t, p.lsp, "dispose")))
}
