package features

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// fakeEnv answers every request with answers[method] and records what was
// sent and applied.
type fakeEnv struct {
	answers map[string]string
	sent    []string
	applied []string
	kept    [][]byte
}

func (f *fakeEnv) env(p Providers) *Env {
	return &Env{
		DocURI: "file:///w/a.go", Version: 3, Providers: p,
		MapURI: func(u string) string { return strings.Replace(u, "file:///w/", "kandev://s/", 1) },
		Call: func(method string, params j.Appender) (j.Raw, error) {
			f.sent = append(f.sent, method+" "+string(j.Marshal(params)))
			return j.Raw(f.answers[method]), nil
		},
		Apply: func(edit j.Raw) (bool, string) { f.applied = append(f.applied, string(edit)); return true, "" },
		Keep:  func(raw []byte) int { f.kept = append(f.kept, raw); return len(f.kept) },
		Kept: func(k int) []byte {
			if k < 1 || k > len(f.kept) {
				return nil
			}
			return f.kept[k-1]
		},
	}
}

func runCall(t *testing.T, name, req string, f *fakeEnv, p Providers) string {
	t.Helper()
	c, ok := Lookup(name)
	require.True(t, ok, name)
	r, err := ParseRequest(req)
	require.NoError(t, err)
	out, err := c.Run(&r, f.env(p))
	require.NoError(t, err)
	return out
}

const lspRng = `{"start":{"line":1,"character":2},"end":{"line":1,"character":5}}`
const mRange = `{"startLineNumber":2,"startColumn":3,"endLineNumber":2,"endColumn":6}`

// Each feature's answer becomes Monaco's shape (JSON in, Monaco out).
func TestEditingMappings(t *testing.T) {
	for _, c := range []struct{ name, method, req, answer, want string }{
		{"documentSymbol", "textDocument/documentSymbol", `{"uri":"kandev://s/a.go"}`,
			`[{"name":"main","kind":12,"range":` + lspRng + `,"selectionRange":` + lspRng + `,"children":[{"name":"x","kind":13,"detail":"int","range":` + lspRng + `,"selectionRange":` + lspRng + `}]}]`,
			`[{"name":"main","detail":"","kind":11,"tags":[],"range":` + mRange + `,"selectionRange":` + mRange + `,"children":[{"name":"x","detail":"int","kind":12,"tags":[],"range":` + mRange + `,"selectionRange":` + mRange + `}]}]`},
		{"documentSymbol", "textDocument/documentSymbol", `{"uri":"kandev://s/a.go"}`,
			`[{"name":"F","kind":12,"containerName":"p","location":{"uri":"file:///w/a.go","range":` + lspRng + `}},{"name":"G","kind":12,"location":{"uri":"file:///w/b.go","range":` + lspRng + `}}]`,
			`[{"name":"F","detail":"","kind":11,"tags":[],"containerName":"p","range":` + mRange + `,"selectionRange":` + mRange + `}]`},
		{"foldingRange", "textDocument/foldingRange", `{"uri":"kandev://s/a.go"}`,
			`[{"startLine":2,"endLine":4,"kind":"imports"},{"startLine":5,"endLine":3}]`, `[{"start":3,"end":5,"kind":"imports"}]`},
		{"documentHighlight", "textDocument/documentHighlight", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3}`,
			`[{"range":` + lspRng + `,"kind":3},{"range":` + lspRng + `}]`, `[{"range":` + mRange + `,"kind":2},{"range":` + mRange + `,"kind":0}]`},
		{"formatting", "textDocument/formatting", `{"uri":"kandev://s/a.go","options":{"tabSize":2,"insertSpaces":false}}`,
			`[{"range":` + lspRng + `,"newText":"\t"}]`, `[{"range":` + mRange + `,"text":"\t"}]`},
		{"inlayHints", "textDocument/inlayHint", `{"uri":"kandev://s/a.go","range":` + mRange + `}`,
			`[{"position":{"line":1,"character":4},"label":"name:","kind":2,"paddingRight":true},{"position":{"line":0,"character":0},"label":[{"value":"T","tooltip":"a type","location":{"uri":"file:///w/b.go","range":` + lspRng + `}}]}]`,
			`{"hints":[{"label":"name:","position":{"lineNumber":2,"column":5},"kind":2,"paddingRight":true},{"label":[{"label":"T","tooltip":"a type","location":{"uri":"kandev://s/b.go","range":` + mRange + `}}],"position":{"lineNumber":1,"column":1}}]}`},
		{"typeDefinition", "textDocument/typeDefinition", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3}`,
			`{"uri":"file:///w/b.go","range":` + lspRng + `}`, `[{"uri":"kandev://s/b.go","range":` + mRange + `}]`},
	} {
		f := &fakeEnv{answers: map[string]string{c.method: c.answer}}
		require.JSONEq(t, c.want, runCall(t, c.name, c.req, f, Providers{}), c.name)
		require.Len(t, f.sent, 1)
		require.True(t, strings.HasPrefix(f.sent[0], c.method+" "), f.sent[0])
	}
}

