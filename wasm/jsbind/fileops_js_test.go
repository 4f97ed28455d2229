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

// The page's file-operation calls: before configure a will* answers "no
// edit"; after it, a request without servers answers the same, a did*
// resolves empty, and a malformed one (a rename without its new path, a
// path leaving the workspace) is rejected with the reason.
func TestFileOperationCalls(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	mon := jsEval(t, fakeMonaco)
	a := newAPI("v", func() (jsValue, error) { return ctor, nil }, func() (jsValue, error) { return jsEval(t, fakeStorage), nil })
	lsp, err := a.object()
	require.NoError(t, err)
	for _, name := range fileOpsNames {
		require.Equal(t, jsTypeFunction, get(t, lsp, name).Type(), name)
	}
	out := jsEval(t, `({ out: {} })`)
	rename := jsEval(t, `[{ oldPath: 'src/a.ts', newPath: 'src/b.ts' }]`)
	require.JSONEq(t, `{"v":{"applied":0,"failed":[]}}`, stringify(t, settle(t, out, call(t, lsp, "willRenameFiles", "demo", rename), "before")))

	require.True(t, mustBool(t, call(t, lsp, "configure", obj(t, map[string]any{"monaco": mon, "relayURL": "ws://h/lsp"}))))
	require.JSONEq(t, `{"v":{"applied":0,"failed":[]}}`, stringify(t, settle(t, out, call(t, lsp, "willRenameFiles", "demo", rename), "none")))
	require.JSONEq(t, `{}`, stringify(t, settle(t, out, call(t, lsp, "didCreateFiles", "demo", jsEval(t, `['a.ts', { path: 'lib', folder: true }]`)), "did")))
	bad := settle(t, out, call(t, lsp, "willRenameFiles", "demo", jsEval(t, `[{ oldPath: 'a.ts' }]`)), "noNew")
	require.Contains(t, stringify(t, bad), "malformed")
	bad = settle(t, out, call(t, lsp, "didDeleteFiles", "demo", jsEval(t, `['../etc/passwd']`)), "escape")
	require.Contains(t, stringify(t, bad), "malformed")
}
