//go:build unix

package install

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// TestRealNPMInstall installs the pinned typescript-language-server +
// typescript and pyright from the npm registry into a fresh task HOME,
// then starts each launcher with --stdio and completes a real LSP
// initialize. It needs the network and a minute, so it runs only with
// KANDEV_REAL_INSTALL=1.
func TestRealNPMInstall(t *testing.T) {
	if os.Getenv("KANDEV_REAL_INSTALL") != "1" {
		t.Skip("set KANDEV_REAL_INSTALL=1 to npm install the real servers from the registry")
	}
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm on PATH")
	home := t.TempDir()
	// The task is this machine with another HOME: the machine's global
	// npmrc (CA file, proxy) still applies, the user one does not.
	vars := taskenv.Parse(os.Environ())
	vars["HOME"] = home
	vars["PATH"] = filepath.Dir(npm) + ":" + vars["PATH"]
	env := taskenv.New(vars)
	m := New(Config{})
	workspace := t.TempDir()
	for _, lang := range []wire.Language{wire.TypeScript, wire.Python} {
		t.Run(string(lang), func(t *testing.T) {
			job, err := m.Prepare(env, lang)
			require.NoError(t, err)
			start := time.Now()
			res, err := job.Run(context.Background())
			require.NoError(t, err, Detail(err))
			t.Logf("npm install for %s took %v", lang, time.Since(start).Round(time.Millisecond))
			require.True(t, strings.HasPrefix(res.Path, filepath.Join(home, ".kandev", "lsp-servers")+"/"), res.Path)
			later, err := ManagedLauncher(env, lang)
			require.NoError(t, err)
			require.Equal(t, res.Path, later)
			requirePinned(t, filepath.Dir(filepath.Dir(filepath.Dir(res.Path))))
			initialize(t, env, res.Path, workspace)
		})
	}
}

// requirePinned checks that the destination holds exactly the pinned
// versions, recorded exactly in its package.json.
func requirePinned(t *testing.T, dest string) {
	t.Helper()
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dest, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pkg))
	require.NotEmpty(t, pkg.Dependencies)
	for name, version := range pkg.Dependencies {
		want := map[string]string{
			"typescript-language-server": TypeScriptLanguageServerVersion,
			"typescript":                 TypeScriptVersion,
			"pyright":                    PyrightVersion,
		}[name]
		require.Equal(t, want, version, name)
		var installed struct{ Version string }
		b, err := os.ReadFile(filepath.Join(dest, "node_modules", name, "package.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &installed))
		require.Equal(t, want, installed.Version, name)
	}
}

// initialize starts a language server with --stdio and checks that it
// answers initialize with capabilities.
func initialize(t *testing.T, env *taskenv.Env, path, workspace string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--stdio")
	cmd.Dir = workspace
	cmd.Env = env.List()
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()

	req, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": 1, "method": "initialize",
		"params": map[string]any{
			"processId": os.Getpid(), "rootUri": wire.FileURI(workspace),
			"capabilities": map[string]any{}, "workspaceFolders": nil,
		},
	})
	require.NoError(t, err)
	require.NoError(t, framing.NewWriter(stdin).Write(req))
	r := framing.NewReader(stdout)
	for {
		body, err := r.Read()
		require.NoError(t, err)
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		require.NoError(t, json.Unmarshal(body, &msg))
		if msg.ID == nil || *msg.ID != 1 || msg.Result == nil && msg.Error == nil {
			continue // a notification or a server request before the reply
		}
		require.Nil(t, msg.Error, string(body))
		var result struct {
			Capabilities map[string]any `json:"capabilities"`
		}
		require.NoError(t, json.Unmarshal(msg.Result, &result))
		require.NotEmpty(t, result.Capabilities, string(msg.Result))
		t.Logf("%s: %d capabilities", filepath.Base(path), len(result.Capabilities))
		return
	}
}
