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

	"github.com/kandev/lsp/agent/catalog"
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

// KANDEV_AGENT_CATALOG names the operator catalog as -catalog does, for a
// container that sets variables rather than a command line: its entries
// are validated the same way at start.
func TestOperatorCatalogFromVariable(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "catalog.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"servers":[{"id":"zig","languages":["zig"],"command":"zls","install":{"kind":"manual"}}]}`), 0o644))
	cmd := exec.Command(build(t), "-addr", "127.0.0.1:0", "-workspace", t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "KANDEV_AGENT_TOKEN=tok", "HOME=" + t.TempDir(), "KANDEV_AGENT_CATALOG=" + file}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var ee *exec.ExitError
	require.ErrorAs(t, cmd.Run(), &ee)
	require.Equal(t, 2, ee.ExitCode())
	require.Contains(t, stderr.String(), "kandev-agent: operator catalog "+file+`: server "zig" (servers[0]): field languages: unknown language "zig"`)
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
		"initializationOptions":{"strict":true},"configuration":{"lint":{"level":"all"}},"features":["diagnostics"]}]}`), 0o644))
	_, base := startBinary(t, ctx, build(t), ws, []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir()}, nil, "-catalog", file)

	u := "ws" + strings.TrimPrefix(base, "http") + wire.AgentStreamPath + "?language=shell&server=my-linter"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	defer c.CloseNow()
	ready := nextStatus(t, ctx, c, wire.StatusReady)
	require.Equal(t, "my-linter", ready.Server)
	require.JSONEq(t, `{"strict":true}`, string(ready.InitializationOptions))
	require.JSONEq(t, `{"lint":{"level":"all"}}`, string(ready.Configuration))
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

// clangd is a manual entry: never installed, found on the task PATH (the
// machine's Debian clangd), and a real initialize is answered through the
// agent. Without clangd on PATH it is skipped, unless
// KANDEV_REQUIRE_CLANGD=1 (the test command installs it).
func TestClangdFromPathThroughAgent(t *testing.T) {
	t.Parallel()
	clangd, err := exec.LookPath("clangd")
	if err != nil {
		if os.Getenv("KANDEV_REQUIRE_CLANGD") == "1" {
			t.Fatal("KANDEV_REQUIRE_CLANGD=1 but clangd is not on PATH (apt-get install clangd)")
		}
		t.Skip("clangd is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "main.c"), []byte("int main(void) { return 0; }\n"), 0o644))
	_, base := launch(t, ctx, ws, []string{"PATH=" + filepath.Dir(clangd) + ":/usr/bin:/bin", "HOME=" + t.TempDir()})
	start := time.Now()
	c := stream(t, ctx, base, "c")
	ready := nextStatus(t, ctx, c, wire.StatusReady)
	require.Equal(t, "clangd", ready.Server)
	realInitialize(t, ctx, c, ready.WorkspaceURI)
	t.Logf("clangd answered initialize through the agent in %v", time.Since(start).Round(time.Millisecond))
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))

	// Without clangd on the task PATH: 4007, never an install.
	_, bare := launch(t, ctx, t.TempDir(), []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir()})
	c = stream(t, ctx, bare, "c")
	_, _, err = c.Read(ctx)
	require.Equal(t, websocket.StatusCode(wire.CloseNoInstaller), websocket.CloseStatus(err))
}

// A lockfile that does not match the registry's tarball fails with npm's
// own EINTEGRITY output in install_failed and close 4003, with the real
// npm and registry: an operator entry carrying the built-in
// dockerfile-language-server lockfile with one integrity changed. Only
// with KANDEV_REAL_INSTALL=1.
func TestRealTamperedLockfileThroughAgent(t *testing.T) {
	if os.Getenv("KANDEV_REAL_INSTALL") != "1" {
		t.Skip("set KANDEV_REAL_INSTALL=1 to npm install from the registry")
	}
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm on PATH")
	e, _ := catalog.Builtin().Lookup("dockerfile-language-server")
	var lock map[string]any
	require.NoError(t, json.Unmarshal(e.Install.Lock.PackageLock, &lock))
	pkg := lock["packages"].(map[string]any)["node_modules/dockerfile-ast"].(map[string]any)
	integrity := []byte(pkg["integrity"].(string))
	integrity[10] ^= 1
	pkg["integrity"] = string(integrity)
	lockJSON, err := json.Marshal(lock)
	require.NoError(t, err)
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"servers":[{"id":"tampered-docker","languages":["dockerfile"],"command":"docker-langserver",
		"args":["--stdio"],"install":{"kind":"npm","packages":["dockerfile-language-server-nodejs@`+catalog.Version("dockerfile-language-server")+`"],
		"lockfile":`+string(lockJSON)+`}}]}`), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "KANDEV_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "PATH="+filepath.Dir(npm)+":"+os.Getenv("PATH"))
	_, base := startBinary(t, ctx, build(t), t.TempDir(), env, nil, "-catalog", file)
	c := stream(t, ctx, base, "dockerfile&server=tampered-docker")
	nextStatus(t, ctx, c, wire.StatusInstalling)
	st := nextStatus(t, ctx, c, wire.StatusInstallFailed)
	require.Equal(t, "tampered-docker", st.Server)
	require.Contains(t, st.Error, "EINTEGRITY", "npm's own output reaches the user")
	_, _, err = c.Read(ctx)
	require.Equal(t, websocket.StatusCode(wire.CloseInstallFailed), websocket.CloseStatus(err))
	entries, _ := os.ReadDir(filepath.Join(home, ".kandev", "lsp-servers", "operator"))
	require.Empty(t, entries, "nothing published")
}
