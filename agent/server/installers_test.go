//go:build linux

package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/internal/wire"
)

// The installers route describes the agent's own installers (the
// Manager's plan: the configured release mirror, the npm cache directory
// of the task HOME) beside discovery's answer (command, found, path).
func TestInstallersRouteUsesManager(t *testing.T) {
	t.Parallel()
	ws, home, bin := t.TempDir(), t.TempDir(), t.TempDir()
	gopls := filepath.Join(bin, "gopls")
	require.NoError(t, os.WriteFile(gopls, []byte("#!/bin/sh\n"), 0o755))
	s, err := New(Config{
		Workspace: ws, Token: token, GOOS: "linux", GOARCH: "amd64",
		Env:     map[string]string{"PATH": bin, "HOME": home},
		Install: install.Config{ReleaseBaseURL: "http://127.0.0.1:1/mirror"},
	})
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { _ = s.Shutdown(context.Background()); hs.Close() })

	req, _ := http.NewRequest(http.MethodGet, hs.URL+wire.AgentInstallersPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var got wire.Installers
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	m := map[wire.Language]wire.InstallerInfo{}
	for _, l := range got.Languages {
		m[l.Language] = l.InstallerInfo
	}
	cache := filepath.Join(home, ".kandev", "lsp-servers")
	rust := m[wire.Rust]
	require.Equal(t, "http://127.0.0.1:1/mirror/rust-analyzer-x86_64-unknown-linux-gnu.gz", rust.Download)
	require.Equal(t, "rust-analyzer", rust.Command)
	require.False(t, rust.Found)
	require.Equal(t, filepath.Join(cache, "rust-analyzer"), rust.Destination)
	ts := m[wire.TypeScript]
	require.Equal(t, filepath.Join(cache, "typescript-language-server"), ts.WorkDir)
	require.Equal(t, "typescript-language-server", ts.Command)
	goInfo := m[wire.Go]
	require.True(t, goInfo.Found)
	require.Equal(t, gopls, goInfo.Path)
	require.Equal(t, []string{"go", "install", "golang.org/x/tools/gopls@" + catalog.Version("gopls")}, goInfo.InstallCommand)
}
