//go:build js && wasm

package jsbind

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// Code lenses: a server command runs through the one lens command (its
// LSP form back to Go's codeLensRun), VS Code's showReferences becomes
// Monaco's own with Uris, an unknown command is only shown and named once,
// a lens without a command is resolved, and the server's refresh fires
// onDidChange.
func TestShimCodeLenses(t *testing.T) {
	p := features.Providers{Set: features.Set(features.CodeLens), Resolves: features.Set(features.CodeLens)}
	b, mon, answers, kinds := protocolBridge(t, p, features.CodeLens)
	provider := kinds["registerCodeLensProvider"]
	require.Equal(t, jsTypeFunction, get(t, provider, "resolveCodeLens").Type())
	model := jsEval(t, protoModel)
	run := `{"title":"run go generate","command":"gopls.generate","arguments":[{"Dir":"file:///w"}]}`
	mr := `{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":5}`
	answerWith(t, answers, "codeLens", `{"lenses":[`+
		`{"range":`+mr+`,"command":{"id":"kandev.lsp.codeLens","title":"run go generate"},"run":`+strconv.Quote(run)+`},`+
		`{"range":`+mr+`,"command":{"id":"editor.action.showReferences","title":"2 references"},"refs":[{"uri":"kandev://s/b.go","range":`+mr+`}],`+
		`"args":["file:///w/main.go",{"line":2,"character":1},[],"peek"]},`+
		`{"range":`+mr+`,"command":{"id":"","title":"client only"},"unknown":"client.only"},`+
		`{"range":`+mr+`,"lsp":[4,0]}]}`)
	list := get(t, settle(t, mon, call(t, provider, "provideCodeLenses", model, jsEval(t, `({})`)), "lenses"), "v")
	id, name, json := lastCall(t, answers)
	require.Equal(t, []string{"c1", "codeLens"}, []string{id, name})
	require.JSONEq(t, `{"uri":"kandev://s/main.go"}`, json)
	require.True(t, isFunc(list, "dispose"))
	lenses := get(t, list, "lenses")
	require.JSONEq(t, `{"id":"kandev.lsp.codeLens","title":"run go generate","arguments":["c1","kandev://s/main.go",`+strconv.Quote(run)+`]}`,
		stringify(t, get(t, index(t, lenses, 0), "command")))
	require.Equal(t, "undefined", stringify(t, get(t, index(t, lenses, 0), "run")))
	refs := get(t, index(t, lenses, 1), "command", "arguments")
	require.True(t, get(t, index(t, refs, 0), "toString").Type() == jsTypeFunction && str(t, call(t, index(t, refs, 0), "toString")) == "kandev://s/main.go", "the lens's model's Uri")
	require.JSONEq(t, `{"lineNumber":3,"column":2}`, stringify(t, index(t, refs, 1)))
	require.Equal(t, "kandev://s/b.go", str(t, get(t, index(t, index(t, refs, 2), 0), "uri", "parsed")), "each location's too")
	require.Equal(t, 1, length(t, index(t, refs, 2)))
	require.Equal(t, "peek", str(t, index(t, refs, 3)), "the arguments after the locations follow")
	require.Equal(t, 4, length(t, refs))
	require.Equal(t, "undefined", stringify(t, get(t, index(t, lenses, 1), "refs")))
	require.JSONEq(t, `{"range":`+mr+`,"command":{"id":"","title":"client only"}}`, stringify(t, index(t, lenses, 2)))
	require.Equal(t, 1, length(t, get(t, mon, "warnings")))
	require.Contains(t, str(t, index(t, get(t, mon, "warnings"), 0)), "client.only")
	unresolved := index(t, lenses, 3)
	require.JSONEq(t, `{"range":`+mr+`}`, stringify(t, unresolved), "the kept key is not Monaco's")

	// Asked again: the unknown command is not named twice.
	settle(t, mon, call(t, provider, "provideCodeLenses", model, jsEval(t, `({})`)), "again")
	require.Equal(t, 1, length(t, get(t, mon, "warnings")))

	// Monaco runs the lens command with its accessor first.
	cmd := get(t, mon, "commands", "kandev.lsp.codeLens")
	args := get(t, index(t, lenses, 0), "command", "arguments")
	_, err := cmd.Invoke(jsUndefined(), index(t, args, 0), index(t, args, 1), index(t, args, 2))
	require.NoError(t, err)
	id, name, json = lastCall(t, answers)
	require.Equal(t, []string{"c1", "codeLensRun"}, []string{id, name})
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":`+strconv.Quote(run)+`}`, json)

	// Resolve: the kept key goes back to Go; the answer is readied too.
	answerWith(t, answers, "codeLensResolve", `{"range":`+mr+`,"command":{"id":"kandev.lsp.codeLens","title":"3 tests"},"run":"{}"}`)
	resolved := get(t, settle(t, mon, call(t, provider, "resolveCodeLens", model, unresolved, jsEval(t, `({})`)), "resolved"), "v")
	_, name, json = lastCall(t, answers)
	require.Equal(t, "codeLensResolve", name)
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":[4,0]}`, json)
	require.JSONEq(t, `{"id":"kandev.lsp.codeLens","title":"3 tests","arguments":["c1","kandev://s/main.go","{}"]}`, stringify(t, get(t, resolved, "command")))

	// workspace/codeLens/refresh fires onDidChange; the connection's end
	// disposes the provider, the configuration's the command.
	fired := jsEval(t, `(function (p) { const o = { n: 0 }; p.onDidChange(() => { o.n++; }); return o; })`)
	counter, err := fired.Invoke(provider)
	require.NoError(t, err)
	b.Refresh("c1", features.CodeLens)
	require.Equal(t, 1, mustInt(t, get(t, counter, "n")))
	b.Ended("c1")
	require.True(t, truthy(get(t, index(t, get(t, mon, "regs"), 0), "disposed")))
	b.Refresh("c1", features.CodeLens)
	require.Equal(t, 1, mustInt(t, get(t, counter, "n")))
	b.close()
	require.Equal(t, jsTypeUndefined, get(t, mon, "commands", "kandev.lsp.codeLens").Type())
}
