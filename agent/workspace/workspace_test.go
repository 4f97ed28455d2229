package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRepoSubpaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mk := func(rel string) { require.NoError(t, os.MkdirAll(filepath.Join(dir, rel), 0o755)) }
	mk(".git")
	mk("api/.git")
	mk("api/vendor/x/.git") // inside a repository already found
	mk("libs/ui/.git")      // depth 2
	mk("deep/a/b/.git")     // too deep
	mk("node_modules/m/.git")
	mk(".cache/r/.git")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "libs", "wt"), nil, 0o644))
	mk("worktree")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "worktree", ".git"), []byte("gitdir: x"), 0o644))

	r, err := Open(dir)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, []string{".", "api", "libs/ui", "worktree"}, r.RepoSubpaths())

	empty, err := Open(t.TempDir())
	require.NoError(t, err)
	defer empty.Close()
	require.Empty(t, empty.RepoSubpaths())
}

func TestOpenRejectsRelative(t *testing.T) {
	t.Parallel()
	_, err := Open("relative/dir")
	require.Error(t, err)
}

func TestClean(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"a/b": "a/b", "a//b/": "a/b", "a/./b": "a/b", "a/../b": "b"} {
		got, err := clean(in)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	for _, in := range []string{"", ".", "..", "../a", "a/../..", "/abs", "a\x00b", `\x`} {
		_, err := clean(in)
		require.ErrorIs(t, err, ErrInvalidPath, in)
	}
}
