package hierarchy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func toModel(uri string) string { return strings.Replace(uri, "file:///w/", "kandev://s/", 1) }

const greetItem = `{"name":"Greet","kind":12,"detail":"example.com/greet","uri":"file:///w/greet/greet.go",` +
	`"range":{"start":{"line":4,"character":0},"end":{"line":6,"character":1}},` +
	`"selectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":10}},"data":{"k":1}}`

func TestPrepareAtAPosition(t *testing.T) {
	r, err := ParseRequest(`{"op":"callHierarchy","model":"kandev://s/main.go","lineNumber":7,"column":3}`)
	require.NoError(t, err)
	require.Equal(t, "textDocument/prepareCallHierarchy", r.Op.Method)
	require.JSONEq(t, `{"textDocument":{"uri":"file:///w/main.go"},"position":{"line":6,"character":2}}`, string(r.Params("file:///w/main.go")))

	out, err := Result(r, []byte(`[`+greetItem+`,{"name":"broken"}]`), "c1", toModel)
	require.NoError(t, err)
	require.JSONEq(t, `[{"name":"Greet","kind":11,"detail":"example.com/greet","tags":[],"model":"kandev://s/greet/greet.go",
		"range":{"startLineNumber":5,"startColumn":1,"endLineNumber":7,"endColumn":2},
		"selectionRange":{"startLineNumber":5,"startColumn":6,"endLineNumber":5,"endColumn":11},
		"conn":"c1","lsp":`+quote(greetItem)+`}]`, out)
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

func TestStepsSendTheServersItemBack(t *testing.T) {
	for _, op := range []string{"incomingCalls", "outgoingCalls", "supertypes", "subtypes"} {
		r, err := ParseRequest(`{"op":"` + op + `","item":{"name":"Greet","conn":"c1","lsp":` + quote(greetItem) + `}}`)
		require.NoError(t, err, op)
		require.Equal(t, "c1", r.Conn)
		require.JSONEq(t, `{"item":`+greetItem+`}`, string(r.Params("")), "data and all, unchanged")
	}
	r, _ := ParseRequest(`{"op":"incomingCalls","item":{"conn":"c1","lsp":` + quote(greetItem) + `}}`)
	out, err := Result(r, []byte(`[{"from":`+strings.Replace(greetItem, "Greet", "main", 1)+`,"fromRanges":[{"start":{"line":9,"character":1},"end":{"line":9,"character":6}}]}]`), "c1", toModel)
	require.NoError(t, err)
	require.Contains(t, out, `"from":{"name":"main"`)
	require.Contains(t, out, `"fromRanges":[{"startLineNumber":10,"startColumn":2,"endLineNumber":10,"endColumn":7}]`)

	r, _ = ParseRequest(`{"op":"outgoingCalls","item":{"conn":"c1","lsp":` + quote(greetItem) + `}}`)
	out, err = Result(r, []byte(`null`), "c1", toModel)
	require.NoError(t, err)
	require.Equal(t, "[]", out)
}

func TestWorkspaceSymbolsInBothForms(t *testing.T) {
	r, err := ParseRequest(`{"op":"workspaceSymbols","model":"kandev://s/main.go","query":"Gre"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"query":"Gre"}`, string(r.Params("")))
	out, err := Result(r, []byte(`[
		{"name":"Greet","kind":12,"containerName":"greet","location":{"uri":"file:///w/greet/greet.go","range":{"start":{"line":4,"character":5},"end":{"line":4,"character":10}}}},
		{"name":"Lazy","kind":5,"tags":[1],"location":{"uri":"file:///w/lazy.go"},"data":7},
		{"name":"bad","kind":99,"location":{"uri":"file:///w/x.go"}}]`), "c1", toModel)
	require.NoError(t, err)
	require.Contains(t, out, `{"name":"Greet","kind":11,"containerName":"greet","tags":[],"model":"kandev://s/greet/greet.go","range":{"startLineNumber":5,"startColumn":6,"endLineNumber":5,"endColumn":11},"conn":"c1"`)
	require.Contains(t, out, `{"name":"Lazy","kind":4,"tags":[1],"model":"kandev://s/lazy.go","conn":"c1"`, "no range: resolved when picked")
	require.NotContains(t, out, `"bad"`)

	r, err = ParseRequest(`{"op":"resolveWorkspaceSymbol","item":{"conn":"c1","lsp":"{\"name\":\"Lazy\",\"kind\":5,\"location\":{\"uri\":\"file:///w/lazy.go\"},\"data\":7}"}}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"name":"Lazy","kind":5,"location":{"uri":"file:///w/lazy.go"},"data":7}`, string(r.Params("")))
	out, err = Result(r, []byte(`{"name":"Lazy","kind":5,"location":{"uri":"file:///w/lazy.go","range":{"start":{"line":2,"character":0},"end":{"line":2,"character":4}}}}`), "c1", toModel)
	require.NoError(t, err)
	require.Contains(t, out, `"range":{"startLineNumber":3,"startColumn":1,"endLineNumber":3,"endColumn":5}`)
}

func TestBadRequests(t *testing.T) {
	for _, js := range []string{``, `[]`, `{"op":"nope","model":"m"}`, `{"op":"callHierarchy","model":"m","lineNumber":0,"column":1}`,
		`{"op":"callHierarchy","lineNumber":1,"column":1}`, `{"op":"subtypes","item":{"conn":"c"}}`, `{"op":"subtypes","item":{"conn":"c","lsp":"{not json"}}`} {
		_, err := ParseRequest(js)
		require.ErrorIs(t, err, ErrBadRequest, js)
	}
}
