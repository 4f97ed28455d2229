package webdemo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMaxConnectionsFromEnv(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"": 0, " ": 0, "1": 1, " 12 ": 12} {
		n, err := MaxConnectionsFromEnv(v)
		require.NoError(t, err, v)
		require.Equal(t, want, n, v)
	}
	for _, v := range []string{"0", "-3", "eight", "1.5"} {
		_, err := MaxConnectionsFromEnv(v)
		require.ErrorContains(t, err, EnvMaxConnections, v)
	}
}

func TestWithUnlaunchable(t *testing.T) {
	t.Parallel()
	env, err := WithUnlaunchable([]string{"PATH=/usr/bin", "HOME=/h"}, t.TempDir(), []string{"rust-analyzer"})
	require.NoError(t, err)
	path := env[len(env)-1]
	require.True(t, strings.HasPrefix(path, "PATH="))
	dir := filepath.SplitList(strings.TrimPrefix(path, "PATH="))[0]
	bin := filepath.Join(dir, "rust-analyzer")
	fi, err := os.Stat(bin)
	require.NoError(t, err)
	require.NotZero(t, fi.Mode().Perm()&0o111, "found by a PATH lookup")
	err = exec.Command(bin).Run()
	require.ErrorContains(t, err, "exec format error", "and it cannot run")

	_, err = WithUnlaunchable(nil, t.TempDir(), []string{"../x"})
	require.Error(t, err)
}

func TestInitRepositories(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "api"), 0o755))
	require.NoError(t, InitRepositories(t.Context(), ws, []string{"api"}))
	fi, err := os.Stat(filepath.Join(ws, "api", ".git"))
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	for _, bad := range []string{"../x", "/abs", "missing", ".git"} {
		require.Error(t, InitRepositories(t.Context(), ws, []string{bad}), bad)
	}
}
