package files

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

const token = "tok"

func setup(t *testing.T) (string, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("main.go", "package main\n")
	write("pkg/a.go", "package pkg\n")
	write("script.sh", "#!/bin/sh\n")
	require.NoError(t, os.Chmod(filepath.Join(dir, "script.sh"), 0o755))
	write(".git/HEAD", "ref\n")
	write("web/node_modules/x/index.js", "x\n")
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "leak")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "outdir")))
	require.NoError(t, os.Symlink("main.go", filepath.Join(dir, "alias.go")))

	root, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	srv := httptest.NewServer(New(root, token, nil))
	t.Cleanup(srv.Close)
	return dir, srv
}

func do(t *testing.T, srv *httptest.Server, method, route, rel, body, tok string) (int, string) {
	t.Helper()
	u := srv.URL + route
	if rel != "" {
		u += "?" + wire.ParamPath + "=" + url.QueryEscape(rel)
	}
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestList(t *testing.T) {
	t.Parallel()
	_, srv := setup(t)
	code, body := do(t, srv, "GET", wire.AgentFilesPath, "", "", token)
	require.Equal(t, http.StatusOK, code)
	var files []string
	require.NoError(t, json.Unmarshal([]byte(body), &files))
	require.Equal(t, []string{"main.go", "pkg/a.go", "script.sh"}, files)
}

func TestAuth(t *testing.T) {
	t.Parallel()
	_, srv := setup(t)
	for _, tok := range []string{"", "wrong"} {
		code, _ := do(t, srv, "GET", wire.AgentFilesPath, "", "", tok)
		require.Equal(t, http.StatusUnauthorized, code)
		code, _ = do(t, srv, "PUT", wire.AgentFilePath, "main.go", "x", tok)
		require.Equal(t, http.StatusUnauthorized, code)
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	_, srv := setup(t)
	code, body := do(t, srv, "GET", wire.AgentFilePath, "pkg/a.go", "", token)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "package pkg\n", body)
	code, body = do(t, srv, "GET", wire.AgentFilePath, "alias.go", "", token)
	require.Equal(t, http.StatusOK, code, "a symlink inside the workspace is fine")
	require.Equal(t, "package main\n", body)

	for rel, want := range map[string]int{
		"/etc/passwd":        http.StatusBadRequest,
		"../x":               http.StatusBadRequest,
		"pkg/../../x":        http.StatusBadRequest,
		"leak":               http.StatusForbidden,
		"outdir/secret":      http.StatusForbidden,
		"missing.go":         http.StatusNotFound,
		"pkg":                http.StatusBadRequest,
		"pkg/./a.go/../a.go": http.StatusOK,
	} {
		code, body := do(t, srv, "GET", wire.AgentFilePath, rel, "", token)
		require.Equal(t, want, code, rel)
		require.NotContains(t, body, "secret", rel)
	}
	code, _ = do(t, srv, "GET", wire.AgentFilePath, "", "", token)
	require.Equal(t, http.StatusBadRequest, code)
}

func TestWrite(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	code, _ := do(t, srv, "PUT", wire.AgentFilePath, "main.go", "package main // saved\n", token)
	require.Equal(t, http.StatusNoContent, code)
	got, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	require.Equal(t, "package main // saved\n", string(got))

	code, _ = do(t, srv, "PUT", wire.AgentFilePath, "script.sh", "#!/bin/sh\necho\n", token)
	require.Equal(t, http.StatusNoContent, code)
	fi, _ := os.Stat(filepath.Join(dir, "script.sh"))
	require.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "mode kept")

	code, _ = do(t, srv, "PUT", wire.AgentFilePath, "alias.go", "package main // via link\n", token)
	require.Equal(t, http.StatusNoContent, code)
	fi, _ = os.Lstat(filepath.Join(dir, "alias.go"))
	require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link survives")
	got, _ = os.ReadFile(filepath.Join(dir, "main.go"))
	require.Equal(t, "package main // via link\n", string(got))

	code, _ = do(t, srv, "PUT", wire.AgentFilePath, "pkg/new.go", "package pkg\n", token)
	require.Equal(t, http.StatusNoContent, code)
	code, _ = do(t, srv, "PUT", wire.AgentFilePath, "top.go", "package main\n", token)
	require.Equal(t, http.StatusNoContent, code)
	got, _ = os.ReadFile(filepath.Join(dir, "top.go"))
	require.Equal(t, "package main\n", string(got))

	for rel, want := range map[string]int{
		"nodir/new.go":  http.StatusNotFound,
		"../escape.go":  http.StatusBadRequest,
		"/tmp/abs.go":   http.StatusBadRequest,
		"leak":          http.StatusForbidden,
		"outdir/new.go": http.StatusForbidden,
		"pkg":           http.StatusBadRequest,
	} {
		code, _ := do(t, srv, "PUT", wire.AgentFilePath, rel, "x", token)
		require.Equal(t, want, code, rel)
	}
	secret, _ := os.ReadFile(filepath.Join(dir, "leak"))
	require.Equal(t, "secret", string(secret), "nothing written outside")

	entries, _ := os.ReadDir(filepath.Join(dir, "pkg"))
	for _, e := range entries {
		require.NotContains(t, e.Name(), ".kandev-", "no temp file left behind")
	}
}

