package features

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Semantic tokens ask for a delta only when the server advertises one and
// Monaco holds the previous result; whatever the answer's form, Monaco
// gets its own.
func TestSemanticTokensDelta(t *testing.T) {
	delta := Providers{SemanticTokensDelta: true}
	for _, c := range []struct {
		name, req, sent, answer, want string
		p                             Providers
	}{
		{"first request", `{"uri":"kandev://s/a.go"}`, `textDocument/semanticTokens/full {"textDocument":{"uri":"file:///w/a.go"}}`,
			`{"resultId":"1","data":[0,1,2,3,0]}`, `{"data":[0,1,2,3,0],"resultId":"1"}`, delta},
		{"delta", `{"uri":"kandev://s/a.go","lastResultId":"1"}`, `textDocument/semanticTokens/full/delta {"textDocument":{"uri":"file:///w/a.go"},"previousResultId":"1"}`,
			`{"resultId":"2","edits":[{"start":5,"deleteCount":0,"data":[1,0,2,3,0]}]}`, `{"edits":[{"start":5,"deleteCount":0,"data":[1,0,2,3,0]}],"resultId":"2"}`, delta},
		{"delta answered in full", `{"uri":"kandev://s/a.go","lastResultId":"1"}`, `textDocument/semanticTokens/full/delta {"textDocument":{"uri":"file:///w/a.go"},"previousResultId":"1"}`,
			`{"resultId":"3","data":[]}`, `{"data":[],"resultId":"3"}`, delta},
		{"delta answered null", `{"uri":"kandev://s/a.go","lastResultId":"1"}`, `textDocument/semanticTokens/full/delta {"textDocument":{"uri":"file:///w/a.go"},"previousResultId":"1"}`,
			`null`, `{"data":[]}`, delta},
		{"no delta support", `{"uri":"kandev://s/a.go","lastResultId":"1"}`, `textDocument/semanticTokens/full {"textDocument":{"uri":"file:///w/a.go"}}`,
			`{"data":[]}`, `{"data":[]}`, Providers{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			method, _, _ := strings.Cut(c.sent, " ")
			f := &fakeEnv{answers: map[string]string{method: c.answer}}
			require.JSONEq(t, c.want, runCall(t, "semanticTokens", c.req, f, c.p))
			require.Equal(t, []string{c.sent}, f.sent)
		})
	}
}

// The range provider sends the visible range and maps its answer like the
// document's, empty answers included.
func TestSemanticTokensRange(t *testing.T) {
	runMappings(t, []mappingCase{
		{name: "semanticTokensRange", req: `{"uri":"kandev://s/a.go","range":` + mRange + `}`, method: "textDocument/semanticTokens/range",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"range":` + lspRng + `}`, answer: `{"data":[1,2,3,4,0]}`, want: `{"data":[1,2,3,4,0]}`},
		{name: "semanticTokensRange", req: `{"uri":"kandev://s/a.go","range":` + mRange + `}`, method: "textDocument/semanticTokens/range",
			params: `{"textDocument":{"uri":"file:///w/a.go"},"range":` + lspRng + `}`, answer: `null`, want: `{"data":[]}`},
	})
	runMalformed(t, [][2]string{{"semanticTokensRange", `{"uri":"kandev://s/a.go"}`}})
}

// One textDocument/semanticTokens registration brings both providers with
// one legend, and delta; static capabilities give the range provider
// alone when only range is advertised.
func TestSemanticTokensRegistration(t *testing.T) {
	r, err := NewRegistry(json.RawMessage(`{}`))
	require.NoError(t, err)
	registerLater(t, r, "textDocument/semanticTokens", `"legend":{"tokenTypes":["type"],"tokenModifiers":[]},"full":{"delta":true},"range":true`,
		`{"legend":{"tokenTypes":["type"],"tokenModifiers":[]}}`, SemanticTokens, SemanticTokensRange)
	p := r.For("go")
	require.True(t, p.SemanticTokensDelta)
	require.NoError(t, r.Unregister(json.RawMessage(`{"unregisterations":[{"id":"textDocument/semanticTokens","method":"textDocument/semanticTokens"}]}`)))
	gone := r.For("go")
	require.Equal(t, []Feature{SemanticTokens, SemanticTokensRange}, Changed(p, gone))
	require.False(t, gone.SemanticTokensDelta)

	s, err := ParseCapabilities(json.RawMessage(`{"semanticTokensProvider":{"legend":{"tokenTypes":["t"],"tokenModifiers":["m"]},"range":true}}`))
	require.NoError(t, err)
	require.Equal(t, Providers{Set: Set(SemanticTokensRange), Legend: Legend{TokenTypes: []string{"t"}, TokenModifiers: []string{"m"}}}, s)
	require.Equal(t, `{"legend":{"tokenTypes":["t"],"tokenModifiers":["m"]}}`, OptionsJSON(s, SemanticTokensRange))
}
