//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/wasm/features"
)

// The file operations lsp.wasm offers servers (initialize's
// resourceOperations, see package client) are exactly the page's
// createFile, renameFile and deleteFile callbacks: each function given
// adds its operation, and a member that is not a function adds none.
func TestConfigureFileOpsFollowCallbacks(t *testing.T) {
	mon := jsEval(t, fakeMonaco)
	fn := jsEval(t, `() => true`)
	for _, c := range []struct {
		name  string
		given map[string]any
		want  features.FileOps
	}{
		{"none", map[string]any{}, 0},
		{"not functions", map[string]any{"createFile": true, "renameFile": "x", "deleteFile": jsNull()}, 0},
		{"create", map[string]any{"createFile": fn}, features.OpCreate},
		{"rename", map[string]any{"renameFile": fn}, features.OpRename},
		{"delete", map[string]any{"deleteFile": fn}, features.OpDelete},
		{"create and delete", map[string]any{"createFile": fn, "deleteFile": fn, "readFile": fn, "onEdit": fn}, features.OpCreate | features.OpDelete},
		{"all", map[string]any{"createFile": fn, "renameFile": fn, "deleteFile": fn}, features.OpCreate | features.OpRename | features.OpDelete},
	} {
		opts := map[string]any{"monaco": mon, "relayURL": "ws://h/lsp"}
		for k, v := range c.given {
			opts[k] = v
		}
		o, err := parseConfigure([]jsValue{obj(t, opts)})
		require.NoError(t, err, c.name)
		require.Equal(t, c.want, o.fileOps, c.name)
	}
}
