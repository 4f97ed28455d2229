//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// Semantic tokens: Monaco's lastResultId goes to Go, a delta's edits come
// sorted by start with Uint32Array data, the range provider sends its
// range, and one server refresh fires both providers.
func TestShimSemanticTokensDeltaAndRange(t *testing.T) {
	p := features.Providers{Legend: features.Legend{TokenTypes: []string{"type"}, TokenModifiers: []string{}}}
	b, mon, answers, kinds := protocolBridge(t, p, features.SemanticTokens, features.SemanticTokensRange)
	model := jsEval(t, protoModel)
	none := jsEval(t, `({})`)
	full := kinds["registerDocumentSemanticTokensProvider"]
	rng := kinds["registerDocumentRangeSemanticTokensProvider"]
	require.JSONEq(t, `{"tokenTypes":["type"],"tokenModifiers":[]}`, stringify(t, call(t, rng, "getLegend")))

	answerWith(t, answers, "semanticTokens", `{"edits":[{"start":10,"deleteCount":5},{"start":0,"deleteCount":5,"data":[1,2,3,4,0]}],"resultId":"2"}`)
	r := get(t, settle(t, mon, call(t, full, "provideDocumentSemanticTokens", model, "1", none), "delta"), "v")
	_, _, json := lastCall(t, answers)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lastResultId":"1"}`, json)
	shape := jsEval(t, `(r) => r.resultId === '2' && r.edits[0].data instanceof Uint32Array && r.edits[0].data.length === 5 && r.edits[1].data === undefined`)
	ok, err := shape.Invoke(r)
	require.NoError(t, err)
	require.True(t, truthy(ok), stringify(t, r))
	settle(t, mon, call(t, full, "provideDocumentSemanticTokens", model, jsNull(), none), "first")
	_, _, json = lastCall(t, answers)
	require.JSONEq(t, `{"uri":"kandev://s/main.go"}`, json, "no previous result: no lastResultId")

	answerWith(t, answers, "semanticTokensRange", `{"data":[0,1,2,0,0]}`)
	area := jsEval(t, `({ startLineNumber: 1, startColumn: 1, endLineNumber: 20, endColumn: 1 })`)
	r = get(t, settle(t, mon, call(t, rng, "provideDocumentRangeSemanticTokens", model, area, none), "range"), "v")
	_, name, json := lastCall(t, answers)
	require.Equal(t, "semanticTokensRange", name)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","range":{"startLineNumber":1,"startColumn":1,"endLineNumber":20,"endColumn":1}}`, json)
	isU32 := jsEval(t, `(r) => r.data instanceof Uint32Array && r.data.length === 5`)
	ok, err = isU32.Invoke(r)
	require.NoError(t, err)
	require.True(t, truthy(ok))

	count := jsEval(t, `(function (a, b) { const o = { n: 0 }; a.onDidChange(() => { o.n++; }); b.onDidChange(() => { o.n++; }); return o; })`)
	counter, err := count.Invoke(full, rng)
	require.NoError(t, err)
	b.Refresh("c1", features.SemanticTokens)
	require.Equal(t, 2, mustInt(t, get(t, counter, "n")))
	b.Ended("c1")
}
