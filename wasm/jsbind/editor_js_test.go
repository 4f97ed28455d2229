//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// fakeMonacoLanguages is a Monaco namespace with the languages and editor
// functions the shim uses; registrations are recorded, results land in out.
const fakeMonacoLanguages = `(function () {
	const regs = [];
	const reg = (kind) => function (lang, provider) {
		const r = { kind, lang, provider, disposed: false };
		regs.push(r);
		return { dispose() { r.disposed = true; } };
	};
	const languages = {};
	for (const k of ['registerCompletionItemProvider', 'registerHoverProvider', 'registerDefinitionProvider',
		'registerReferenceProvider', 'registerSignatureHelpProvider', 'registerDocumentSemanticTokensProvider']) languages[k] = reg(k);
	const openers = [];
	return {
		regs, openers, out: {},
		languages,
		Uri: { parse(s) { return { parsed: s, toString() { return s; } }; } },
		editor: {
			setModelMarkers() {},
			registerEditorOpener(o) { openers.push(o); return { dispose() { openers.length = 0; } }; },
		},
	};
})()`

// fakeCall answers every provider call from a table and records it.
const fakeCall = `(function () {
	const calls = [];
	const answers = {
		completion: '{"suggestions":[{"label":"Hello","kind":1,"insertText":"Hello","range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":2}}],"incomplete":true}',
		definition: '[{"uri":"kandev://s/greet.go","range":{"startLineNumber":5,"startColumn":6,"endLineNumber":5,"endColumn":11}}]',
		semanticTokens: '{"data":[0,5,5,12,0]}',
	};
	const f = function (id, feature, json, resolve) { calls.push([id, feature, json]); resolve(answers[feature] || 'null'); };
	f.calls = calls;
	return f;
})()`

