package features

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// mappingCase is one call of a feature: the shim's request, the one
// server request it must send, the server's answer and Monaco's.
type mappingCase struct {
	name, req, method, params, answer, want string
	p                                       Providers
}

// The second range of the mapping cases, LSP's and Monaco's, and the
// params of a request about the whole document.
const (
	lspRng2 = `{"start":{"line":3,"character":0},"end":{"line":3,"character":4}}`
	mRange2 = `{"startLineNumber":4,"startColumn":1,"endLineNumber":4,"endColumn":5}`
	docOnly = `{"textDocument":{"uri":"file:///w/a.go"}}`
)

func runMappings(t *testing.T, cases []mappingCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeEnv{answers: map[string]string{c.method: c.answer}}
			require.JSONEq(t, c.want, runCall(t, c.name, c.req, f, c.p))
			require.Equal(t, []string{c.method + " " + c.params}, f.sent)
		})
	}
}

// runMalformed runs calls whose request from the shim has the wrong shape:
// each fails with errRequest and sends nothing.
func runMalformed(t *testing.T, cases [][2]string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c[0], func(t *testing.T) {
			call, _ := Lookup(c[0])
			r, err := ParseRequest(c[1])
			require.NoError(t, err)
			f := &fakeEnv{}
			_, err = call.Run(&r, f.env(Providers{}))
			require.ErrorIs(t, err, errRequest)
			require.Empty(t, f.sent)
		})
	}
}

