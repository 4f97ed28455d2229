package features

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Code lenses: a command the server lists runs on the server, VS Code's
// showReferences and goToLocations become Monaco's own, any other is
// shown only, and a lens without a command is kept for resolve.
func TestCodeLenses(t *testing.T) {
	servers := Providers{Commands: []string{"gopls.generate"}}
	runMappings(t, []mappingCase{
		{name: "codeLens", req: `{"uri":"kandev://s/a.go"}`, method: "textDocument/codeLens", params: docOnly, p: servers,
			answer: `[{"range":` + lspRng + `,"command":{"title":"run go generate","command":"gopls.generate","arguments":[{"Dir":"file:///w","Recursive":false}]}},` +
				`{"range":` + lspRng2 + `,"command":{"title":"do it","command":"client.only","arguments":[1]}},` +
				`{"range":` + lspRng2 + `,"command":{"title":"label only","command":""}},` +
				`{"range":` + lspRng2 + `,"data":{"unresolved":true}}]`,
			want: `{"lenses":[{"range":` + mRange + `,"command":{"id":"kandev.lsp.codeLens","title":"run go generate"},` +
				`"run":"{\"title\":\"run go generate\",\"command\":\"gopls.generate\",\"arguments\":[{\"Dir\":\"file:///w\",\"Recursive\":false}]}"},` +
				`{"range":` + mRange2 + `,"command":{"id":"","title":"do it"},"unknown":"client.only"},` +
				`{"range":` + mRange2 + `,"command":{"id":"","title":"label only"}},` +
				`{"range":` + mRange2 + `}]}`},
		{name: "codeLens", req: `{"uri":"kandev://s/a.ts"}`, method: "textDocument/codeLens", params: docOnly,
			answer: `[{"range":` + lspRng + `,"command":{"title":"2 references","command":"editor.action.showReferences","arguments":["file:///w/a.go",{"line":1,"character":2},` +
				`[{"uri":"file:///w/b.go","range":` + lspRng2 + `},{"uri":"file:///w/a.go","range":` + lspRng + `}]]}},` +
				`{"range":` + lspRng + `,"command":{"title":"1 implementation","command":"editor.action.goToLocations","arguments":["file:///w/a.go",{"line":1,"character":2},` +
				`[{"uri":"file:///w/b.go","range":` + lspRng2 + `}],"peek","No implementations"]}},` +
				`{"range":` + lspRng + `,"command":{"title":"none","command":"editor.action.showReferences","arguments":["file:///w/a.go",{"line":1,"character":2},[]]}},` +
				`{"range":` + lspRng + `,"command":{"title":"broken","command":"editor.action.showReferences","arguments":["file:///w/a.go"]}}]`,
			want: `{"lenses":[{"range":` + mRange + `,"refs":[{"uri":"kandev://s/b.go","range":` + mRange2 + `},{"uri":"kandev://s/a.go","range":` + mRange + `}],` +
				`"args":["file:///w/a.go",{"line":1,"character":2},[{"uri":"file:///w/b.go","range":` + lspRng2 + `},{"uri":"file:///w/a.go","range":` + lspRng + `}]],` +
				`"command":{"id":"editor.action.showReferences","title":"2 references"}},` +
				`{"range":` + mRange + `,"refs":[{"uri":"kandev://s/b.go","range":` + mRange2 + `}],"args":["file:///w/a.go",{"line":1,"character":2},[{"uri":"file:///w/b.go","range":` + lspRng2 + `}],"peek","No implementations"],` +
				`"command":{"id":"editor.action.goToLocations","title":"1 implementation"}},` +
				`{"range":` + mRange + `,"refs":[],"args":["file:///w/a.go",{"line":1,"character":2},[]],"command":{"id":"editor.action.showReferences","title":"none"}},` +
				`{"range":` + mRange + `,"command":{"id":"","title":"broken"},"unknown":"editor.action.showReferences"}]}`},
		{name: "codeLens", req: `{"uri":"kandev://s/a.go"}`, method: "textDocument/codeLens", params: docOnly, p: Providers{Resolves: Set(CodeLens)},
			answer: `[{"range":` + lspRng + `,"data":7},{"range":` + lspRng + `,"command":{"title":"t","command":"x"}}]`,
			want:   `{"lenses":[{"range":` + mRange + `,"lsp":[1,0]},{"range":` + mRange + `,"command":{"id":"","title":"t"},"unknown":"x"}]}`},
	})
}