// Code actions: the context carries the server's own overlapping
// diagnostics, data kept; each action keeps its LSP form for the apply
// step, which resolves, applies the edit, then runs the command.
func TestCodeActions(t *testing.T) {
	diag := `{"range":` + lspRng + `,"message":"unused","data":{"k":1}}`
	far := `{"range":{"start":{"line":9,"character":0},"end":{"line":9,"character":1}},"message":"far"}`
	p, err := lsptypes.ParsePublishDiagnosticsParams([]byte(`{"uri":"file:///w/a.go","diagnostics":[` + diag + `,` + far + `]}`))
	require.NoError(t, err)
	action := `{"title":"Delete import","kind":"quickfix","isPreferred":true,"diagnostics":[` + diag + `],"data":{"d":2}}`
	f := &fakeEnv{answers: map[string]string{
		"textDocument/codeAction":  `[` + action + `,{"title":"Run","command":"go.run","arguments":[1]},{"title":"Off","disabled":{"reason":"not here"}}]`,
		"codeAction/resolve":       `{"title":"Delete import","edit":{"changes":{}},"command":{"title":"t","command":"go.after","arguments":["x"]}}`,
		"workspace/executeCommand": `null`,
	}}
	c, _ := Lookup("codeAction")
	r, err := ParseRequest(`{"uri":"kandev://s/a.go","range":{"startLineNumber":2,"startColumn":4,"endLineNumber":2,"endColumn":4},"only":"quickfix","trigger":1}`)
	require.NoError(t, err)
	e := f.env(Providers{CodeActionResolve: true})
	e.Diagnostics = p.Diagnostics
	out, err := c.Run(&r, e)
	require.NoError(t, err)
	require.Equal(t, `textDocument/codeAction {"textDocument":{"uri":"file:///w/a.go"},"range":`+`{"start":{"line":1,"character":3},"end":{"line":1,"character":3}}`+
		`,"context":{"diagnostics":[`+diag+`],"only":["quickfix"],"triggerKind":1}}`, f.sent[0])
	v, err := j.Parse([]byte(out))
	require.NoError(t, err)
	acts := v.Get("actions")
	require.Equal(t, 3, acts.Len())
	require.Equal(t, "quickfix", acts.Index(0).Get("kind").String())
	require.Equal(t, "not here", acts.Index(2).Get("disabled").String())
	require.Equal(t, "unused", acts.Index(0).Get("diagnostics").Index(0).Get("message").String())
	lsp := acts.Index(0).Get("lsp").String()
	require.JSONEq(t, action, lsp)

	// Applying: no edit, so resolve; then the edit, then the command.
	f.sent = nil
	out = runCall(t, "codeActionApply", `{"uri":"kandev://s/a.go","lsp":`+string(j.AppendString(nil, lsp))+`}`, f, Providers{CodeActionResolve: true})
	require.Equal(t, "true", out)
	require.Equal(t, []string{"codeAction/resolve " + action, `workspace/executeCommand {"command":"go.after","arguments":["x"]}`}, f.sent)
	require.Equal(t, []string{`{"changes":{}}`}, f.applied)
}

