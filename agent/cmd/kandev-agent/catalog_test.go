//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// An operator catalog with a bad field stops the agent at start: exit 2,
// an error naming the file, the entry and the field, and nothing listens.
func TestOperatorCatalogBadFieldStopsAgent(t *testing.T) {
	t.Parallel()
	agent := build(t)
	dir := t.TempDir()
	for name, c := range map[string]struct{ file, want string }{
		"range pin": {`{"servers":[{"id":"my-yaml","languages":["yaml"],"command":"yaml-language-server","args":["--stdio"],
			"install":{"kind":"npm","packages":["yaml-language-server@^2.0.0"],"lockfile":"lock.json"}}]}`,
			`server "my-yaml" (servers[0]): field install.packages: "yaml-language-server@^2.0.0" is not an exact npm pin`},
		"unknown language": {`{"servers":[{"id":"ok","languages":["go"],"command":"gopls","install":{"kind":"manual"}},
			{"id":"zig","languages":["zig"],"command":"zls","install":{"kind":"manual"}}]}`,
			`server "zig" (servers[1]): field languages: unknown language "zig"`},
		"path as command": {`{"servers":[{"id":"mine","languages":["go"],"command":"/tmp/gopls","install":{"kind":"manual"}}]}`,
			`server "mine" (servers[0]): field command:`},
		"built-in id": {`{"servers":[{"id":"tsgo","languages":["typescript"],"command":"tsgo","install":{"kind":"manual"}}]}`,
			`server "tsgo" (servers[0]): field id: "tsgo" is a built-in server's id`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
			require.NoError(t, os.WriteFile(file, []byte(c.file), 0o644))
			cmd := exec.Command(agent, "-addr", "127.0.0.1:0", "-workspace", t.TempDir(), "-catalog", file)
			cmd.Env = []string{"PATH=/usr/bin:/bin", "KANDEV_AGENT_TOKEN=tok", "HOME=" + t.TempDir()}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			require.Equal(t, 2, ee.ExitCode())
			require.Contains(t, stderr.String(), "kandev-agent: operator catalog "+file+": "+c.want)
			require.Empty(t, stdout.String(), "nothing listens")
		})
	}
}

// An operator entry runs like a built-in one when a stream names it (its
// command found on the task PATH, never in the workspace), and the
// installers route lists it after the built-in entries of its language.
func TestOperatorCatalogServes(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ws, bin, dir := t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "my-linter"), []byte("#!/bin/sh\necho \"$*\" > args\nexec cat\n"), 0o755))
	file := filepath.Join(dir, "catalog.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"servers":[{"id":"my-linter","languages":["python","shell"],"command":"my-linter",
		"args":["serve","--stdio"],"install":{"kind":"manual","guidance":"pipx install my-linter==1.0.0"},
		"initializationOptions":{"strict":true},"features":["diagnostics"]}]}`), 0o644))
	_, base := startBinary(t, ctx, build(t), ws, []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir()}, nil, "-catalog", file)

	u := "ws" + strings.TrimPrefix(base, "http") + wire.AgentStreamPath + "?language=shell&server=my-linter"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	defer c.CloseNow()
	ready := nextStatus(t, ctx, c, wire.StatusReady)
	require.Equal(t, "my-linter", ready.Server)
	require.JSONEq(t, `{"strict":true}`, string(ready.InitializationOptions))
	require.Equal(t, []string{wire.FeatureDiagnostics}, ready.Features)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(filepath.Join(ws, "args")); return string(b) == "serve --stdio\n" }, 10*time.Second, 5*time.Millisecond)

	// Not for a language it does not serve.
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+wire.AgentStreamPath+"?language=go&server=my-linter",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.Error(t, err)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)

	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+wire.AgentInstallersPath, nil)
	req.Header.Set("Authorization", "Bearer tok")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var got wire.Installers
	require.NoError(t, json.NewDecoder(res.Body).Decode(&got))
	for _, l := range got.Languages {
		if l.Language != wire.Python && l.Language != wire.Shell {
			continue
		}
		last := l.Servers[len(l.Servers)-1]
		require.Equal(t, "my-linter", last.Server, l.Language)
		require.True(t, last.Operator)
		require.False(t, last.Default)
		require.True(t, last.Found)
		require.Equal(t, "pipx install my-linter==1.0.0", last.Guidance)
	}
}