func search(t *testing.T, srv *httptest.Server, q, tok string) (int, workspace.SearchResult) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+wire.AgentSearchPath+"?"+wire.ParamQuery+"="+url.QueryEscape(q), nil)
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var res workspace.SearchResult
	if resp.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	}
	return resp.StatusCode, res
}

func TestSearch(t *testing.T) {
	t.Parallel()
	_, srv := setup(t)
	code, res := search(t, srv, "PACKAGE", token)
	require.Equal(t, http.StatusOK, code)
	// The files Files lists, no more: not the symlinks (leak's target
	// says "secret" and lies outside), not .git or node_modules.
	require.Equal(t, []workspace.Match{
		{Path: "main.go", Line: 1, Column: 1, EndColumn: 8, Text: "package main"},
		{Path: "pkg/a.go", Line: 1, Column: 1, EndColumn: 8, Text: "package pkg"},
	}, res.Matches)
	require.False(t, res.Truncated)

	code, res = search(t, srv, "secret", token)
	require.Equal(t, http.StatusOK, code)
	require.Empty(t, res.Matches, "nothing is read through a link out of the workspace")

	for _, q := range []string{"", "a\nb", strings.Repeat("x", workspace.MaxSearchQuery+1)} {
		code, _ := search(t, srv, q, token)
		require.Equal(t, http.StatusBadRequest, code, "%q", q)
	}
	for _, tok := range []string{"", "wrong"} {
		code, _ := search(t, srv, "package", tok)
		require.Equal(t, http.StatusUnauthorized, code)
	}
}

func TestRepos(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	code, body := do(t, srv, "GET", wire.AgentReposPath, "", "", token)
	require.Equal(t, http.StatusOK, code)
	require.JSONEq(t, `["."]`, body, "setup's workspace is a repository itself")

	require.NoError(t, os.RemoveAll(filepath.Join(dir, ".git")))
	code, body = do(t, srv, "GET", wire.AgentReposPath, "", "", token)
	require.Equal(t, http.StatusOK, code)
	require.JSONEq(t, `[]`, body, "none is [], not null")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg", ".git"), 0o755))
	code, body = do(t, srv, "GET", wire.AgentReposPath, "", "", token)
	require.Equal(t, http.StatusOK, code)
	require.JSONEq(t, `["pkg"]`, body)

	code, _ = do(t, srv, "GET", wire.AgentReposPath, "", "", "wrong")
	require.Equal(t, http.StatusUnauthorized, code)
}
