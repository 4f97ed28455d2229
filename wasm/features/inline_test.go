package features

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Inline completions (LSP 3.18): Monaco's request becomes the LSP params
// with the trigger kind and the suggest widget's item; a list or an array
// of items becomes Monaco's items, snippets as snippets, and an item's
// command rides along only when the server runs it.
func TestInlineCompletion(t *testing.T) {
	f := &fakeEnv{answers: map[string]string{
		MethodInlineCompletion: `{"items":[{"insertText":"ln(\"hi\")","filterText":"Println","range":` + lspRng + `,"command":{"title":"count","command":"fake.accepted","arguments":[1]}},` +
			`{"insertText":{"kind":"snippet","value":"ln(${1:x})"}},{"insertText":"x","command":{"title":"t","command":"not.served"}},{"filterText":"no text"}]}`,
		"workspace/executeCommand": `null`,
	}}
	p := Providers{Commands: []string{"fake.accepted"}}
	out := runCall(t, "inlineCompletion", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"trigger":2,"selected":{"range":`+mRange+`,"text":"Print"}}`, f, p)
	require.Equal(t, MethodInlineCompletion+` {"textDocument":{"uri":"file:///w/a.go"},"position":{"line":1,"character":2},"context":{"triggerKind":2,"selectedCompletionInfo":{"range":`+lspRng+`,"text":"Print"}}}`, f.sent[0])
	require.JSONEq(t, `{"items":[{"insertText":"ln(\"hi\")","filterText":"Println","range":`+mRange+`,"run":"{\"title\":\"count\",\"command\":\"fake.accepted\",\"arguments\":[1]}","title":"count"},`+
		`{"insertText":{"snippet":"ln(${1:x})"}},{"insertText":"x"}]}`, out)

	f.sent = nil
	f.answers[MethodInlineCompletion] = `[{"insertText":"a"}]`
	require.JSONEq(t, `{"items":[{"insertText":"a"}]}`, runCall(t, "inlineCompletion", `{"uri":"kandev://s/a.go","lineNumber":1,"column":1,"trigger":1}`, f, p))
	require.Contains(t, f.sent[0], `"context":{"triggerKind":1}`, "invoked, nothing selected")
	f.answers[MethodInlineCompletion] = `null`
	require.Equal(t, "null", runCall(t, "inlineCompletion", `{"uri":"kandev://s/a.go","lineNumber":1,"column":1}`, f, p))

	// Accepting runs the command on the server; one it does not run is refused.
	f.sent = nil
	require.Equal(t, "true", runCall(t, "inlineCompletionRun", `{"uri":"kandev://s/a.go","lsp":"{\"title\":\"count\",\"command\":\"fake.accepted\",\"arguments\":[1]}"}`, f, p))
	require.Equal(t, []string{`workspace/executeCommand {"command":"fake.accepted","arguments":[1]}`}, f.sent)
	c, _ := Lookup("inlineCompletionRun")
	r, err := ParseRequest(`{"uri":"kandev://s/a.go","lsp":"{\"title\":\"t\",\"command\":\"not.served\"}"}`)
	require.NoError(t, err)
	_, err = c.Run(&r, f.env(p))
	require.ErrorIs(t, err, errNotServerCommand)
	require.Equal(t, InlineCompletion, c.Feature())

	// The capability and its registration.
	caps, err := ParseCapabilities([]byte(`{"inlineCompletionProvider":{}}`))
	require.NoError(t, err)
	require.True(t, caps.Allows(InlineCompletion))
	reg, err := NewRegistry([]byte(`{}`))
	require.NoError(t, err)
	require.NoError(t, reg.Register([]byte(`{"registrations":[{"id":"i","method":"textDocument/inlineCompletion","registerOptions":{"documentSelector":[{"language":"go"}]}}]}`)))
	require.True(t, reg.For("go").Allows(InlineCompletion))
	require.False(t, reg.For("python").Allows(InlineCompletion))
}
