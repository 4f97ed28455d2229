//go:build unix

package workspace

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzPaths gives the file and search routes' path handling any path (and
// any query): a path either resolves to a regular file inside the
// workspace or is refused with one of the package's errors; nothing
// outside is read or written, nothing blocks on a FIFO, nothing panics.
// With its seeds alone it runs as an ordinary test.
func FuzzPaths(f *testing.F) {
	for _, seed := range []string{
		"a.go", "sub/b.go", "./a.go", "sub/../a.go", "../x", "sub/../../x", "/etc/passwd", "", ".", "..",
		"leak", "outdir/secret", "outdir/../a.go", "loop", "loop/x", "pipe", "sub", "a.go/x", "new.go",
		"sub/new.go", "nodir/new.go", `\x`, "a\x00b", "sub//b.go", "sub/./b.go", "%2e%2e/x", "C:/x",
		strings.Repeat("a/", 300) + "x",
	} {
		f.Add(seed)
	}
	dir, outside := f.TempDir(), f.TempDir()
	require.NoError(f, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(f, os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644))
	require.NoError(f, os.WriteFile(filepath.Join(dir, "sub", "b.go"), []byte("package sub\n"), 0o644))
	require.NoError(f, os.WriteFile(filepath.Join(outside, "secret"), []byte("secret\n"), 0o644))
	require.NoError(f, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "leak")))
	require.NoError(f, os.Symlink(outside, filepath.Join(dir, "outdir")))
	require.NoError(f, os.Symlink("loop", filepath.Join(dir, "loop")))
	require.NoError(f, syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	r, err := Open(dir)
	require.NoError(f, err)
	f.Cleanup(func() { r.Close() })
	known := []error{ErrInvalidPath, ErrEscapes, ErrNotFound, ErrNotRegular, ErrUnresolvable, ErrInvalidQuery}
	refused := func(t *testing.T, err error, what string) {
		t.Helper()
		for _, k := range known {
			if errors.Is(err, k) {
				return
			}
		}
		// The workspace's own files may be unreadable or vanish; nothing
		// else is an acceptable answer.
		require.True(t, os.IsPermission(err) || os.IsNotExist(err), "%s: unexpected error %v", what, err)
	}

	f.Fuzz(func(t *testing.T, rel string) {
		if p, err := r.resolve(rel); err == nil {
			require.False(t, filepath.IsAbs(p), "%q resolved to %q", rel, p)
			require.False(t, p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)), "%q resolved to %q", rel, p)
		}

		if file, err := r.Open(rel); err == nil {
			fi, serr := file.Stat()
			b, rerr := io.ReadAll(file)
			file.Close()
			require.NoError(t, serr)
			require.NoError(t, rerr)
			require.True(t, fi.Mode().IsRegular(), "%q", rel)
			require.NotContains(t, string(b), "secret", "%q read outside the workspace", rel)
		} else {
			refused(t, err, "open "+rel)
		}

		if err := r.WriteFile(rel, strings.NewReader("fuzzed\n")); err != nil {
			refused(t, err, "write "+rel)
		}
		got, err := os.ReadFile(filepath.Join(outside, "secret"))
		require.NoError(t, err)
		require.Equal(t, "secret\n", string(got), "%q wrote outside the workspace", rel)
		entries, err := os.ReadDir(outside)
		require.NoError(t, err)
		require.Len(t, entries, 1, "%q created a file outside the workspace", rel)
		fi, err := os.Lstat(filepath.Join(dir, "pipe"))
		require.NoError(t, err)
		require.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "%q replaced the FIFO", rel)

		res, err := r.Search(context.Background(), rel, SearchLimits{})
		if err != nil {
			refused(t, err, "search "+rel)
			return
		}
		for _, m := range res.Matches {
			require.True(t, m.Path == path.Clean(m.Path) && !path.IsAbs(m.Path) && !strings.HasPrefix(m.Path, "../"), "match path %q", m.Path)
			require.NotEqual(t, "leak", m.Path)
			require.NotContains(t, m.Text, "secret")
		}
	})
}
