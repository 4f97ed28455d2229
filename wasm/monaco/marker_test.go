package monaco

import (
	"encoding/json"
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
			want: Marker{1, 1, 1, 5, "x", SeverityError, "ts", "2304"},
		},
		{
			name: "warning with string code, multi-line",
			in:   `{"range":{"start":{"line":3,"character":7},"end":{"line":5,"character":0}},"severity":2,"code":"unusedvar","message":"y"}`,
			want: Marker{4, 8, 6, 1, "y", SeverityWarning, "", "unusedvar"},
		},
		{
			name: "information",
			in:   `{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":2}},"severity":3,"message":"i"}`,
			want: Marker{2, 3, 2, 3, "i", SeverityInfo, "", ""},
		},
		{
			name: "hint with null code",
			in:   `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":4,"code":null,"message":"h"}`,
			want: Marker{1, 1, 1, 2, "h", SeverityHint, "", ""},
		},
		{
			name: "omitted severity is an error",
			in:   `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"e"}`,
			want: Marker{1, 1, 1, 2, "e", SeverityError, "", ""},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var d lsptypes.Diagnostic
			require.NoError(t, json.Unmarshal([]byte(c.in), &d))
			require.Equal(t, c.want, FromDiagnostic(d))
		})
	}
}

func TestMarkersJSON(t *testing.T) {
	t.Parallel()
	require.Equal(t, "[]", MarkersJSON(nil))
	require.Equal(t, "[]", MarkersJSON(FromDiagnostics(nil)))
	got := MarkersJSON([]Marker{{1, 2, 3, 4, "m \"q\"", SeverityWarning, "go", "E1"}})
	require.JSONEq(t, `[{"startLineNumber":1,"startColumn":2,"endLineNumber":3,"endColumn":4,"message":"m \"q\"","severity":4,"source":"go","code":"E1"}]`, got)
}
