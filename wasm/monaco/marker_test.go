package monaco

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/lsptypes"
)

func TestFromDiagnostic(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want Marker
	}{
		{
			name: "error with numeric code",
			in:   `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"severity":1,"code":2304,"source":"ts","message":"x"}`,
			want: Marker{StartLineNumber: 1, StartColumn: 1, EndLineNumber: 1, EndColumn: 5, Message: "x", Severity: SeverityError, Source: "ts", Code: "2304"},
		},
		{
			name: "warning with string code, multi-line",
			in:   `{"range":{"start":{"line":3,"character":7},"end":{"line":5,"character":0}},"severity":2,"code":"unusedvar","message":"y"}`,
			want: Marker{StartLineNumber: 4, StartColumn: 8, EndLineNumber: 6, EndColumn: 1, Message: "y", Severity: SeverityWarning, Source: "", Code: "unusedvar"},
		},
		{
			name: "information",
			in:   `{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":2}},"severity":3,"message":"i"}`,
			want: Marker{StartLineNumber: 2, StartColumn: 3, EndLineNumber: 2, EndColumn: 3, Message: "i", Severity: SeverityInfo, Source: "", Code: ""},
		},
		{
			name: "hint with null code",
			in:   `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":4,"code":null,"message":"h"}`,
			want: Marker{StartLineNumber: 1, StartColumn: 1, EndLineNumber: 1, EndColumn: 2, Message: "h", Severity: SeverityHint, Source: "", Code: ""},
		},
		{
			name: "omitted severity is an error",
			in:   `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"e"}`,
			want: Marker{StartLineNumber: 1, StartColumn: 1, EndLineNumber: 1, EndColumn: 2, Message: "e", Severity: SeverityError, Source: "", Code: ""},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var d lsptypes.Diagnostic
			require.NoError(t, json.Unmarshal([]byte(c.in), &d))
			require.Equal(t, c.want, FromDiagnostic(d, nil))
		})
	}
}

func TestMarkersJSON(t *testing.T) {
	t.Parallel()
	require.Equal(t, "[]", MarkersJSON(nil))
	require.Equal(t, "[]", MarkersJSON(FromDiagnostics(nil, nil)))
	got := MarkersJSON([]Marker{{StartLineNumber: 1, StartColumn: 2, EndLineNumber: 3, EndColumn: 4, Message: "m \"q\"", Severity: SeverityWarning, Source: "go", Code: "E1"}})
	require.JSONEq(t, `[{"startLineNumber":1,"startColumn":2,"endLineNumber":3,"endColumn":4,"message":"m \"q\"","severity":4,"source":"go","code":"E1"}]`, got)
}

// Tags, related information and the code's link reach Monaco: tags fade or
// strike the range, related places are listed under the message with
// model URIs, and the code links to its description.
func TestMarkerDetails(t *testing.T) {
	t.Parallel()
	d, err := lsptypes.ParsePublishDiagnosticsParams([]byte(`{"uri":"file:///w/a.go","diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},` +
		`"severity":4,"code":"unusedvar","codeDescription":{"href":"https://pkg.go.dev/x"},"message":"unused","tags":[1,2],"data":{"k":1},` +
		`"relatedInformation":[{"location":{"uri":"file:///w/b.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}}},"message":"declared here"}]}]}`))
	require.NoError(t, err)
	require.Contains(t, string(d.Diagnostics[0].Raw), `"data":{"k":1}`, "the raw diagnostic is kept for code actions")
	got := MarkersJSON(FromDiagnostics(d.Diagnostics, func(u string) string { return strings.Replace(u, "file:///w/", "kandev://s/", 1) }))
	require.JSONEq(t, `[{"startLineNumber":2,"startColumn":3,"endLineNumber":2,"endColumn":6,"message":"unused","severity":1,`+
		`"code":{"value":"unusedvar","target":"https://pkg.go.dev/x"},"tags":[1,2],`+
		`"relatedInformation":[{"resource":"kandev://s/b.go","message":"declared here","startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":4}]}]`, got)
}
