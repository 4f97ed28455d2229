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
