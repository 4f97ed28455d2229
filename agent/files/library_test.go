package files

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/library"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// The library routes over HTTP: the roots as JSON, a file under one of
// them as text, and every refusal with the status the workspace routes
// give it; no write, and nothing without the token.
func TestLibraryRoutes(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	goroot, bin := filepath.Join(base, "go"), filepath.Join(base, "bin")
	require.NoError(t, os.MkdirAll(filepath.Join(goroot, "src", "fmt"), 0o755))
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\necho "+goroot+"\necho /nonexistent\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(goroot, "src", "fmt", "print.go"), []byte("package fmt\n"), 0o444))
	require.NoError(t, os.WriteFile(filepath.Join(base, "secret"), []byte("secret"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(base, "secret"), filepath.Join(goroot, "leak")))
	lib := library.New(taskenv.New(map[string]string{"PATH": bin}), nil)
	t.Cleanup(lib.Close)
	srv := httptest.NewServer(NewLibrary(lib, token, nil))
	t.Cleanup(srv.Close)

	code, body := do(t, srv, "GET", wire.AgentLibraryRootsPath, "", "", token)
	require.Equal(t, http.StatusOK, code)
	var roots []library.Source
	require.NoError(t, json.Unmarshal([]byte(body), &roots))
	assert.Equal(t, []library.Source{{Kind: library.KindGoRoot, Dir: goroot}}, roots, "the module cache does not exist: no root")

	file := filepath.Join(goroot, "src", "fmt", "print.go")
	code, body = do(t, srv, "GET", wire.AgentLibraryFilePath, file, "", token)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "package fmt\n", body)

	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", filepath.Join(base, "secret"), http.StatusForbidden},
		{"GET", filepath.Join(goroot, "leak"), http.StatusForbidden},
		{"GET", "src/fmt/print.go", http.StatusForbidden},
		{"GET", filepath.Join(goroot, "src"), http.StatusBadRequest},
		{"GET", filepath.Join(goroot, "src", "none.go"), http.StatusNotFound},
		{"PUT", file, http.StatusMethodNotAllowed},
	} {
		code, body := do(t, srv, c.method, wire.AgentLibraryFilePath, c.path, "x", token)
		assert.Equal(t, c.want, code, "%s %s", c.method, c.path)
		assert.NotContains(t, body, "secret")
	}
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "package fmt\n", string(b), "never written")
	code, _ = do(t, srv, "GET", wire.AgentLibraryFilePath, file, "", "")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = do(t, srv, "GET", wire.AgentLibraryRootsPath, "", "", "wrong")
	assert.Equal(t, http.StatusUnauthorized, code)
}
