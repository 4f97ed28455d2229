package features

import (
	"testing"

	"github.com/stretchr/testify/require"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Range and on-type formatting send Monaco's range, position, character
// and indentation as LSP's; missing options are LSP's usual four spaces.
func TestFormattingRequests(t *testing.T) {
	edits := `[{"range":` + lspRng + `,"newText":"  "}]`
	for _, c := range []struct{ name, req, sent string }{
		{"rangeFormatting", `{"uri":"kandev://s/a.go","range":` + mRange + `,"options":{"tabSize":2,"insertSpaces":true}}`,
			`textDocument/rangeFormatting {"textDocument":{"uri":"file:///w/a.go"},"range":` + lspRng + `,"options":{"tabSize":2,"insertSpaces":true}}`},
		{"onTypeFormatting", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"ch":"}","options":{"tabSize":8,"insertSpaces":false}}`,
			`textDocument/onTypeFormatting {"textDocument":{"uri":"file:///w/a.go"},"position":{"line":1,"character":2},"ch":"}","options":{"tabSize":8,"insertSpaces":false}}`},
		{"formatting", `{"uri":"kandev://s/a.go"}`,
			`textDocument/formatting {"textDocument":{"uri":"file:///w/a.go"},"options":{"tabSize":4,"insertSpaces":true}}`},
	} {
		f := &fakeEnv{answers: map[string]string{"textDocument/" + c.name: edits}}
		require.JSONEq(t, `[{"range":`+mRange+`,"text":"  "}]`, runCall(t, c.name, c.req, f, Providers{}), c.name)
		require.Equal(t, []string{c.sent}, f.sent, c.name)
	}
}

// Format on save applies the server's edits as a workspace edit at the
// version the server formatted, so a model that moved on is left alone.
func TestFormatOnSave(t *testing.T) {
	req := `{"uri":"kandev://s/a.go","options":{"tabSize":4,"insertSpaces":false}}`
	edits := `[{"range":` + lspRng + `,"newText":"\t"}]`
	f := &fakeEnv{answers: map[string]string{"textDocument/formatting": edits}}
	require.Equal(t, `{"formatted":true}`, runCall(t, "formatOnSave", req, f, Providers{}))
	require.Equal(t, []string{`textDocument/formatting {"textDocument":{"uri":"file:///w/a.go"},"options":{"tabSize":4,"insertSpaces":false}}`}, f.sent)
	require.Len(t, f.applied, 1)
	require.JSONEq(t, `{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":`+edits+`}]}`, f.applied[0])

	// Already formatted: nothing to apply.
	for _, answer := range []string{`[]`, `null`} {
		f = &fakeEnv{answers: map[string]string{"textDocument/formatting": answer}}
		require.Equal(t, `{"formatted":false}`, runCall(t, "formatOnSave", req, f, Providers{}))
		require.Empty(t, f.applied)
	}

	// The edit refused (the model changed since): the save goes on unformatted.
	f = &fakeEnv{answers: map[string]string{"textDocument/formatting": edits}}
	c, _ := Lookup("formatOnSave")
	r, err := ParseRequest(req)
	require.NoError(t, err)
	env := f.env(Providers{})
	env.Apply = func(j.Raw) (bool, string) { return false, "a file changed since the server computed the edit" }
	out, err := c.Run(&r, env)
	require.NoError(t, err)
	require.Equal(t, `{"formatted":false}`, out)
}

// Inlay hints keep their LSP form for inlayHint/resolve when the server
// resolves them; the resolved hint comes back in Monaco's shape.
func TestInlayHintResolve(t *testing.T) {
	hints := `[{"position":{"line":1,"character":4},"label":"name:","kind":2,"data":{"id":7}}]`
	f := &fakeEnv{answers: map[string]string{
		"textDocument/inlayHint": hints,
		"inlayHint/resolve":      `{"position":{"line":1,"character":4},"label":"name:","kind":2,"tooltip":"the name","data":{"id":7}}`,
	}}
	p := Providers{Resolves: Set(InlayHints)}
	out := runCall(t, "inlayHints", `{"uri":"kandev://s/a.go","range":`+mRange+`}`, f, p)
	require.JSONEq(t, `{"hints":[{"label":"name:","position":{"lineNumber":2,"column":5},"kind":2,"lsp":[1,0]}]}`, out)

	res := runCall(t, "inlayHintResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, p)
	require.JSONEq(t, `{"label":"name:","position":{"lineNumber":2,"column":5},"kind":2,"tooltip":"the name"}`, res)
	require.Equal(t, `inlayHint/resolve {"position":{"line":1,"character":4},"label":"name:","kind":2,"data":{"id":7}}`, f.sent[1], "the hint as the server sent it")

	require.Equal(t, "null", runCall(t, "inlayHintResolve", `{"uri":"kandev://s/a.go","lsp":[9,0]}`, f, p), "forgotten")
	require.Equal(t, "null", runCall(t, "inlayHintResolve", `{"uri":"kandev://s/a.go","lsp":[1,0]}`, f, Providers{}), "the server resolves no hints")
	require.Len(t, f.sent, 2, "nothing sent for either")
}
