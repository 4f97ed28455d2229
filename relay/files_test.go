//go:build unix

package relay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The agent's files frames — workspace changes, sent between the server's
// messages — pass the relay like any other frame: the browser gets them
// unchanged, and the stream goes on carrying JSON-RPC both ways.
func TestFilesFramesPassTheRelay(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	b := r.open(t)
	echo(t, b, 1)

	require.NoError(t, os.WriteFile(filepath.Join(r.ws, "main.go"), []byte("package main\n"), 0o644))
	ctx := testCtx(t)
	for {
		_, msg, err := b.Read(ctx)
		require.NoError(t, err)
		require.True(t, wire.IsFilesFrame(msg), "only a files frame can come unasked: %s", msg)
		var f wire.Files
		require.NoError(t, json.Unmarshal(msg, &f))
		if len(f.Files) == 1 && f.Files[0] == (wire.FileChange{Path: "main.go", Type: wire.FileCreated}) {
			break
		}
	}
	echo(t, b, 2)
}
