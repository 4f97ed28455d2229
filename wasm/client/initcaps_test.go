package client

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// initialize tells the server exactly which file operations a workspace
// edit may contain: workspace.workspaceEdit.resourceOperations names the
// create, rename and delete operations the page gave callbacks for (in
// that order), and is an empty list, not absent or null, without any —
// so a server never plans a file operation the page cannot carry out.
func TestInitializeResourceOperationsFollowFileOps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ops  features.FileOps
		want []string
	}{
		{0, []string{}},
		{features.OpCreate, []string{"create"}},
		{features.OpRename, []string{"rename"}},
		{features.OpDelete, []string{"delete"}},
		{features.OpDelete | features.OpCreate, []string{"create", "delete"}},
		{features.OpCreate | features.OpRename | features.OpDelete, []string{"create", "rename", "delete"}},
	} {
		h := newHarness(t, func(cfg *Config) { cfg.FileOps = c.ops })
		m := newModel("package main\n")
		_, err := h.client.OpenDocument("s", "main.go", m, m)
		require.NoError(t, err)
		init := handshake(t, h, h.agent(t), "/w", "file:///w")

		var params struct {
			Capabilities struct {
				Workspace struct {
					ApplyEdit     bool `json:"applyEdit"`
					WorkspaceEdit struct {
						DocumentChanges    bool             `json:"documentChanges"`
						ResourceOperations *json.RawMessage `json:"resourceOperations"`
					} `json:"workspaceEdit"`
				} `json:"workspace"`
			} `json:"capabilities"`
		}
		require.NoError(t, json.Unmarshal(init.Params, &params))
		we := params.Capabilities.Workspace.WorkspaceEdit
		require.True(t, params.Capabilities.Workspace.ApplyEdit)
		require.True(t, we.DocumentChanges)
		require.NotNil(t, we.ResourceOperations, "resourceOperations is sent for ops %d", c.ops)
		var got []string
		require.NoError(t, json.Unmarshal(*we.ResourceOperations, &got))
		require.NotNil(t, got, "a list, not null, for ops %d: %s", c.ops, *we.ResourceOperations)
		require.Equal(t, c.want, got, "ops %d", c.ops)
	}
}
