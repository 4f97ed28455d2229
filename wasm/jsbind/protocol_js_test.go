//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// fakeProtocolMonaco is a Monaco namespace with the registrations of the
// later providers (code lenses, links, colors, linked editing, selection
// ranges, both semantic-token providers), commands, Uris that remember
// they were parsed, and a console.warn that counts.
const fakeProtocolMonaco = `(function () {
	const regs = [], commands = {}, warnings = [];
	const languages = { FoldingRangeKind: function (v) { this.value = v; } };
	for (const k of ['registerCodeLensProvider', 'registerLinkProvider', 'registerColorProvider', 'registerLinkedEditingRangeProvider',
		'registerSelectionRangeProvider', 'registerDocumentSemanticTokensProvider', 'registerDocumentRangeSemanticTokensProvider',
		'registerFoldingRangeProvider', 'registerDocumentRangeFormattingEditProvider']) {
		languages[k] = (lang, provider) => { const r = { kind: k, lang, provider, disposed: false }; regs.push(r); return { dispose() { r.disposed = true; } }; };
	}
	const warn = console.warn;
	console.warn = (...a) => { warnings.push(a.join(' ')); };
	return {
		regs, commands, warnings, out: {}, languages, restore() { console.warn = warn; },
		Uri: { parse(s) { return { parsed: s, toString() { return s; } }; } },
		editor: {
			setModelMarkers() {},
			registerCommand(id, fn) { commands[id] = fn; return { dispose() { delete commands[id]; } }; },
			registerEditorOpener() { return { dispose() {} }; },
		},
	};
})()`

// fakeAnswers answers each call with answers[name] (null without one) and
// records [id, name, json].
const fakeAnswers = `(function () {
	const calls = [], answers = {};
	const f = function (id, name, json, resolve) { calls.push([id, name, json]); resolve(answers[name] || 'null'); };
	f.calls = calls;
	f.answers = answers;
	return f;
})()`

// protocolBridge registers the features for connection c1 and Monaco
// language go, and returns the bridge, the fake Monaco, the fake call and
// each feature's provider by Monaco's registration kind.
func protocolBridge(t *testing.T, p features.Providers, fs ...features.Feature) (*editorBridge, jsValue, jsValue, map[string]jsValue) {
	t.Helper()
	mon := jsEval(t, fakeProtocolMonaco)
	t.Cleanup(func() { call(t, mon, "restore") })
	answers := jsEval(t, fakeAnswers)
	b := testBridge(t, mon, answers, jsEval(t, `() => '{"handled":false}'`))
	require.True(t, b.ok())
	for _, f := range fs {
		b.Provider("c1", "go", f, features.OptionsJSON(p, f))
	}
	regs := get(t, mon, "regs")
	require.Equal(t, len(fs), length(t, regs))
	kinds := map[string]jsValue{}
	for i := range length(t, regs) {
		kinds[str(t, get(t, index(t, regs, i), "kind"))] = get(t, index(t, regs, i), "provider")
	}
	return b, mon, answers, kinds
}

func answerWith(t *testing.T, answers jsValue, name, json string) {
	t.Helper()
	require.NoError(t, get(t, answers, "answers").Set(name, json))
}

// lastCall is the [id, name, json] of the latest call into Go.
func lastCall(t *testing.T, answers jsValue) (id, name, json string) {
	t.Helper()
	calls := get(t, answers, "calls")
	c := index(t, calls, length(t, calls)-1)
	return str(t, index(t, c, 0)), str(t, index(t, c, 1)), str(t, index(t, c, 2))
}

const protoModel = `({ uri: { toString() { return 'kandev://s/main.go'; } } })`

