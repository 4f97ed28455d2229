package taskenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func writeExe(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), mode))
	return p
}

func TestParse(t *testing.T) {
	t.Parallel()
	m := Parse([]string{"A=1", "B=x=y", "NOEQ", "=C:=C:\\", "A=2", "E="})
	require.Equal(t, map[string]string{"A": "2", "B": "x=y", "E": ""}, m)
}

func TestLookPath(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	writeExe(t, a, "noexec", 0o644)
	want := writeExe(t, b, "noexec", 0o755)
	require.NoError(t, os.Mkdir(filepath.Join(a, "dir"), 0o755))
	first := writeExe(t, a, "both", 0o755)
	writeExe(t, b, "both", 0o755)

	e := New(map[string]string{"PATH": "relative:" + a + "::" + b})
	got, err := e.LookPath("noexec")
	require.NoError(t, err)
	require.Equal(t, want, got, "non-executable files are skipped")
	got, err = e.LookPath("both")
	require.NoError(t, err)
	require.Equal(t, first, got, "PATH order wins")
	_, err = e.LookPath("dir")
	require.ErrorIs(t, err, ErrNotFound, "directories are not executables")
	_, err = e.LookPath("missing")
	require.ErrorIs(t, err, ErrNotFound)

	extra := t.TempDir()
	inExtra := writeExe(t, extra, "tool", 0o755)
	got, err = e.LookPath("tool", "also-relative", extra)
	require.NoError(t, err)
	require.Equal(t, inExtra, got)
}

// A relative PATH entry resolves against the agent's working directory,
// which may be the repository: it must never supply a server binary.
func TestLookPathIgnoresRelative(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".kandev", "lsp-servers"), 0o755))
	writeExe(t, filepath.Join(dir, ".kandev", "lsp-servers"), "kotlin-lsp", 0o755)
	t.Chdir(dir)
	e := New(map[string]string{"PATH": ".kandev/lsp-servers:."})
	_, err := e.LookPath("kotlin-lsp")
	require.ErrorIs(t, err, ErrNotFound)
}

func TestGoBinDirs(t *testing.T) {
	t.Parallel()
	e := New(map[string]string{"GOBIN": "/gobin", "GOPATH": "/gp1:rel:/gp2", "HOME": "/home/u"})
	require.Equal(t, []string{"/gobin", "/gp1/bin", "/gp2/bin", "/home/u/go/bin"}, e.GoBinDirs())
	e = New(map[string]string{"GOBIN": "rel", "HOME": "rel"})
	require.Empty(t, e.GoBinDirs())

	w := &Env{vars: map[string]string{"USERPROFILE": `C:\Users\dev`, "GoPath": `D:\go;rel`}, GOOS: "windows"}
	require.Equal(t, []string{`D:\go\bin`, `C:\Users\dev\go\bin`}, w.GoBinDirs())
	w = &Env{vars: map[string]string{"USERPROFILE": `C:\Users\dev`, "HOME": `C:\msys\home\dev`}, GOOS: "windows"}
	require.Equal(t, []string{`C:\Users\dev\go\bin`, `C:\msys\home\dev\go\bin`}, w.GoBinDirs(), "Go's default (USERPROFILE) first, then HOME")
	u := New(map[string]string{"USERPROFILE": "/x", "HOME": "/h"})
	require.Equal(t, []string{"/h/go/bin"}, u.GoBinDirs(), "USERPROFILE is Windows-only")
}

func TestWindowsRules(t *testing.T) {
	t.Parallel()
	w := &Env{vars: map[string]string{"Path": `C:\a;b`, "PATHEXT": ".EXE;.CMD"}, GOOS: "windows"}
	require.Equal(t, `C:\a;b`, w.Get("PATH"), "names are case-insensitive")
	require.Equal(t, []string{"gopls.exe", "gopls.cmd"}, w.candidates("gopls"))
	require.Equal(t, []string{"tsls.CMD"}, w.candidates("tsls.CMD"))
	for p, abs := range map[string]bool{`C:\x`: true, `c:/x`: true, `\\srv\share`: true, `C:x`: false, `x\y`: false, `/x`: false} {
		require.Equal(t, abs, w.IsAbs(p), p)
	}
	w.vars = map[string]string{}
	require.Equal(t, []string{"a.com", "a.exe", "a.bat", "a.cmd"}, w.candidates("a"))
}

func TestListSorted(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"A=1", "B=2"}, New(map[string]string{"B": "2", "A": "1"}).List())
}

func TestHome(t *testing.T) {
	t.Parallel()
	require.Equal(t, "/home/u", New(map[string]string{"HOME": "/home/u"}).Home())
	require.Empty(t, New(map[string]string{"HOME": "rel/home"}).Home(), "relative homes are ignored")
	require.Empty(t, New(map[string]string{"USERPROFILE": "/x"}).Home(), "USERPROFILE is Windows-only")
	w := &Env{vars: map[string]string{"USERPROFILE": `C:\Users\dev`}, GOOS: "windows"}
	require.Equal(t, `C:\Users\dev`, w.Home())
	require.Equal(t, `C:\Users\dev\.kandev`, w.Join(w.Home(), ".kandev"))
}
