package files

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

// The routes do no work for a request whose context has ended (the client
// gave up): search and listing return without walking and read sends no
// content, and none of it is an error in the log.
func TestRequestContextEnded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), bytes.Repeat([]byte("needle\n"), 1000), 0o644))
	root, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	var logs bytes.Buffer
	h := New(root, token, slog.New(slog.NewTextHandler(&logs, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, target := range []string{
		wire.AgentSearchPath + "?" + wire.ParamQuery + "=needle", wire.AgentFilesPath, wire.AgentFilePath + "?" + wire.ParamPath + "=a.txt",
	} {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.NotContains(t, rec.Body.String(), "needle", target)
	}
	require.NotContains(t, logs.String(), "level=ERROR")
}
