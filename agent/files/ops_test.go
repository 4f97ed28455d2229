package files

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// op sends method to route with the query q and token tok (none if
// empty), and returns the status and body.
func op(t *testing.T, srv *httptest.Server, method, route string, q url.Values, tok string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+route+"?"+q.Encode(), nil)
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

func entryQuery(rel, kind string) url.Values {
	q := url.Values{wire.ParamPath: {rel}}
	if kind != "" {
		q.Set(wire.ParamKind, kind)
	}
	return q
}

func moveQuery(from, to string) url.Values {
	return url.Values{wire.ParamFrom: {from}, wire.ParamTo: {to}}
}

// outsideOf returns setup's directory outside the workspace: outdir's
// target.
func outsideOf(t *testing.T, dir string) string {
	t.Helper()
	outside, err := os.Readlink(filepath.Join(dir, "outdir"))
	require.NoError(t, err)
	return outside
}

// requireOutsideUntouched checks the outside still holds secret, as it
// was, and nothing else.
func requireOutsideUntouched(t *testing.T, outside string) {
	t.Helper()
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing made outside")
	b, err := os.ReadFile(filepath.Join(outside, "secret"))
	require.NoError(t, err)
	require.Equal(t, "secret", string(b))
}

// The steps run in order on one workspace; each answers its status, and
// the body is the status text only.
func TestCreateRoute(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	outside := outsideOf(t, dir)
	require.NoError(t, os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	require.NoError(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	for _, tc := range []struct {
		rel, kind string
		want      int
	}{
		{"new.go", wire.KindFile, http.StatusCreated},
		{"pkg/sub", wire.KindDir, http.StatusCreated},
		{"pkg/sub/x.go", wire.KindFile, http.StatusCreated},
		{"new.go", wire.KindFile, http.StatusConflict},
		{"pkg/sub", wire.KindDir, http.StatusConflict},
		{"main.go", wire.KindDir, http.StatusConflict},
		{"dangling", wire.KindFile, http.StatusConflict},
		{"leak", wire.KindFile, http.StatusConflict},
		{"nodir/x.go", wire.KindFile, http.StatusNotFound},
		{"main.go/x", wire.KindFile, http.StatusNotFound},
		{"outdir/x.go", wire.KindFile, http.StatusForbidden},
		{"outdir/x", wire.KindDir, http.StatusForbidden},
		{"../x.go", wire.KindFile, http.StatusBadRequest},
		{"/tmp/x.go", wire.KindFile, http.StatusBadRequest},
		{"", wire.KindDir, http.StatusBadRequest},
		{".", wire.KindDir, http.StatusBadRequest},
		{"loop/x", wire.KindFile, http.StatusBadRequest},
		{strings.Repeat("x", 300), wire.KindFile, http.StatusBadRequest},
		{"kindless.go", "", http.StatusBadRequest},
		{"oddkind.go", "symlink", http.StatusBadRequest},
	} {
		code, body := op(t, srv, http.MethodPost, wire.AgentEntryPath, entryQuery(tc.rel, tc.kind), token)
		require.Equal(t, tc.want, code, "%s %s", tc.kind, tc.rel)
		if code >= 400 {
			require.Equal(t, http.StatusText(code)+"\n", body, "no path or system error reaches the client")
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "new.go"))
	require.NoError(t, err)
	require.True(t, fi.Mode().IsRegular())
	require.Zero(t, fi.Size())
	fi, err = os.Stat(filepath.Join(dir, "pkg", "sub"))
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	for _, rel := range []string{"kindless.go", "oddkind.go", "nowhere"} {
		_, err := os.Lstat(filepath.Join(dir, rel))
		require.ErrorIs(t, err, os.ErrNotExist, rel)
	}
	requireOutsideUntouched(t, outside)
}

func TestMoveRoute(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	outside := outsideOf(t, dir)
	for _, tc := range []struct {
		from, to string
		want     int
	}{
		{"main.go", "pkg/main.go", http.StatusNoContent},
		{"pkg", "lib", http.StatusNoContent},
		{"leak", "lib/leak", http.StatusNoContent},
		{"script.sh", "lib/a.go", http.StatusConflict},
		{"script.sh", "lib", http.StatusConflict},
		{"lib", "lib/deeper", http.StatusBadRequest},
		{"missing.go", "x.go", http.StatusNotFound},
		{"script.sh", "nodir/s.sh", http.StatusNotFound},
		{"../x", "x", http.StatusBadRequest},
		{"script.sh", "../s.sh", http.StatusBadRequest},
		{"script.sh", "lib/../../s.sh", http.StatusBadRequest},
		{"", "x", http.StatusBadRequest},
		{".", "x", http.StatusBadRequest},
		{"script.sh", "", http.StatusBadRequest},
		{"outdir/secret", "secret", http.StatusForbidden},
		{"script.sh", "outdir/s.sh", http.StatusForbidden},
		{"script.sh", strings.Repeat("x", 300), http.StatusBadRequest},
	} {
		code, body := op(t, srv, http.MethodPost, wire.AgentMovePath, moveQuery(tc.from, tc.to), token)
		require.Equal(t, tc.want, code, "%s -> %s", tc.from, tc.to)
		if code >= 400 {
			require.Equal(t, http.StatusText(code)+"\n", body, "no path or system error reaches the client")
		}
	}
	for rel, want := range map[string]string{"lib/main.go": "package main\n", "lib/a.go": "package pkg\n", "script.sh": "#!/bin/sh\n"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		require.NoError(t, err, rel)
		require.Equal(t, want, string(b), rel)
	}
	for _, rel := range []string{"main.go", "pkg", "leak"} {
		_, err := os.Lstat(filepath.Join(dir, rel))
		require.ErrorIs(t, err, os.ErrNotExist, rel)
	}
	target, err := os.Readlink(filepath.Join(dir, "lib", "leak"))
	require.NoError(t, err, "the link moved as a link")
	require.Equal(t, filepath.Join(outside, "secret"), target)
	requireOutsideUntouched(t, outside)
}

func TestDeleteRoute(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	outside := outsideOf(t, dir)
	for _, tc := range []struct {
		rel  string
		want int
	}{
		{"outdir/secret", http.StatusForbidden},
		{"alias.go", http.StatusNoContent},
		{"outdir", http.StatusNoContent},
		{"leak", http.StatusNoContent},
		{"pkg", http.StatusNoContent},
		{"pkg", http.StatusNotFound},
		{"missing.go", http.StatusNotFound},
		{"nodir/x", http.StatusNotFound},
		{".", http.StatusBadRequest},
		{"", http.StatusBadRequest},
		{"..", http.StatusBadRequest},
		{"web/..", http.StatusBadRequest},
		{"../x", http.StatusBadRequest},
		{"/tmp", http.StatusBadRequest},
		{strings.Repeat("x", 300), http.StatusBadRequest},
	} {
		code, body := op(t, srv, http.MethodDelete, wire.AgentEntryPath, entryQuery(tc.rel, ""), token)
		require.Equal(t, tc.want, code, tc.rel)
		if code >= 400 {
			require.Equal(t, http.StatusText(code)+"\n", body, "no path or system error reaches the client")
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "main.go"))
	require.NoError(t, err, "a link's target stays")
	require.Equal(t, "package main\n", string(b))
	for _, rel := range []string{"alias.go", "outdir", "leak", "pkg"} {
		_, err := os.Lstat(filepath.Join(dir, rel))
		require.ErrorIs(t, err, os.ErrNotExist, rel)
	}
	requireOutsideUntouched(t, outside)
}

// The routes take the token like every other, and only their methods.
func TestOpsAuthAndMethods(t *testing.T) {
	t.Parallel()
	dir, srv := setup(t)
	for _, tok := range []string{"", "wrong"} {
		code, _ := op(t, srv, http.MethodPost, wire.AgentEntryPath, entryQuery("new.go", wire.KindFile), tok)
		require.Equal(t, http.StatusUnauthorized, code)
		code, _ = op(t, srv, http.MethodPost, wire.AgentMovePath, moveQuery("main.go", "moved.go"), tok)
		require.Equal(t, http.StatusUnauthorized, code)
		code, _ = op(t, srv, http.MethodDelete, wire.AgentEntryPath, entryQuery("main.go", ""), tok)
		require.Equal(t, http.StatusUnauthorized, code)
	}
	code, _ := op(t, srv, http.MethodGet, wire.AgentEntryPath, entryQuery("main.go", ""), token)
	require.Equal(t, http.StatusMethodNotAllowed, code)
	code, _ = op(t, srv, http.MethodDelete, wire.AgentMovePath, moveQuery("main.go", "moved.go"), token)
	require.Equal(t, http.StatusMethodNotAllowed, code)
	code, _ = op(t, srv, http.MethodPut, wire.AgentEntryPath, entryQuery("new.go", wire.KindFile), token)
	require.Equal(t, http.StatusMethodNotAllowed, code)

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{".git", "alias.go", "leak", "main.go", "outdir", "pkg", "script.sh", "web"}, names, "nothing changed")
}