// A lens runs on the server only with a command the server lists; resolve
// sends the kept lens and maps its command like any other.
func TestCodeLensRunAndResolve(t *testing.T) {
	p := Providers{Commands: []string{"gopls.generate"}, Resolves: Set(CodeLens)}
	cmd := `{"title":"run go generate","command":"gopls.generate","arguments":[{"Dir":"file:///w"}]}`
	f := &fakeEnv{answers: map[string]string{"workspace/executeCommand": `null`}}
	require.Equal(t, "true", runCall(t, "codeLensRun", `{"uri":"kandev://s/a.go","lsp":`+quote(cmd)+`}`, f, p))
	require.Equal(t, []string{`workspace/executeCommand {"command":"gopls.generate","arguments":[{"Dir":"file:///w"}]}`}, f.sent)

	call, _ := Lookup("codeLensRun")
	f.sent = nil
	for _, lsp := range []string{`{"title":"x","command":"rm.everything"}`, `{"title":"x"}`, `[]`, `nonsense`} {
		r, err := ParseRequest(`{"uri":"kandev://s/a.go","lsp":` + quote(lsp) + `}`)
		require.NoError(t, err)
		_, err = call.Run(&r, f.env(p))
		require.ErrorIs(t, err, errNotServerCommand, lsp)
	}
	require.Empty(t, f.sent, "an unlisted command never reaches the server")

	f = &fakeEnv{answers: map[string]string{
		"textDocument/codeLens": `[{"range":` + lspRng + `,"data":{"id":4}}]`,
		"codeLens/resolve":      `{"range":` + lspRng + `,"command":` + cmd + `}`,
	}}
	require.JSONEq(t, `{"lenses":[{"range":`+mRange+`,"lsp":[1,0]}]}`, runCall(t, "codeLens", `{"uri":"kandev://s/a.go"}`, f, p))
	res := runCall(t, "codeLensResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, p)
	require.JSONEq(t, `{"range":`+mRange+`,"command":{"id":"kandev.lsp.codeLens","title":"run go generate"},"run":`+quote(cmd)+`}`, res)
	require.Equal(t, `codeLens/resolve {"range":`+lspRng+`,"data":{"id":4}}`, f.sent[1])
	require.Equal(t, "null", runCall(t, "codeLensResolve", `{"uri":"kandev://s/a.go","lsp":[9,0]}`, f, p), "forgotten")
	require.Equal(t, "null", runCall(t, "codeLensResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, Providers{}), "the server does not resolve")
	require.Len(t, f.sent, 2)
}

// The commands a lens may run on the server: executeCommandProvider's,
// and those of workspace/executeCommand registrations while in force.
func TestCodeLensRegistrationAndCommands(t *testing.T) {
	r, err := NewRegistry(json.RawMessage(`{"executeCommandProvider":{"commands":["a"]}}`))
	require.NoError(t, err)
	require.Equal(t, []string{"a"}, r.For("go").Commands)
	registerLater(t, r, "textDocument/codeLens", `"resolveProvider":true`, `{"resolve":true}`, CodeLens)
	p := r.For("go")
	require.True(t, p.Resolves.Has(CodeLens))
	require.NoError(t, r.Register(json.RawMessage(`{"registrations":[{"id":"x","method":"workspace/executeCommand","registerOptions":{"commands":["b","a"]}}]}`)))
	require.Equal(t, []string{"a", "b"}, r.For("go").Commands)
	require.Empty(t, Changed(p, r.For("go")), "commands change no provider")
	require.NoError(t, r.Unregister(json.RawMessage(`{"unregisterations":[{"id":"textDocument/codeLens","method":"textDocument/codeLens"},{"id":"x","method":"workspace/executeCommand"}]}`)))
	gone := r.For("go")
	require.Equal(t, []Feature{CodeLens}, Changed(p, gone))
	require.False(t, gone.Resolves.Has(CodeLens))
	require.Equal(t, []string{"a"}, gone.Commands)

	s, err := ParseCapabilities(json.RawMessage(`{"codeLensProvider":{"resolveProvider":true},"executeCommandProvider":{"commands":["gopls.generate","gopls.tidy"]}}`))
	require.NoError(t, err)
	require.Equal(t, Providers{Set: Set(CodeLens), Resolves: Set(CodeLens), Commands: []string{"gopls.generate", "gopls.tidy"}}, s)
	require.Equal(t, `{"resolve":true}`, OptionsJSON(s, CodeLens))
	s, err = ParseCapabilities(json.RawMessage(`{"codeLensProvider":{}}`))
	require.NoError(t, err)
	require.Equal(t, `{"resolve":false}`, OptionsJSON(s, CodeLens))
}
