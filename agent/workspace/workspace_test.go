package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

func TestSearchBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var many strings.Builder
	for i := 0; i < MaxSearchMatches+5; i++ {
		many.WriteString("needle\n")
	}
	files := map[string]string{
		"a/many.txt":  many.String(),
		"b/wide.txt":  "x😀 Needle " + strings.Repeat("y", 2*MaxSearchLineLength) + "\n",
		"c/bin.dat":   "needle\x00\n",
		"c/large.txt": strings.Repeat("needle\n", MaxSearchFileSize/7+1),
	}
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	r, err := Open(dir)
	require.NoError(t, err)
	defer r.Close()

	res, err := r.Search(context.Background(), "needle", SearchLimits{})
	require.NoError(t, err)
	require.Len(t, res.Matches, MaxSearchMatches, "bounded")
	require.True(t, res.Truncated)

	require.NoError(t, os.Remove(filepath.Join(dir, "a/many.txt")))
	res, err = r.Search(context.Background(), "NEEDLE", SearchLimits{})
	require.NoError(t, err)
	require.False(t, res.Truncated)
	// Binary and oversized files are not read; columns count UTF-16 units
	// as Monaco does (the emoji is two), and a long line is cut.
	require.Len(t, res.Matches, 1)
	m := res.Matches[0]
	require.Equal(t, "b/wide.txt", m.Path)
	require.Equal(t, 5, m.Column)
	require.Equal(t, 11, m.EndColumn)
	require.Len(t, m.Text, MaxSearchLineLength)
}