func TestShimRegistersProvidersAndPacksOneString(t *testing.T) {
	mon := jsEval(t, fakeMonacoLanguages)
	callFn := jsEval(t, fakeCall)
	nav := jsEval(t, `(function (json) { globalThis.navAsked = json; return '{"handled":true,"path":"greet.go","sessionId":"s"}'; })`)
	b := testBridge(t, mon, callFn, nav)
	require.True(t, b.ok())

	p := features.Providers{
		Set:                         features.Set(0).With(features.Completion).With(features.Definition).With(features.SemanticTokens),
		CompletionTriggerCharacters: []string{"."},
		Legend:                      features.Legend{TokenTypes: []string{"function"}, TokenModifiers: []string{}},
	}
	for _, f := range []features.Feature{features.Completion, features.Definition, features.SemanticTokens} {
		b.Provider("c1", "go", f, features.OptionsJSON(p, f))
	}
	regs := get(t, mon, "regs")
	require.Equal(t, 3, length(t, regs), "only the advertised features")
	kinds := map[string]jsValue{}
	for i := 0; i < length(t, regs); i++ {
		r := index(t, regs, i)
		kinds[str(t, get(t, r, "kind"))] = get(t, r, "provider")
		require.Equal(t, "go", str(t, get(t, r, "lang")))
	}
	require.Contains(t, kinds, "registerCompletionItemProvider")
	// Our providers carry the guard the TypeScript wrapper lets through.
	guarded := jsEval(t, `(p) => p[Symbol.for('kandev.lsp.provider')] === true`)
	ok, err := guarded.Invoke(kinds["registerCompletionItemProvider"])
	require.NoError(t, err)
	require.True(t, truthy(ok))
	require.Equal(t, `["."]`, stringify(t, get(t, kinds["registerCompletionItemProvider"], "triggerCharacters")))

	// One provider call: Monaco's arguments become one JSON string.
	run := jsEval(t, `(function (mon, providers) {
		const model = { uri: { toString() { return 'kandev://s/main.go'; } },
			getWordUntilPosition() { return { startColumn: 3 }; }, getWordAtPosition() { return { endColumn: 7 }; } };
		providers.c.provideCompletionItems(model, { lineNumber: 4, column: 5 }, { triggerKind: 1, triggerCharacter: '.' }, { isCancellationRequested: false })
			.then((r) => { mon.out.completion = r; });
		providers.d.provideDefinition(model, { lineNumber: 4, column: 5 }, {}).then((r) => { mon.out.definition = r; });
		providers.s.provideDocumentSemanticTokens(model, null, {}).then((r) => { mon.out.tokens = r; });
		providers.s.onDidChange(() => { mon.out.refreshed = (mon.out.refreshed || 0) + 1; });
		// A cancelled request never reaches Go.
		providers.c.provideCompletionItems(model, { lineNumber: 1, column: 1 }, { triggerKind: 0 }, { isCancellationRequested: true });
	})`)
	providers := obj(t, map[string]any{
		"c": kinds["registerCompletionItemProvider"],
		"d": kinds["registerDefinitionProvider"],
		"s": kinds["registerDocumentSemanticTokensProvider"],
	})
	_, err = run.Invoke(mon, providers)
	require.NoError(t, err)
	out := get(t, mon, "out")
	waitFor(t, "results", func() bool {
		v, _ := out.Get("tokens")
		w, _ := out.Get("definition")
		return v.Type() == jsTypeObject && w.Type() == jsTypeObject
	})
	calls := get(t, callFn, "calls")
	require.Equal(t, 3, length(t, calls))
	first := index(t, calls, 0)
	require.Equal(t, "c1", str(t, index(t, first, 0)))
	require.Equal(t, "completion", str(t, index(t, first, 1)))
	req, err := features.ParseCompletionRequest(str(t, index(t, first, 2)))
	require.NoError(t, err)
	require.Equal(t, features.CompletionRequest{PositionRequest: features.PositionRequest{URI: "kandev://s/main.go", LineNumber: 4, Column: 5},
		WordStart: 3, WordEnd: 7, TriggerKind: 1, TriggerCharacter: "."}, req)
	require.Equal(t, true, truthy(get(t, out, "completion", "incomplete")))
	require.Equal(t, "kandev://s/greet.go", str(t, get(t, index(t, get(t, out, "definition"), 0), "uri", "parsed")))
	isU32 := jsEval(t, `(x) => x instanceof Uint32Array && x.length === 5`)
	u, err := isU32.Invoke(get(t, out, "tokens", "data"))
	require.NoError(t, err)
	require.True(t, truthy(u))

	// A server refresh fires onDidChange.
	b.Refresh("c1", features.SemanticTokens)
	require.Equal(t, 1, mustInt(t, get(t, out, "refreshed")))

	// Re-registering one feature disposes and registers that one only.
	p.CompletionTriggerCharacters = []string{".", ":"}
	b.Provider("c1", "go", features.Completion, features.OptionsJSON(p, features.Completion))
	require.Equal(t, 4, length(t, regs))
	require.True(t, truthy(get(t, index(t, regs, 0), "disposed")))
	require.False(t, truthy(get(t, index(t, regs, 1), "disposed")))
	require.False(t, truthy(get(t, index(t, regs, 2), "disposed")))
	require.Equal(t, `[".",":"]`, stringify(t, get(t, index(t, regs, 3), "provider", "triggerCharacters")))
	b.Provider("c1", "go", features.Definition, "")
	require.True(t, truthy(get(t, index(t, regs, 1), "disposed")))

	// The connection ends: every provider goes, and a refresh fires nothing.
	b.Ended("c1")
	for i := 0; i < length(t, regs); i++ {
		require.True(t, truthy(get(t, index(t, regs, i), "disposed")))
	}
	b.Refresh("c1", features.SemanticTokens)
	require.Equal(t, 1, mustInt(t, get(t, out, "refreshed")))
}

// A model the connection does not serve is answered null by Go: the shim
// hands Monaco null (so it asks the next provider), never an empty result.
func TestShimPassesNullThrough(t *testing.T) {
	mon := jsEval(t, fakeMonacoLanguages)
	callFn := jsEval(t, `(function (id, feature, json, resolve) { resolve('null'); })`)
	b := testBridge(t, mon, callFn, jsEval(t, `() => '{"handled":false}'`))
	p := features.Providers{Set: features.Set(features.SemanticTokens | features.Completion | features.Definition), Legend: features.Legend{TokenTypes: []string{"function"}}}
	for _, f := range []features.Feature{features.Completion, features.Definition, features.SemanticTokens} {
		b.Provider("c1", "go", f, features.OptionsJSON(p, f))
	}
	regs := get(t, mon, "regs")
	run := jsEval(t, `(function (mon, regs) {
		const model = { uri: { toString() { return 'kandev://other/main.go'; } },
			getWordUntilPosition() { return { startColumn: 1 }; }, getWordAtPosition() { return null; } };
		const at = { lineNumber: 1, column: 1 };
		Promise.all([
			regs[0].provider.provideCompletionItems(model, at, { triggerKind: 0 }, {}),
			regs[1].provider.provideDefinition(model, at, {}),
			regs[2].provider.provideDocumentSemanticTokens(model, null, {}),
		]).then((r) => { mon.out.all = r; });
	})`)
	_, err := run.Invoke(mon, regs)
	require.NoError(t, err)
	out := get(t, mon, "out")
	waitFor(t, "answers", func() bool { v, _ := out.Get("all"); return v.Type() == jsTypeObject })
	require.Equal(t, "[null,null,null]", stringify(t, get(t, out, "all")))
	b.Ended("c1")
}