// LSP 3.18 code-action tags and kind documentation: an LLMGenerated action
// is Monaco's isAI (the sparkle), other tags are not; a server's
// documentation entries become the provider's "docs" option, merged by
// kind over registrations, and one runs on the server like a bare command.
func TestCodeActionTagsAndDocumentation(t *testing.T) {
	f := &fakeEnv{answers: map[string]string{
		"textDocument/codeAction":  `[{"title":"Ask","kind":"quickfix","tags":[1]},{"title":"Plain","kind":"quickfix","tags":[7]}]`,
		"workspace/executeCommand": `null`,
	}}
	out := runCall(t, "codeAction", `{"uri":"kandev://s/a.go","range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1}}`, f, Providers{})
	v, err := j.Parse([]byte(out))
	require.NoError(t, err)
	ai, _ := v.Get("actions").Index(0).Get("isAI").Bool()
	require.True(t, ai)
	require.False(t, v.Get("actions").Index(1).Get("isAI").Exists(), "an unknown tag marks nothing")

	doc := `{"title":"About refactorings","command":"fake.learn","arguments":["refactor"]}`
	p, err := ParseCapabilities([]byte(`{"codeActionProvider":{"codeActionKinds":["refactor"],"documentation":[` +
		`{"kind":"refactor","command":` + doc + `},{"kind":"","command":` + doc + `},{"kind":"source","command":{"title":"no name"}}]}}`))
	require.NoError(t, err)
	require.JSONEq(t, `{"kinds":["refactor"],"docs":[{"kind":"refactor","title":"About refactorings","lsp":`+string(j.AppendString(nil, doc))+`}]}`,
		OptionsJSON(p, CodeAction), "entries without a kind or a command are left out")

	r, err := NewRegistry([]byte(`{"codeActionProvider":{"codeActionKinds":["refactor"],"documentation":[{"kind":"refactor","command":` + doc + `}]}}`))
	require.NoError(t, err)
	require.NoError(t, r.Register([]byte(`{"registrations":[{"id":"a","method":"textDocument/codeAction","registerOptions":{"documentSelector":[{"language":"go"}],`+
		`"documentation":[{"kind":"refactor","command":{"title":"Other","command":"x"}},{"kind":"source","command":{"title":"About source","command":"fake.source"}}]}}]}`)))
	got := r.For("go")
	require.Equal(t, []string{"refactor", "source"}, []string{got.CodeActionDocs[0].Kind, got.CodeActionDocs[1].Kind})
	require.Equal(t, "About refactorings", got.CodeActionDocs[0].Title, "the first entry of a kind stays")
	require.NotEqual(t, OptionsJSON(p, CodeAction), OptionsJSON(got, CodeAction))
	require.Contains(t, Changed(p, got), CodeAction, "new documentation registers the provider again")

	f.sent = nil
	require.Equal(t, "true", runCall(t, "codeActionApply", `{"uri":"kandev://s/a.go","lsp":`+string(j.AppendString(nil, doc))+`}`, f, Providers{}))
	require.Equal(t, []string{`workspace/executeCommand {"command":"fake.learn","arguments":["refactor"]}`}, f.sent)
}

