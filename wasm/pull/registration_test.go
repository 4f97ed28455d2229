package pull

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/jsonlite"
)

func TestParseStatic(t *testing.T) {
	for _, tc := range []struct {
		caps string
		want Registration
		ok   bool
	}{
		{`{}`, Registration{}, false},
		{`{"diagnosticProvider":null}`, Registration{}, false},
		{`{"diagnosticProvider":true}`, Registration{}, false}, // not an options object: not LSP
		{`{"diagnosticProvider":{"interFileDependencies":true,"workspaceDiagnostics":false}}`, Registration{InterFileDependencies: true}, true},
		{`{"diagnosticProvider":{"identifier":"ts","interFileDependencies":false,"workspaceDiagnostics":true,"id":"d1","documentSelector":[{"language":"typescript"}]}}`,
			Registration{ID: "d1", Identifier: "ts", WorkspaceDiagnostics: true, Selector: jsonlite.Raw(`[{"language":"typescript"}]`)}, true},
		{`{"diagnosticProvider":{"interFileDependencies":"yes"}}`, Registration{}, false},
		{`not json`, Registration{}, false},
	} {
		got, ok := ParseStatic([]byte(tc.caps))
		require.Equal(t, tc.ok, ok, tc.caps)
		require.Equal(t, tc.want, got, tc.caps)
	}
}

func TestParseRegisterAndUnregister(t *testing.T) {
	regs, err := ParseRegister([]byte(`{"registrations":[
		{"id":"w","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[]}},
		{"id":"d","method":"textDocument/diagnostic","registerOptions":{"identifier":"eslint","interFileDependencies":false,"workspaceDiagnostics":false,"documentSelector":null}},
		{"id":"e","method":"textDocument/diagnostic"}]}`))
	require.NoError(t, err)
	require.Equal(t, []Registration{{ID: "d", Identifier: "eslint"}, {ID: "e"}}, regs)

	_, err = ParseRegister([]byte(`{"registrations":[{"method":"textDocument/diagnostic","registerOptions":{}}]}`))
	require.Error(t, err, "a registration without an id cannot be unregistered")
	_, err = ParseRegister([]byte(`{"registrations":[{"id":"d","method":"textDocument/diagnostic","registerOptions":{"identifier":3}}]}`))
	require.Error(t, err)

	ids, err := ParseUnregister([]byte(`{"unregisterations":[{"id":"d","method":"textDocument/diagnostic"},{"id":"w","method":"workspace/didChangeWatchedFiles"}],` +
		`"unregistrations":[{"id":"e","method":"textDocument/diagnostic"}]}`))
	require.NoError(t, err)
	require.Equal(t, []string{"d", "e"}, ids)
}
