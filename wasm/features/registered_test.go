package features

import (
	"testing"

	"github.com/stretchr/testify/require"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

func TestRegisteredKeepsUnwiredMethods(t *testing.T) {
	r, err := NewRegistry([]byte(`{}`))
	require.NoError(t, err)
	const w = "workspace/didChangeWatchedFiles"
	require.NoError(t, r.Register([]byte(`{"registrations":[`+
		`{"id":"a","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.go"}]}},`+
		`{"id":"h","method":"textDocument/hover"},`+
		`{"id":"b","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.mod"}]}}]}`)))
	require.Equal(t, []j.Raw{j.Raw(`{"watchers":[{"globPattern":"**/*.go"}]}`), j.Raw(`{"watchers":[{"globPattern":"**/*.mod"}]}`)}, r.Registered(w))
	require.NoError(t, r.Unregister([]byte(`{"unregisterations":[{"id":"a","method":"workspace/didChangeWatchedFiles"}]}`)))
	require.Equal(t, []j.Raw{j.Raw(`{"watchers":[{"globPattern":"**/*.mod"}]}`)}, r.Registered(w))
	require.Empty(t, r.Registered("workspace/other"))
}