// Document links keep their LSP form hidden for resolve; colors, linked
// editing and selection ranges pack Monaco's arguments into one string and
// get Monaco's shapes back (a RegExp for the word pattern, one list of
// ranges per position).
func TestShimLinksColorsLinkedSelection(t *testing.T) {
	p := features.Providers{Resolves: features.Set(features.DocumentLink)}
	_, mon, answers, kinds := protocolBridge(t, p, features.DocumentLink, features.DocumentColor, features.LinkedEditingRange, features.SelectionRange)
	model := jsEval(t, protoModel)
	mr := `{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":9}`
	none := jsEval(t, `({})`)

	links := kinds["registerLinkProvider"]
	answerWith(t, answers, "documentLink", `{"links":[{"range":`+mr+`,"url":"https://go.dev"},{"range":`+mr+`,"lsp":[2,1]}]}`)
	got := get(t, settle(t, mon, call(t, links, "provideLinks", model, none), "links"), "v", "links")
	require.JSONEq(t, `[{"range":`+mr+`,"url":"https://go.dev"},{"range":`+mr+`}]`, stringify(t, got))
	answerWith(t, answers, "documentLinkResolve", `{"range":`+mr+`,"url":"kandev://s/b.go"}`)
	res := get(t, settle(t, mon, call(t, links, "resolveLink", index(t, got, 1), none), "link"), "v")
	_, name, json := lastCall(t, answers)
	require.Equal(t, "documentLinkResolve", name)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":[2,1]}`, json)
	require.Equal(t, "kandev://s/b.go", str(t, get(t, res, "url")))
	same := call(t, links, "resolveLink", index(t, got, 0), none)
	require.Equal(t, "https://go.dev", str(t, get(t, same, "url")), "a link with a target is not resolved")

	colors := kinds["registerColorProvider"]
	answerWith(t, answers, "documentColor", `[{"range":`+mr+`,"color":{"red":1,"green":0,"blue":0,"alpha":1}}]`)
	c := get(t, settle(t, mon, call(t, colors, "provideDocumentColors", model, none), "colors"), "v")
	require.Equal(t, 1, mustInt(t, get(t, index(t, c, 0), "color", "red")))
	info := jsEval(t, `({ range: `+mr+`, color: { red: 0, green: 0.5, blue: 1, alpha: 1 } })`)
	answerWith(t, answers, "colorPresentation", `[{"label":"#0080ff","textEdit":{"range":`+mr+`,"text":"#0080ff"}}]`)
	pres := get(t, settle(t, mon, call(t, colors, "provideColorPresentations", model, info, none), "presentations"), "v")
	_, name, json = lastCall(t, answers)
	require.Equal(t, "colorPresentation", name)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","params":{"color":{"red":0,"green":0.5,"blue":1,"alpha":1},"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":8}}}}`, json, "LSP's params")
	require.Equal(t, "#0080ff", str(t, get(t, index(t, pres, 0), "label")))

	linked := kinds["registerLinkedEditingRangeProvider"]
	at := jsEval(t, `({ lineNumber: 2, column: 3 })`)
	answerWith(t, answers, "linkedEditingRange", `{"ranges":[`+mr+`],"wordPattern":"[a-z]+"}`)
	l := get(t, settle(t, mon, call(t, linked, "provideLinkedEditingRanges", model, at, none), "linked"), "v")
	_, _, json = lastCall(t, answers)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lineNumber":2,"column":3}`, json)
	isRe := jsEval(t, `(r) => r.wordPattern instanceof RegExp && r.wordPattern.source === '[a-z]+'`)
	ok, err := isRe.Invoke(l)
	require.NoError(t, err)
	require.True(t, truthy(ok))
	answerWith(t, answers, "linkedEditingRange", `{"ranges":[`+mr+`],"wordPattern":"[a-"}`)
	l = get(t, settle(t, mon, call(t, linked, "provideLinkedEditingRanges", model, at, none), "linked2"), "v")
	require.JSONEq(t, `{"ranges":[`+mr+`]}`, stringify(t, l), "a pattern that does not compile is dropped")

	sel := kinds["registerSelectionRangeProvider"]
	positions := jsEval(t, `[{ lineNumber: 2, column: 3, extra: 1 }, { lineNumber: 4, column: 1 }]`)
	answerWith(t, answers, "selectionRange", `[[{"range":`+mr+`}],[]]`)
	s := get(t, settle(t, mon, call(t, sel, "provideSelectionRanges", model, positions, none), "sel"), "v")
	_, _, json = lastCall(t, answers)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","params":{"positions":[{"line":1,"character":2},{"line":3,"character":0}]}}`, json, "LSP positions")
	require.JSONEq(t, `[[{"range":`+mr+`}],[]]`, stringify(t, s), "one list per position")
}

