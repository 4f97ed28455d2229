package features

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A snippet applied as text reads as the snippet's defaults.
func TestSnippetText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                         "plain",
		"fmt.Println($1)$0":             "fmt.Println()",
		"${1:name} := ${2:value}":       "name := value",
		"${1:outer ${2:inner}} x":       "outer inner x",
		"${1|one,two|} and ${2|a\\,b|}": "one and a,b",
		"$TM_FILENAME ${UNKNOWN:def}":   "TM_FILENAME def",
		"${TM_FILENAME/(.*)/${1}/}!":    "TM_FILENAME!",
		"cost \\$5 \\} \\\\ $":          "cost $5 } \\ $",
		"a $ b ${ c":                    "a $ b ${ c",
		"${1:unclosed":                  "unclosed",
		"${2}end":                       "end",
		"$12x":                          "x",
		"\\n stays":                     "\\n stays",
	} {
		require.Equal(t, want, SnippetText(in), in)
	}
}

// A workspace edit's snippet edit (LSP 3.18) is planned with its snippet
// and the text it reads as; a snippet of another kind of value is dropped.
func TestPlanSnippetEdit(t *testing.T) {
	resolve := func(uri string) (EditFile, bool) {
		return EditFile{Session: "s", Path: "a.go", Model: "kandev://s/a.go"}, true
	}
	plan, err := PlanWorkspaceEdit([]byte(`{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":null},"edits":[`+
		`{"range":`+lspRng+`,"snippet":{"kind":"snippet","value":"f(${1:x})$0"}},{"range":`+lspRng+`,"snippet":{"kind":"text","value":"?"}},{"range":`+lspRng+`,"newText":"y"}]}]}`), resolve, 0)
	require.NoError(t, err)
	require.JSONEq(t, `[{"op":"edit","sessionId":"s","path":"a.go","model":"kandev://s/a.go","edits":[`+
		`{"range":`+mRange+`,"text":"f(x)","snippet":"f(${1:x})$0"},{"range":`+mRange+`,"text":"y"}]}]`, plan)
}