func TestWrapperSuppressesOnlyListedModels(t *testing.T) {
	mon := jsEval(t, fakeMonacoLanguages)
	b := testBridge(t, mon, jsEval(t, fakeCall), jsEval(t, `() => '{"handled":false}'`))
	// Monaco's TypeScript mode registers its hover after configure.
	register := get(t, mon, "languages", "registerHoverProvider")
	builtin := jsEval(t, `({ provideHover() { return { contents: [{ value: 'built-in' }] }; } })`)
	_, err := register.Invoke("typescript", builtin)
	require.NoError(t, err)
	regs := get(t, mon, "regs")
	wrapped := get(t, index(t, regs, length(t, regs)-1), "provider")

	b.Suppress(`{"kandev://s1/a.ts":["hover"]}`)
	ask := jsEval(t, `(p, uri) => JSON.stringify(p.provideHover({ uri: { toString() { return uri; } } }, {}))`)
	owned, err := ask.Invoke(wrapped, "kandev://s1/a.ts")
	require.NoError(t, err)
	require.Equal(t, "null", str(t, owned))
	other, err := ask.Invoke(wrapped, "kandev://s2/a.ts")
	require.NoError(t, err)
	require.Contains(t, str(t, other), "built-in")
}

func TestOpenerAsksGoAndThePage(t *testing.T) {
	mon := jsEval(t, fakeMonacoLanguages)
	nav := jsEval(t, `(function (json) { globalThis.navAsked = json; return '{"handled":true,"path":"greet.go","sessionId":"s","tabId":"t1"}'; })`)
	b := testBridge(t, mon, jsEval(t, fakeCall), nav)
	tabs := jsEval(t, `() => [{ id: 't1', path: 'greet.go' }]`)
	open := jsEval(t, `(t) => { globalThis.opened = t; return true; }`)
	b.setOpener(tabs, open)
	openers := get(t, mon, "openers")
	require.Equal(t, 1, length(t, openers))
	source := jsEval(t, `({ id: 'editor-2', getModel() { return { uri: { toString() { return 'kandev://s/main.go'; } } }; } })`)
	run := jsEval(t, `(o, source) => o.openCodeEditor(source, { toString() { return 'kandev://s/greet.go'; } }, { lineNumber: 5, column: 6 })`)
	p, err := run.Invoke(index(t, openers, 0), source)
	require.NoError(t, err)
	require.Equal(t, jsTypeObject, p.Type()) // a Promise
	asked := str(t, get(t, jsGlobal(), "navAsked"))
	require.JSONEq(t, `{"source":"kandev://s/main.go","target":"kandev://s/greet.go","tabs":[{"id":"t1","path":"greet.go"}]}`, asked)
	opened := get(t, jsGlobal(), "opened")
	require.Equal(t, "t1", str(t, get(t, opened, "tabId")))
	require.True(t, get(t, opened, "editor").Equal(source), "openFile learns which editor navigates")
	require.JSONEq(t, `{"startLineNumber":5,"startColumn":6,"endLineNumber":5,"endColumn":6}`, stringify(t, get(t, opened, "selection")))
	b.close()
	require.Equal(t, 0, length(t, openers))
}

func truthy(v jsValue) bool {
	b, err := v.Bool()
	return err == nil && b
}

// testBridge is a bridge whose shim calls call and navigate, with no page
// callbacks.
func testBridge(t *testing.T, mon, call, navigate jsValue) *editorBridge {
	t.Helper()
	noop := jsEval(t, `() => {}`)
	page := jsEval(t, `({})`)
	return newEditorBridge(mon, &api{goCall: call, goNav: navigate, goCancel: noop, goApplied: noop}, page)
}