// Folding ranges come back with Monaco's kinds, and LSP 3.18's
// workspace/foldingRange/refresh fires the provider's onDidChange until
// the connection ends.
func TestShimFoldingRangeRefresh(t *testing.T) {
	b, mon, answers, kinds := protocolBridge(t, features.Providers{}, features.FoldingRange)
	provider := kinds["registerFoldingRangeProvider"]
	answerWith(t, answers, "foldingRange", `[{"start":1,"end":4,"kind":"imports"}]`)
	got := get(t, settle(t, mon, call(t, provider, "provideFoldingRanges", jsEval(t, protoModel), jsEval(t, `({})`), jsEval(t, `({})`)), "folds"), "v")
	require.Equal(t, "imports", str(t, get(t, index(t, got, 0), "kind", "value")))

	fired := jsEval(t, `(function (p) { const o = { n: 0 }; p.onDidChange(() => { o.n++; }); return o; })`)
	counter, err := fired.Invoke(provider)
	require.NoError(t, err)
	b.Refresh("c1", features.FoldingRange)
	require.Equal(t, 1, mustInt(t, get(t, counter, "n")))
	b.Refresh("c1", features.CodeLens) // another feature's refresh
	require.Equal(t, 1, mustInt(t, get(t, counter, "n")))
	b.Ended("c1")
	b.Refresh("c1", features.FoldingRange)
	require.Equal(t, 1, mustInt(t, get(t, counter, "n")))
}

// Range formatting gets Monaco's several-ranges entry point only from a
// server that formats several ranges at once (LSP 3.18 rangesSupport),
// and sends the selections in one call.
func TestShimRangesFormatting(t *testing.T) {
	_, _, _, kinds := protocolBridge(t, features.Providers{}, features.RangeFormatting)
	require.Equal(t, jsTypeUndefined, get(t, kinds["registerDocumentRangeFormattingEditProvider"], "provideDocumentRangesFormattingEdits").Type())

	_, mon, answers, kinds := protocolBridge(t, features.Providers{RangesFormatting: true}, features.RangeFormatting)
	provider := kinds["registerDocumentRangeFormattingEditProvider"]
	answerWith(t, answers, "rangesFormatting", `[{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":2},"text":"x"}]`)
	ranges := jsEval(t, `[{startLineNumber:1,startColumn:1,endLineNumber:1,endColumn:3},{startLineNumber:4,startColumn:2,endLineNumber:5,endColumn:1}]`)
	got := get(t, settle(t, mon, call(t, provider, "provideDocumentRangesFormattingEdits", jsEval(t, protoModel), ranges, jsEval(t, `({tabSize:2,insertSpaces:true})`), jsEval(t, `({})`)), "ranges"), "v")
	require.Equal(t, "x", str(t, get(t, index(t, got, 0), "text")))
	id, name, json := lastCall(t, answers)
	require.Equal(t, []string{"c1", "rangesFormatting"}, []string{id, name})
	require.JSONEq(t, `{"uri":"kandev://s/main.go","ranges":[{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":3},`+
		`{"startLineNumber":4,"startColumn":2,"endLineNumber":5,"endColumn":1}],"options":{"tabSize":2,"insertSpaces":true}}`, json)
}
