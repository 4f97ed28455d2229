package lsptypes

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// A browser has no process id; LSP requires the field, as null.
func TestInitializeParamsSendsNullProcessID(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(InitializeParams{RootURI: "file:///w", WorkspaceFolders: []WorkspaceFolder{{URI: "file:///w", Name: "w"}}})
	require.NoError(t, err)
	require.JSONEq(t, `{"processId":null,"rootUri":"file:///w","capabilities":{},"workspaceFolders":[{"uri":"file:///w","name":"w"}]}`, string(b))
}

func TestDiagnosticCodeStaysRaw(t *testing.T) {
	t.Parallel()
	var p PublishDiagnosticsParams
	require.NoError(t, json.Unmarshal([]byte(`{"uri":"file:///a.go","diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}},"code":42,"message":"m"}]}`), &p))
	require.Equal(t, "file:///a.go", p.URI)
	require.Nil(t, p.Version)
	require.Equal(t, "42", string(p.Diagnostics[0].Code))
	require.Equal(t, Position{Line: 1, Character: 2}, p.Diagnostics[0].Range.Start)
}
