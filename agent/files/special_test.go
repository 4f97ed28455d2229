//go:build unix

package files

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

// syncBuffer is a log destination the handler's goroutines share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// specialSetup is a workspace holding what must never be opened or
// resolved: FIFOs (one in a subdirectory, one behind a symlink) and
// symlink loops.
func specialSetup(t *testing.T) (string, *httptest.Server, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "pkg"), 0o755))
	for _, p := range []string{"pipe", "pkg/pipe"} {
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, p), 0o644))
	}
	for link, target := range map[string]string{"pipelink": "pipe", "loop1": "loop2", "loop2": "loop1", "self": "self"} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
	root, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	logs := &syncBuffer{}
	srv := httptest.NewServer(New(root, token, slog.New(slog.NewTextHandler(logs, nil))))
	t.Cleanup(srv.Close)
	return dir, srv, logs
}

// call is do with a deadline: a route that hangs fails the test instead
// of holding it.
func call(t *testing.T, srv *httptest.Server, method, route, query, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+route+"?"+query, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	require.NoError(t, err, "%s %s?%s answered", method, route, query)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A FIFO is refused without being opened (open(2) of a FIFO waits for a
// writer): read and write answer 400 at once, the FIFO is left as it
// was, and the listing and search skip it.
func TestFIFONeverOpened(t *testing.T) {
	t.Parallel()
	dir, srv, logs := specialSetup(t)
	for _, rel := range []string{"pipe", "pkg/pipe", "pipelink"} {
		q := wire.ParamPath + "=" + url.QueryEscape(rel)
		code, _ := call(t, srv, http.MethodGet, wire.AgentFilePath, q, "")
		require.Equal(t, http.StatusBadRequest, code, rel)
		code, _ = call(t, srv, http.MethodPut, wire.AgentFilePath, q, "x")
		require.Equal(t, http.StatusBadRequest, code, rel)
	}
	fi, err := os.Lstat(filepath.Join(dir, "pipe"))
	require.NoError(t, err)
	require.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "not replaced by the PUT")

	code, body := call(t, srv, http.MethodGet, wire.AgentFilesPath, "", "")
	require.Equal(t, http.StatusOK, code)
	var files []string
	require.NoError(t, json.Unmarshal([]byte(body), &files))
	require.Equal(t, []string{"main.go"}, files)

	code, body = call(t, srv, http.MethodGet, wire.AgentSearchPath, wire.ParamQuery+"=package", "")
	require.Equal(t, http.StatusOK, code)
	var res workspace.SearchResult
	require.NoError(t, json.Unmarshal([]byte(body), &res))
	require.Len(t, res.Matches, 1)
	require.Equal(t, "main.go", res.Matches[0].Path)
	require.NotContains(t, logs.String(), "level=ERROR")
}

// A symlink loop, and a path through one or through a regular file, is a
// 4xx like any unusable path, not a 500 with an error in the log.
func TestUnresolvablePaths(t *testing.T) {
	t.Parallel()
	_, srv, logs := specialSetup(t)
	for _, rel := range []string{"loop1", "loop2", "self", "loop1/x", "self/x/y", "main.go/x"} {
		q := wire.ParamPath + "=" + url.QueryEscape(rel)
		code, body := call(t, srv, http.MethodGet, wire.AgentFilePath, q, "")
		require.True(t, code >= 400 && code < 500, "GET %s: %d", rel, code)
		require.Equal(t, http.StatusText(code)+"\n", body, "no path or system error reaches the client")
		code, _ = call(t, srv, http.MethodPut, wire.AgentFilePath, q, "x")
		require.True(t, code >= 400 && code < 500, "PUT %s: %d", rel, code)
	}
	code, _ := call(t, srv, http.MethodGet, wire.AgentFilesPath, "", "")
	require.Equal(t, http.StatusOK, code)
	require.NotContains(t, logs.String(), "level=ERROR")
}