// registerLater registers method on r for Go documents with options
// (registerOptions members) and checks that exactly the features fs
// changed, with the options JSON want, and only for Go.
func registerLater(t *testing.T, r *Registry, method, options string, want string, fs ...Feature) {
	t.Helper()
	prev := r.For("go")
	reg := `{"registrations":[{"id":"` + method + `","method":"` + method + `","registerOptions":{"documentSelector":[{"language":"go"}]`
	if options != "" {
		reg += "," + options
	}
	require.NoError(t, r.Register(json.RawMessage(reg+`}}]}`)))
	next := r.For("go")
	require.Equal(t, fs, Changed(prev, next), method)
	for _, f := range fs {
		require.True(t, next.Allows(f), f.String())
		require.Equal(t, want, OptionsJSON(next, f))
		require.False(t, r.For("python").Allows(f))
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Document colors and their presentations, linked editing ranges,
// selection ranges and document links: each answer becomes Monaco's
// shape, and each call sends exactly its params.
func TestColorsLinkedSelectionLinks(t *testing.T) {
	runMappings(t, []mappingCase{
		{name: "documentColor", req: `{"uri":"kandev://s/a.css"}`, method: "textDocument/documentColor", params: docOnly,
			answer: `[{"range":` + lspRng + `,"color":{"red":1,"green":0.5,"blue":0,"alpha":1}},{"range":` + lspRng + `},{"color":{"red":0,"green":0,"blue":0,"alpha":1}}]`,
			want:   `[{"range":` + mRange + `,"color":{"red":1,"green":0.5,"blue":0,"alpha":1}}]`},
		{name: "documentColor", req: `{"uri":"kandev://s/a.css"}`, method: "textDocument/documentColor", params: docOnly, answer: `null`, want: `[]`},
		{name: "colorPresentation", req: `{"uri":"kandev://s/a.css","params":{"color":{"red":1,"green":0,"blue":0,"alpha":1},"range":` + lspRng + `}}`,
			method: "textDocument/colorPresentation", params: `{"textDocument":{"uri":"file:///w/a.go"},"color":{"red":1,"green":0,"blue":0,"alpha":1},"range":` + lspRng + `}`,
			answer: `[{"label":"#ff0000","textEdit":{"range":` + lspRng + `,"newText":"#ff0000"},"additionalTextEdits":[{"range":` + lspRng2 + `,"newText":"x"}]},{"label":"red"},{"nolabel":1}]`,
			want:   `[{"label":"#ff0000","textEdit":{"range":` + mRange + `,"text":"#ff0000"},"additionalTextEdits":[{"range":` + mRange2 + `,"text":"x"}]},{"label":"red"}]`},
		{name: "linkedEditingRange", req: `{"uri":"kandev://s/a.html","lineNumber":2,"column":3}`, method: "textDocument/linkedEditingRange",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":1,"character":2}}`,
			answer: `{"ranges":[` + lspRng + `,` + lspRng2 + `],"wordPattern":"[a-z]+"}`,
			want:   `{"ranges":[` + mRange + `,` + mRange2 + `],"wordPattern":"[a-z]+"}`},
		{name: "linkedEditingRange", req: `{"uri":"kandev://s/a.html","lineNumber":2,"column":3}`, method: "textDocument/linkedEditingRange",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":1,"character":2}}`, answer: `null`, want: `null`},
		{name: "selectionRange", req: `{"uri":"kandev://s/a.go","params":{"positions":[{"line":1,"character":2},{"line":3,"character":0}]}}`, method: "textDocument/selectionRange",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"positions":[{"line":1,"character":2},{"line":3,"character":0}]}`,
			answer: `[{"range":` + lspRng + `,"parent":{"range":` + lspRng2 + `,"parent":{"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}}}},{"norange":true}]`,
			want:   `[[{"range":` + mRange + `},{"range":` + mRange2 + `},{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":10,"endColumn":1}}],[]]`},
		{name: "selectionRange", req: `{"uri":"kandev://s/a.go","params":{"positions":[]}}`, method: "textDocument/selectionRange",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"positions":[]}`, answer: `null`, want: `[]`},
		{name: "documentLink", req: `{"uri":"kandev://s/a.go"}`, method: "textDocument/documentLink", params: docOnly,
			answer: `[{"range":` + lspRng + `,"target":"https://pkg.go.dev/strings","tooltip":"docs"},{"range":` + lspRng2 + `,"target":"file:///w/b.go#L3,2"},` +
				`{"range":` + lspRng + `,"target":"file:///elsewhere/c.go"},{"range":` + lspRng + `},{"target":"https://no.range"}]`,
			want: `{"links":[{"range":` + mRange + `,"url":"https://pkg.go.dev/strings","tooltip":"docs"},{"range":` + mRange2 + `,"url":"kandev://s/b.go#L3,2"},` +
				`{"range":` + mRange + `,"url":"file:///elsewhere/c.go"},{"range":` + mRange + `}]}`},
		{name: "documentLink", req: `{"uri":"kandev://s/a.go"}`, method: "textDocument/documentLink", params: docOnly,
			answer: `[{"range":` + lspRng + `,"data":1}]`, want: `{"links":[{"range":` + mRange + `,"lsp":[1,0]}]}`, p: Providers{Resolves: Set(DocumentLink)}},
	})
	runMalformed(t, [][2]string{
		{"selectionRange", `{"uri":"kandev://s/a.go"}`},
		{"colorPresentation", `{"uri":"kandev://s/a.css","params":{}}`},
		{"colorPresentation", `{"uri":"kandev://s/a.css","params":[1]}`},
	})
}

// A link without a target is resolved when the server resolves links.
func TestDocumentLinkResolve(t *testing.T) {
	p := Providers{Resolves: Set(DocumentLink)}
	f := &fakeEnv{answers: map[string]string{
		"textDocument/documentLink": `[{"range":` + lspRng + `,"data":1}]`,
		"documentLink/resolve":      `{"range":` + lspRng + `,"target":"file:///w/b.go","data":1}`,
	}}
	runCall(t, "documentLink", `{"uri":"kandev://s/a.go"}`, f, p)
	require.JSONEq(t, `{"range":`+mRange+`,"url":"kandev://s/b.go"}`, runCall(t, "documentLinkResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, p))
	require.Equal(t, `documentLink/resolve {"range":`+lspRng+`,"data":1}`, f.sent[1])
	require.Equal(t, "null", runCall(t, "documentLinkResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, Providers{}))
}

// Registered late, each comes with its options and goes again; static
// capabilities enable them as well.
func TestColorsLinkedSelectionLinksRegistration(t *testing.T) {
	r, err := NewRegistry(json.RawMessage(`{}`))
	require.NoError(t, err)
	registerLater(t, r, "textDocument/documentLink", `"resolveProvider":true`, `{"resolve":true}`, DocumentLink)
	registerLater(t, r, "textDocument/documentColor", ``, `{}`, DocumentColor)
	registerLater(t, r, "textDocument/linkedEditingRange", ``, `{}`, LinkedEditingRange)
	registerLater(t, r, "textDocument/selectionRange", ``, `{}`, SelectionRange)
	all := r.For("go")
	require.True(t, all.Resolves.Has(DocumentLink))
	require.NoError(t, r.Unregister(json.RawMessage(`{"unregisterations":[{"id":"textDocument/documentLink","method":"textDocument/documentLink"},`+
		`{"id":"textDocument/selectionRange","method":"textDocument/selectionRange"}]}`)))
	gone := r.For("go")
	require.Equal(t, []Feature{DocumentLink, SelectionRange}, Changed(all, gone))
	require.False(t, gone.Resolves.Has(DocumentLink))
	require.True(t, gone.Allows(DocumentColor) && gone.Allows(LinkedEditingRange))

	for caps, want := range map[string]Set{
		`{"documentLinkProvider":{"resolveProvider":false},"colorProvider":true,"linkedEditingRangeProvider":{"documentSelector":null},"selectionRangeProvider":true}`: Set(DocumentLink | DocumentColor | LinkedEditingRange | SelectionRange),
		`{"documentLinkProvider":false,"colorProvider":null,"selectionRangeProvider":false}`:                                                                           0,
	} {
		p, err := ParseCapabilities(json.RawMessage(caps))
		require.NoError(t, err)
		require.Equal(t, want, p.Set, caps)
		require.Equal(t, Set(0), p.Resolves)
	}
	p, err := ParseCapabilities(json.RawMessage(`{"documentLinkProvider":{"resolveProvider":true}}`))
	require.NoError(t, err)
	require.Equal(t, `{"resolve":true}`, OptionsJSON(p, DocumentLink))
}
