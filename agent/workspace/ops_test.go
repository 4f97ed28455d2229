package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// opsSetup is a workspace for create, move and delete, with a directory
// outside it that links lead to:
//
//	a.go  sub/b.go  sub/deep/c.go  sub/deep/out -> outside  empty/
//	leak -> outside/secret  outdir -> outside  dangling -> nowhere
//	inlink -> sub  rootlink -> the workspace itself  loop -> loop
//	outside: secret  f  d/g
func opsSetup(t *testing.T) (dir, outside string, r *Root) {
	t.Helper()
	dir, outside = t.TempDir(), t.TempDir()
	for rel, content := range map[string]string{"a.go": "a", "sub/b.go": "b", "sub/deep/c.go": "c"} {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "empty"), 0o755))
	for rel, content := range map[string]string{"secret": "secret", "f": "f", "d/g": "g"} {
		p := filepath.Join(outside, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	for link, target := range map[string]string{
		"sub/deep/out": outside, "leak": filepath.Join(outside, "secret"), "outdir": outside,
		"dangling": "nowhere", "inlink": "sub", "rootlink": dir, "loop": "loop",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
	r, err := Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return dir, outside, r
}

// snapshot maps every entry under dir, symlinks not followed, to what it
// is: "dir", "link:" and its target, or a file's content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			require.NoError(t, err)
			m[rel] = "link:" + target
		case d.IsDir():
			m[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			m[rel] = string(b)
		}
		return nil
	}))
	return m
}

// exists reports whether the workspace holds rel (a link not followed).
func exists(dir, rel string) bool {
	_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// Each case runs on a fresh workspace. A refused operation changes
// nothing, inside or outside; none touches the outside at all.
func TestCreate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, rel string
		dir       bool
		want      error
		at        string // where the new entry is, if not rel
	}{
		{name: "file", rel: "new.go"},
		{name: "file in a subdirectory", rel: "sub/deep/new.go"},
		{name: "dir", rel: "sub/newdir", dir: true},
		{name: "through a link inside", rel: "inlink/new.go", at: "sub/new.go"},
		{name: "cleaned", rel: "sub/./deep/../n.go", at: "sub/n.go"},
		{name: "file over a file", rel: "a.go", want: ErrExists},
		{name: "dir over a file", rel: "a.go", dir: true, want: ErrExists},
		{name: "file over a dir", rel: "sub", want: ErrExists},
		{name: "dir over a dir", rel: "empty", dir: true, want: ErrExists},
		{name: "file over a dangling link", rel: "dangling", want: ErrExists},
		{name: "dir over a dangling link", rel: "dangling", dir: true, want: ErrExists},
		{name: "over a link out", rel: "leak", want: ErrExists},
		{name: "in a missing dir", rel: "nodir/x.go", want: ErrNotFound},
		{name: "dir in a missing dir", rel: "nodir/x", dir: true, want: ErrNotFound},
		{name: "in a file", rel: "a.go/x", want: ErrNotFound},
		{name: "through a link out", rel: "outdir/x.go", want: ErrEscapes},
		{name: "dir through a link out", rel: "outdir/x", dir: true, want: ErrEscapes},
		{name: "deeper through a link out", rel: "sub/deep/out/d/x", want: ErrEscapes},
		{name: "dotdot", rel: "../x.go", want: ErrInvalidPath},
		{name: "dotdot inside", rel: "sub/../../x.go", want: ErrInvalidPath},
		{name: "absolute", rel: "/tmp/x.go", want: ErrInvalidPath},
		{name: "empty", rel: "", dir: true, want: ErrInvalidPath},
		{name: "root", rel: ".", dir: true, want: ErrInvalidPath},
		{name: "a name too long", rel: "sub/" + strings.Repeat("x", 300), want: ErrUnresolvable},
		{name: "through a loop", rel: "loop/x", want: ErrUnresolvable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, outside, r := opsSetup(t)
			before, out := snapshot(t, dir), snapshot(t, outside)
			err := r.Create(tc.rel, tc.dir)
			require.Equal(t, out, snapshot(t, outside), "the outside is untouched")
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				require.Equal(t, before, snapshot(t, dir), "a refused create changes nothing")
				return
			}
			require.NoError(t, err)
			at := tc.at
			if at == "" {
				at = tc.rel
			}
			fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(at)))
			require.NoError(t, err)
			if tc.dir {
				require.True(t, fi.IsDir())
			} else {
				require.True(t, fi.Mode().IsRegular())
				require.Zero(t, fi.Size())
			}
			require.Len(t, snapshot(t, dir), len(before)+1, "one entry more, nothing else")
		})
	}
}

func TestMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, from, to string
		want           error
		gone, there    []string // after a move: entries no longer there, entries now there
		check          func(t *testing.T, dir, outside string)
	}{
		{name: "rename a file", from: "a.go", to: "z.go", gone: []string{"a.go"}, there: []string{"z.go"}, check: func(t *testing.T, dir, _ string) {
			b, err := os.ReadFile(filepath.Join(dir, "z.go"))
			require.NoError(t, err)
			require.Equal(t, "a", string(b))
		}},
		{name: "move a file down", from: "a.go", to: "sub/deep/a.go", gone: []string{"a.go"}, there: []string{"sub/deep/a.go"}},
		{name: "move a file up", from: "sub/deep/c.go", to: "c.go", gone: []string{"sub/deep/c.go"}, there: []string{"c.go"}},
		{name: "through a link inside", from: "inlink/b.go", to: "b.go", gone: []string{"sub/b.go"}, there: []string{"b.go", "inlink"}},
		{name: "dir with contents", from: "sub", to: "moved",
			gone:  []string{"sub", "sub/b.go"},
			there: []string{"moved/b.go", "moved/deep/c.go", "moved/deep/out"}},
		{name: "dir into another", from: "sub", to: "empty/sub", gone: []string{"sub"}, there: []string{"empty/sub/deep/c.go"}},
		{name: "a link out, not its target", from: "leak", to: "sub/leak", gone: []string{"leak"}, check: func(t *testing.T, dir, outside string) {
			target, err := os.Readlink(filepath.Join(dir, "sub", "leak"))
			require.NoError(t, err, "still a link")
			require.Equal(t, filepath.Join(outside, "secret"), target)
		}},
		{name: "a link to a dir out", from: "outdir", to: "empty/outdir", gone: []string{"outdir"}, check: func(t *testing.T, dir, outside string) {
			target, err := os.Readlink(filepath.Join(dir, "empty", "outdir"))
			require.NoError(t, err, "still a link")
			require.Equal(t, outside, target)
		}},
		{name: "a dangling link", from: "dangling", to: "d2", gone: []string{"dangling"}, check: func(t *testing.T, dir, _ string) {
			target, err := os.Readlink(filepath.Join(dir, "d2"))
			require.NoError(t, err)
			require.Equal(t, "nowhere", target)
		}},
		{name: "a link to the root", from: "rootlink", to: "sub/rootlink", gone: []string{"rootlink"}, there: []string{"a.go", "sub/rootlink"}},
		{name: "onto a file", from: "a.go", to: "sub/b.go", want: ErrExists},
		{name: "onto a dir", from: "a.go", to: "empty", want: ErrExists},
		{name: "dir onto an empty dir", from: "sub", to: "empty", want: ErrExists},
		{name: "onto a dangling link", from: "a.go", to: "dangling", want: ErrExists},
		{name: "onto itself", from: "a.go", to: "./a.go", want: ErrExists},
		{name: "dir onto itself", from: "sub", to: "sub", want: ErrExists},
		{name: "dir into itself", from: "sub", to: "sub/sub", want: ErrInvalidPath},
		{name: "dir below itself", from: "sub", to: "sub/deep/sub", want: ErrInvalidPath},
		{name: "dir below itself through a link", from: "sub", to: "inlink/deep/x", want: ErrInvalidPath},
		{name: "missing", from: "missing.go", to: "x.go", want: ErrNotFound},
		{name: "from a missing dir", from: "nodir/x.go", to: "x.go", want: ErrNotFound},
		{name: "to a missing dir", from: "a.go", to: "nodir/a.go", want: ErrNotFound},
		{name: "from outside by dotdot", from: "../x", to: "x", want: ErrInvalidPath},
		{name: "to outside by dotdot", from: "a.go", to: "../a.go", want: ErrInvalidPath},
		{name: "to outside by dotdot inside", from: "a.go", to: "sub/../../a.go", want: ErrInvalidPath},
		{name: "to absolute", from: "a.go", to: "/tmp/a.go", want: ErrInvalidPath},
		{name: "the root", from: ".", to: "x", want: ErrInvalidPath},
		{name: "the root, cleaned", from: "sub/..", to: "x", want: ErrInvalidPath},
		{name: "to the root", from: "a.go", to: "", want: ErrInvalidPath},
		{name: "from outside by a link", from: "outdir/f", to: "f", want: ErrEscapes},
		{name: "to outside by a link", from: "a.go", to: "outdir/a.go", want: ErrEscapes},
		{name: "dir to outside by a deeper link", from: "empty", to: "sub/deep/out/empty", want: ErrEscapes},
		{name: "from a name too long", from: strings.Repeat("x", 300), to: "x", want: ErrUnresolvable},
		{name: "to a name too long", from: "a.go", to: strings.Repeat("x", 300), want: ErrUnresolvable},
		{name: "a loop", from: "loop", to: "loop2", gone: []string{"loop"}},
		{name: "through a loop", from: "a.go", to: "loop/a.go", want: ErrUnresolvable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, outside, r := opsSetup(t)
			before, out := snapshot(t, dir), snapshot(t, outside)
			err := r.Move(tc.from, tc.to)
			require.Equal(t, out, snapshot(t, outside), "the outside is untouched")
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				require.Equal(t, before, snapshot(t, dir), "a refused move changes nothing")
				return
			}
			require.NoError(t, err)
			for _, rel := range tc.gone {
				require.False(t, exists(dir, rel), "%s still there", rel)
			}
			for _, rel := range append([]string{tc.to}, tc.there...) {
				require.True(t, exists(dir, rel), "%s not there", rel)
			}
			require.Len(t, snapshot(t, dir), len(before), "entries moved, none made or lost")
			if tc.check != nil {
				tc.check(t, dir, outside)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, rel string
		want      error
		gone      []string // entries no longer there: rel alone if nil
	}{
		{name: "file", rel: "a.go"},
		{name: "file deep", rel: "sub/deep/c.go"},
		{name: "empty dir", rel: "empty"},
		{name: "dir tree", rel: "sub", gone: []string{"sub", "sub/b.go", "sub/deep", "sub/deep/c.go", "sub/deep/out"}},
		{name: "a link to a file out", rel: "leak"},
		{name: "a link to a dir out", rel: "outdir"},
		{name: "a link to a dir out, deep", rel: "sub/deep/out"},
		{name: "a dangling link", rel: "dangling"},
		{name: "a link to a dir inside", rel: "inlink"},
		{name: "a link to the root", rel: "rootlink"},
		{name: "through a link inside", rel: "inlink/b.go", gone: []string{"sub/b.go"}},
		{name: "root", rel: ".", want: ErrInvalidPath},
		{name: "empty", rel: "", want: ErrInvalidPath},
		{name: "dotdot", rel: "..", want: ErrInvalidPath},
		{name: "root, cleaned", rel: "sub/..", want: ErrInvalidPath},
		{name: "dotdot below", rel: "../x", want: ErrInvalidPath},
		{name: "absolute", rel: "/tmp", want: ErrInvalidPath},
		{name: "missing", rel: "missing.go", want: ErrNotFound},
		{name: "in a missing dir", rel: "nodir/x", want: ErrNotFound},
		{name: "through a link out", rel: "outdir/f", want: ErrEscapes},
		{name: "a dir through a link out", rel: "outdir/d", want: ErrEscapes},
		{name: "a name too long", rel: strings.Repeat("x", 300), want: ErrUnresolvable},
		{name: "a loop", rel: "loop"},
		{name: "through a loop", rel: "loop/x", want: ErrUnresolvable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, outside, r := opsSetup(t)
			before, out := snapshot(t, dir), snapshot(t, outside)
			err := r.Delete(tc.rel)
			require.Equal(t, out, snapshot(t, outside), "the outside is untouched")
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				require.Equal(t, before, snapshot(t, dir), "a refused delete changes nothing")
				return
			}
			require.NoError(t, err)
			after := snapshot(t, dir)
			gone := tc.gone
			if gone == nil {
				gone = []string{tc.rel}
			}
			for _, rel := range gone {
				rel = filepath.FromSlash(rel)
				require.Contains(t, before, rel)
				require.NotContains(t, after, rel)
				delete(before, rel)
			}
			require.Equal(t, before, after, "nothing else removed")
		})
	}
}