// Rename: prepareRename's forms and error, and rename applying the
// server's edit itself.
func TestRename(t *testing.T) {
	pos := `{"uri":"kandev://s/a.go","lineNumber":2,"column":3}`
	f := &fakeEnv{answers: map[string]string{"textDocument/prepareRename": `{"range":` + lspRng + `,"placeholder":"Hello"}`}}
	require.JSONEq(t, `{"range":`+mRange+`,"text":"Hello"}`, runCall(t, "prepareRename", pos, f, Providers{RenamePrepare: true}))
	f.answers["textDocument/prepareRename"] = lspRng
	require.JSONEq(t, `{"range":`+mRange+`,"text":null}`, runCall(t, "prepareRename", pos, f, Providers{RenamePrepare: true}))
	require.Equal(t, "null", runCall(t, "prepareRename", pos, f, Providers{}), "no prepare support: Monaco's word")

	f.answers["textDocument/rename"] = `{"changes":{"file:///w/b.go":[]}}`
	out := runCall(t, "rename", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"newName":"Greet"}`, f, Providers{})
	require.Equal(t, `{"edits":[]}`, out)
	require.Equal(t, []string{`{"changes":{"file:///w/b.go":[]}}`}, f.applied)
	require.Contains(t, f.sent[len(f.sent)-1], `"newName":"Greet"`)
}

// Completion resolve sends the kept item (with the list's default data)
// and answers the members Monaco merges.
func TestCompletionResolve(t *testing.T) {
	f := &fakeEnv{answers: map[string]string{
		"textDocument/completion": `{"isIncomplete":false,"itemDefaults":{"data":{"f":1}},"items":[{"label":"Greeter"}]}`,
		"completionItem/resolve":  `{"label":"Greeter","detail":"class","documentation":{"kind":"markdown","value":"**G**"},"additionalTextEdits":[{"range":` + lspRng + `,"newText":"import x\n"}]}`,
	}}
	out := runCall(t, "completion", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"wordStart":1,"wordEnd":3,"triggerKind":0,"triggerCharacter":""}`, f, Providers{CompletionResolve: true})
	require.Contains(t, out, `"lsp":[1,0]`)
	res := runCall(t, "completionResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, Providers{CompletionResolve: true})
	require.JSONEq(t, `{"detail":"class","documentation":{"value":"**G**"},"additionalTextEdits":[{"range":`+mRange+`,"text":"import x\n"}]}`, res)
	require.Equal(t, `completionItem/resolve {"data":{"f":1},"label":"Greeter"}`, f.sent[1])
	require.Equal(t, "null", runCall(t, "completionResolve", `{"uri":"kandev://s/a.go","lsp":[9,0]}`, f, Providers{CompletionResolve: true}), "forgotten")

	// LSP 3.18 applyKind: Merge lays the item's data members over the
	// defaults' (shallow); Replace sends the item's own.
	for _, c := range []struct{ kind, want string }{
		{"2", `{"data":{"f":1,"g":{"x":1},"h":3},"label":"A"}`},
		{"1", `{"data":{"g":{"x":1},"h":3},"label":"A"}`},
	} {
		f.answers["textDocument/completion"] = `{"applyKind":{"data":` + c.kind + `},"itemDefaults":{"data":{"f":1,"g":{"y":2}}},"items":[{"label":"A","data":{"g":{"x":1},"h":3}}]}`
		out := runCall(t, "completion", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"wordStart":1,"wordEnd":3,"triggerKind":0,"triggerCharacter":""}`, f, Providers{CompletionResolve: true})
		key := out[strings.Index(out, `"lsp":[`)+7 : strings.Index(out, `"lsp":[`)+8]
		runCall(t, "completionResolve", `{"uri":"kandev://s/a.go","lsp":[`+key+`,0]}`, f, Providers{CompletionResolve: true})
		require.JSONEq(t, c.want, strings.TrimPrefix(f.sent[len(f.sent)-1], "completionItem/resolve "), "applyKind %s", c.kind)
	}
}

// Workspace edits: multi-file plans (one step per file: one undo stop),
// versions checked only for open documents, refusals whole.
func TestPlanWorkspaceEdit(t *testing.T) {
	open := map[string]int32{"file:///w/a.go": 4}
	resolve := func(uri string) (EditFile, bool) {
		rel, ok := strings.CutPrefix(uri, "file:///w/")
		if !ok {
			return EditFile{}, false
		}
		f := EditFile{Session: "s", Path: rel, Model: "kandev://s/" + rel}
		if v, ok := open[uri]; ok {
			f.Open, f.Current = true, func(n int32) bool { return n == v }
		}
		return f, true
	}
	edit := `[{"range":` + lspRng + `,"newText":"X"}]`
	plan, err := PlanWorkspaceEdit([]byte(`{"documentChanges":[`+
		`{"textDocument":{"uri":"file:///w/a.go","version":4},"edits":`+edit+`},`+
		`{"textDocument":{"uri":"file:///w/b.go","version":0},"edits":`+edit+`}]}`), resolve, 0)
	require.NoError(t, err, "b.go is not open: its version is not checked")
	require.JSONEq(t, `[{"op":"edit","sessionId":"s","path":"a.go","model":"kandev://s/a.go","edits":[{"range":`+mRange+`,"text":"X"}]},`+
		`{"op":"edit","sessionId":"s","path":"b.go","model":"kandev://s/b.go","edits":[{"range":`+mRange+`,"text":"X"}]}]`, plan)

	_, err = PlanWorkspaceEdit([]byte(`{"documentChanges":[{"textDocument":{"uri":"file:///w/b.go","version":null},"edits":`+edit+`},`+
		`{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":`+edit+`}]}`), resolve, 0)
	require.ErrorIs(t, err, errStale, "a stale version refuses the whole edit")
	_, err = PlanWorkspaceEdit([]byte(`{"changes":{"file:///elsewhere/x.go":`+edit+`}}`), resolve, 0)
	require.ErrorIs(t, err, errOutside)
	_, err = PlanWorkspaceEdit([]byte(`{"documentChanges":[{"kind":"create","uri":"file:///w/n.go"}]}`), resolve, 0)
	require.ErrorIs(t, err, errFileOp, "no createFile callback")
	plan, err = PlanWorkspaceEdit([]byte(`{"documentChanges":[{"kind":"rename","oldUri":"file:///w/a.go","newUri":"file:///w/c.go","options":{"overwrite":true}}]}`), resolve, OpRename)
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"rename","sessionId":"s","path":"a.go","model":"kandev://s/a.go","newPath":"c.go","newModel":"kandev://s/c.go","options":{"overwrite":true}}]`, plan)
	require.Equal(t, []string{"create", "delete"}, (OpCreate | OpDelete).ResourceOperations())
}

// LSP 3.18 rangesFormatting: several Monaco selections in one request,
// only to a server that says rangesSupport; the edits come back in
// Monaco's shape.
func TestRangesFormatting(t *testing.T) {
	f := &fakeEnv{answers: map[string]string{
		"textDocument/rangesFormatting": `[{"range":` + lspRng + `,"newText":"x"}]`,
	}}
	req := `{"uri":"kandev://s/a.go","ranges":[{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":3},{"startLineNumber":4,"startColumn":2,"endLineNumber":5,"endColumn":1}],"options":{"tabSize":2,"insertSpaces":true}}`
	require.Equal(t, "null", runCall(t, "rangesFormatting", req, f, Providers{}), "a server without rangesSupport gets nothing")
	require.Empty(t, f.sent)
	out := runCall(t, "rangesFormatting", req, f, Providers{RangesFormatting: true})
	require.JSONEq(t, `[{"range":`+mRange+`,"text":"x"}]`, out)
	require.Equal(t, `textDocument/rangesFormatting {"textDocument":{"uri":"file:///w/a.go"},"ranges":[`+
		`{"start":{"line":0,"character":0},"end":{"line":0,"character":2}},{"start":{"line":3,"character":1},"end":{"line":4,"character":0}}],`+
		`"options":{"tabSize":2,"insertSpaces":true}}`, f.sent[0])
	c, _ := Lookup("rangesFormatting")
	r, err := ParseRequest(`{"uri":"kandev://s/a.go","ranges":[],"options":{}}`)
	require.NoError(t, err)
	_, err = c.Run(&r, f.env(Providers{RangesFormatting: true}))
	require.Error(t, err, "no range")
}
