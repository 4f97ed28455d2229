package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

func TestEveryLanguageHasAServer(t *testing.T) {
	t.Parallel()
	for _, l := range wire.Languages {
		s, err := Lookup(string(l.Language))
		require.NoError(t, err, l.Language)
		require.Equal(t, l.Language, s.Language)
		require.NotEmpty(t, s.Command)
	}
	_, err := Lookup("cobol")
	require.ErrorIs(t, err, ErrUnknownLanguage)
	_, err = Lookup("")
	require.ErrorIs(t, err, ErrUnknownLanguage)
}

func TestCommands(t *testing.T) {
	t.Parallel()
	want := map[wire.Language][]string{
		wire.Go:         {"gopls"},
		wire.TypeScript: {"typescript-language-server", "--stdio"},
		wire.Python:     {"pyright-langserver", "--stdio"},
		wire.Rust:       {"rust-analyzer"},
		wire.Kotlin:     {"kotlin-lsp", "--stdio"},
	}
	for l, argv := range want {
		s, err := Lookup(string(l))
		require.NoError(t, err)
		require.Equal(t, argv, append([]string{s.Command}, s.Args...))
	}
}

func TestAutoInstallable(t *testing.T) {
	t.Parallel()
	get := func(l wire.Language) Server { s, _ := Lookup(string(l)); return s }
	require.True(t, get(wire.Go).AutoInstallable("linux"))
	require.True(t, get(wire.Rust).AutoInstallable("linux"))
	require.False(t, get(wire.Rust).AutoInstallable("windows"))
	require.False(t, get(wire.Kotlin).AutoInstallable("linux"))
}

func TestLocateGoplsInGoBin(t *testing.T) {
	t.Parallel()
	gobin := t.TempDir()
	p := filepath.Join(gobin, "gopls")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
	env := taskenv.New(map[string]string{"PATH": t.TempDir(), "GOBIN": gobin})
	s, _ := Lookup("go")
	got, err := s.Locate(env)
	require.NoError(t, err)
	require.Equal(t, p, got)

	// Go bin directories are only for Go-installed servers.
	require.NoError(t, os.WriteFile(filepath.Join(gobin, "kotlin-lsp"), []byte("#!/bin/sh\n"), 0o755))
	k, _ := Lookup("kotlin")
	_, err = k.Locate(env)
	require.ErrorIs(t, err, taskenv.ErrNotFound)
}

// The managed cache comes from the task HOME: an npm server is found in
// its node_modules/.bin, a release server in its directory, and nothing
// from a relative home or the repository.
func TestLocateManagedCache(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ts, _ := Lookup("typescript")
	rust, _ := Lookup("rust")
	env := taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": home})
	_, err := ts.Locate(env)
	require.ErrorIs(t, err, taskenv.ErrNotFound)

	npmBin := filepath.Join(home, ".kandev", "lsp-servers", "typescript-language-server", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(npmBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(npmBin, "typescript-language-server"), []byte("#!/bin/sh\n"), 0o755))
	got, err := ts.Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(npmBin, "typescript-language-server"), got)

	rdir := filepath.Join(home, ".kandev", "lsp-servers", "rust-analyzer")
	require.NoError(t, os.MkdirAll(rdir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(rdir, "rust-analyzer"), []byte("#!/bin/sh\n"), 0o755))
	got, err = rust.Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(rdir, "rust-analyzer"), got)

	// A relative HOME (say, the repository) supplies nothing.
	ws := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".kandev", "lsp-servers", "rust-analyzer"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".kandev", "lsp-servers", "rust-analyzer", "rust-analyzer"), []byte("#!/bin/sh\n"), 0o755))
	rel := taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": "."})
	_, err = rust.Locate(rel)
	require.ErrorIs(t, err, taskenv.ErrNotFound)
	require.Empty(t, ManagedRoot(rel))
}

func TestInstallDirsWindows(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"USERPROFILE": `C:\Users\dev`})
	env.GOOS = "windows"
	ts, _ := Lookup("typescript")
	g, _ := Lookup("go")
	k, _ := Lookup("kotlin")
	require.Equal(t, []string{`C:\Users\dev\.kandev\lsp-servers\typescript-language-server\node_modules\.bin`}, ts.InstallDirs(env))
	require.Equal(t, []string{`C:\Users\dev\go\bin`}, g.InstallDirs(env))
	require.Empty(t, k.InstallDirs(env))
}