// FuzzOps gives Create, Move and Delete any paths, on a fresh workspace
// each time: each either succeeds or is refused with one of the
// package's errors, and the outside is never touched. With its seeds
// alone it runs as an ordinary test.
func FuzzOps(f *testing.F) {
	for _, seed := range [][2]string{
		{"a.go", "b.go"}, {"sub", "sub/x"}, {"inlink", "x"}, {"outdir", "x"}, {"outdir/f", "x"}, {"x", "outdir/x"},
		{"sub/deep/out", "out"}, {"sub/deep/out/d", "d"}, {"rootlink", "sub/r"}, {"rootlink/a.go", "z"},
		{"leak", "sub/leak"}, {"dangling", "x"}, {".", "x"}, {"", ""}, {"..", "../x"}, {"sub/..", "x"},
		{"/abs", "a.go"}, {"a.go/x", "a.go/y"}, {strings.Repeat("x", 300), "sub/" + strings.Repeat("y", 300)}, {"loop/x", "loop"}, {`\x`, "a\x00b"}, {"C:/x", "sub//b.go"}, {"%2e%2e/x", "./a.go"},
	} {
		f.Add(seed[0], seed[1])
	}
	known := []error{ErrInvalidPath, ErrEscapes, ErrNotFound, ErrUnresolvable, ErrExists}
	refused := func(t *testing.T, err error, what string) {
		t.Helper()
		for _, k := range known {
			if errors.Is(err, k) {
				return
			}
		}
		t.Fatalf("%s: unexpected error %v", what, err)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		dir, outside, r := opsSetup(t)
		out := snapshot(t, outside)
		if err := r.Create(a, len(b)%2 == 0); err != nil {
			refused(t, err, "create "+a)
		}
		if err := r.Move(a, b); err != nil {
			refused(t, err, "move "+a+" "+b)
		}
		if err := r.Delete(b); err != nil {
			refused(t, err, "delete "+b)
		}
		require.Equal(t, out, snapshot(t, outside), "%q %q touched the outside", a, b)
		fi, err := os.Stat(dir)
		require.NoError(t, err, "the workspace itself is there")
		require.True(t, fi.IsDir())
	})
}
