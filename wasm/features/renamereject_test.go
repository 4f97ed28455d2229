package features

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// erringEnv is an Env whose server answers every request with err.
func erringEnv(err error, applied *[]string) *Env {
	return &Env{
		DocURI: "file:///w/a.go", Version: 3, Providers: Providers{RenamePrepare: true},
		MapURI: func(u string) string { return strings.Replace(u, "file:///w/", "kandev://s/", 1) },
		Call:   func(string, j.Appender) (j.Raw, error) { return nil, err },
		Apply:  func(edit j.Raw) (bool, string) { *applied = append(*applied, string(edit)); return true, "" },
	}
}

func runErring(t *testing.T, name, req string, e *Env) (string, error) {
	t.Helper()
	c, ok := Lookup(name)
	require.True(t, ok, name)
	r, err := ParseRequest(req)
	require.NoError(t, err)
	return c.Run(&r, e)
}

// A prepareRename the server answers with a JSON-RPC error (gopls: "no
// identifier found") is Monaco's rename rejection at the cursor, carrying
// the server's own message; a rename refused the same way applies nothing
// and rejects with the message. A cancelled request is no rejection: there
// is no message for the user.
func TestRenameServerErrorRejects(t *testing.T) {
	pos := `{"uri":"kandev://s/a.go","lineNumber":2,"column":3}`
	at := `{"startLineNumber":2,"startColumn":3,"endLineNumber":2,"endColumn":3}`
	var applied []string

	out, err := runErring(t, "prepareRename", pos, erringEnv(jsonrpc.NewError(-32602, "no identifier found"), &applied))
	require.NoError(t, err)
	require.JSONEq(t, `{"range":`+at+`,"text":"","rejectReason":"no identifier found"}`, out)

	out, err = runErring(t, "prepareRename", pos, erringEnv(&jsonrpc.Error{Code: -32603, Message: `cannot rename "fmt": a package`}, &applied))
	require.NoError(t, err)
	require.JSONEq(t, `{"range":`+at+`,"text":"","rejectReason":"cannot rename \"fmt\": a package"}`, out, "quotes survive")

	out, err = runErring(t, "rename", `{"uri":"kandev://s/a.go","lineNumber":2,"column":3,"newName":"Greet"}`,
		erringEnv(jsonrpc.NewError(-32603, "Greet conflicts with a declaration in b.go"), &applied))
	require.NoError(t, err)
	require.JSONEq(t, `{"edits":[],"rejectReason":"Greet conflicts with a declaration in b.go"}`, out)
	require.Empty(t, applied, "a refused rename changes nothing")

	out, err = runErring(t, "prepareRename", pos, erringEnv(jsonrpc.ErrRequestCancelled, &applied))
	require.NotContains(t, out, "rejectReason", "cancelled: no message for the user")
	require.True(t, errors.Is(err, jsonrpc.ErrRequestCancelled), "the cancellation goes back to the caller: %v", err)
}

// A WorkspaceEdit in the "changes" form (a map from URI to TextEdits, as
// servers send without documentChanges support) plans one edit step per
// file, in the server's order, each on that file's model with its own
// edits; documentChanges, when present too, wins.
func TestPlanWorkspaceEditChangesForm(t *testing.T) {
	resolve := func(uri string) (EditFile, bool) {
		rel, ok := strings.CutPrefix(uri, "file:///w/")
		if !ok {
			return EditFile{}, false
		}
		return EditFile{Session: "s", Path: rel, Model: "kandev://s/" + rel}, true
	}
	two := `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"newText":"Y"}`
	mTwo := `{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":5},"text":"Y"}`
	plan, err := PlanWorkspaceEdit([]byte(`{"changes":{`+
		`"file:///w/pkg/b.go":[{"range":`+lspRng+`,"newText":"X"},`+two+`],`+
		`"file:///w/a.go":[{"range":`+lspRng+`,"newText":"Z"}]}}`), resolve, 0)
	require.NoError(t, err)
	require.JSONEq(t, `[`+
		`{"op":"edit","sessionId":"s","path":"pkg/b.go","model":"kandev://s/pkg/b.go","edits":[{"range":`+mRange+`,"text":"X"},`+mTwo+`]},`+
		`{"op":"edit","sessionId":"s","path":"a.go","model":"kandev://s/a.go","edits":[{"range":`+mRange+`,"text":"Z"}]}]`, plan)
	v, err := j.Parse([]byte(plan))
	require.NoError(t, err)
	require.Equal(t, "kandev://s/pkg/b.go", v.Index(0).Get("model").String(), "the server's order")

	plan, err = PlanWorkspaceEdit([]byte(`{"changes":{}}`), resolve, 0)
	require.NoError(t, err)
	require.Equal(t, `[]`, plan, "nothing to change")

	plan, err = PlanWorkspaceEdit([]byte(`{"changes":{"file:///w/a.go":[{"range":`+lspRng+`,"newText":"old"}]},`+
		`"documentChanges":[{"textDocument":{"uri":"file:///w/c.go","version":null},"edits":[{"range":`+lspRng+`,"newText":"new"}]}]}`), resolve, 0)
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"edit","sessionId":"s","path":"c.go","model":"kandev://s/c.go","edits":[{"range":`+mRange+`,"text":"new"}]}]`, plan)

	_, err = PlanWorkspaceEdit([]byte(`{"changes":{"file:///w/a.go":[{"range":`+lspRng+`,"newText":"X"}],"file:///other/x.go":[]}}`), resolve, 0)
	require.ErrorIs(t, err, errOutside, "one file outside refuses the whole edit")
	_, err = PlanWorkspaceEdit([]byte(`{"changes":{"file:///w/a.go":{"newText":"X"}}}`), resolve, 0)
	require.ErrorIs(t, err, errMalformed)
}
