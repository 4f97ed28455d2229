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

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/catalogfile"
	"github.com/kandev/lsp/internal/wire"
)

// TestRealNPMInstall installs every built-in npm recipe from its embedded
// lockfile with the real npm and the registry into one fresh task HOME —
// typescript-language-server + typescript, tsgo, pyright, basedpyright,
// the VS Code servers (ESLint among them), yaml-language-server,
// bash-language-server, the Dockerfile server, intelephense, the Svelte,
// Tailwind CSS, GraphQL and SQL servers, tombi, Vue's server and its
// TypeScript server — every
// npm entry of the catalog file, whatever it adds — the recipes side by
// side, as an agent serving several connections would, then starts each
// entry's command with its arguments and completes a real LSP initialize. It needs the network and
// about half a minute, so it runs only with KANDEV_REAL_INSTALL=1.
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
	// One subtest per recipe (the VS Code servers share one), each
	// installing and then initializing every entry it provides.
	recipes := map[string][]catalog.Entry{}
	for _, e := range catalog.Builtin().Entries() {
		if e.Install.Kind == catalog.InstallNPM {
			recipes[e.Install.Managed] = append(recipes[e.Install.Managed], e)
		}
	}
	require.GreaterOrEqual(t, len(recipes), 15, "every npm recipe, the newer ones among them")
	for _, r := range []string{"intelephense", "svelte-language-server", "tailwindcss-language-server", "graphql-language-server", "sql-language-server", "tombi", "vue-language-server", "vue-typescript"} {
		require.Contains(t, recipes, r)
	}
	began := time.Now()
	t.Cleanup(func() {
		t.Logf("all npm recipes installed and initialized in %v", time.Since(began).Round(time.Millisecond))
	})
	for managed, entries := range recipes {
		t.Run(managed, func(t *testing.T) {
			t.Parallel()
			job, err := m.Prepare(env, entries[0])
			require.NoError(t, err)
			start := time.Now()
			res, err := job.Run(context.Background())
			require.NoError(t, err, Detail(err))
			t.Logf("npm ci of %s took %v", managed, time.Since(start).Round(time.Millisecond))
			dest := filepath.Join(home, ".kandev", "lsp-servers", managed)
			require.True(t, strings.HasPrefix(res.Path, dest+"/"), res.Path)
			requirePinned(t, dest, entries[0].Install.Packages)
			for _, e := range entries {
				path, err := ManagedLauncher(env, e)
				require.NoError(t, err, e.ID)
				want := filepath.Join(dest, "node_modules", ".bin", e.Command)
				if e.Install.Executable != "" {
					want = filepath.Join(dest, "node_modules", filepath.FromSlash(e.Install.Executable))
				}
				require.Equal(t, want, path)
				if e.Install.Executable != "" {
					// Discovery finds it there on the next start, without installing again.
					found, err := e.Locate(env)
					require.NoError(t, err)
					require.Equal(t, want, found)
				}
				start := time.Now()
				initialize(t, env, path, e.Args, workspace)
				t.Logf("%s answered initialize in %v", e.ID, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

// requirePinned checks that the destination holds exactly the pinned
// versions, recorded exactly in its package.json.
func requirePinned(t *testing.T, dest string, pins []string) {
	t.Helper()
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dest, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pkg))
	require.Len(t, pkg.Dependencies, len(pins))
	for _, pin := range pins {
		name, want, ok := catalogfile.SplitNPMSpec(pin)
		require.True(t, ok, pin)
		require.Equal(t, want, pkg.Dependencies[name], name)
		var installed struct{ Version string }
		b, err := os.ReadFile(filepath.Join(dest, "node_modules", name, "package.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &installed))
		require.Equal(t, want, installed.Version, name)
	}
}

// initialize starts a language server with args and checks that it
// answers initialize with capabilities.
func initialize(t *testing.T, env *taskenv.Env, path string, args []string, workspace string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
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

// TestRealGoInstall go-installs every built-in go entry but gopls (which
// TestRealGoplsInstall builds) from the module proxy into a fresh GOBIN —
// terraform-ls among them — and completes a real LSP initialize with
// each: with KANDEV_REAL_INSTALL=1, like the npm recipes.
func TestRealGoInstall(t *testing.T) {
	if os.Getenv("KANDEV_REAL_INSTALL") != "1" {
		t.Skip("set KANDEV_REAL_INSTALL=1 to go install the real servers from the module proxy")
	}
	goExe, err := exec.LookPath("go")
	require.NoError(t, err)
	dir := t.TempDir()
	vars := taskenv.Parse(os.Environ())
	vars["PATH"] = filepath.Dir(goExe) + ":" + vars["PATH"]
	vars["GOBIN"] = filepath.Join(dir, "gobin")
	vars["HOME"] = filepath.Join(dir, "home")
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS"} {
		v, err := exec.Command(goExe, "env", k).Output()
		require.NoError(t, err)
		vars[k] = strings.TrimSpace(string(v))
	}
	env := taskenv.New(vars)
	var ids []string
	for _, e := range catalog.Builtin().Entries() {
		if e.Install.Kind != catalog.InstallGo || e.ID == "gopls" {
			continue
		}
		ids = append(ids, e.ID)
		job, err := New(Config{}).Prepare(env, e)
		require.NoError(t, err, e.ID)
		start := time.Now()
		res, err := job.Run(context.Background())
		require.NoError(t, err, Detail(err))
		t.Logf("go install of %s took %v", e.ID, time.Since(start).Round(time.Millisecond))
		require.Equal(t, filepath.Join(vars["GOBIN"], e.Command), res.Path)
		initialize(t, env, res.Path, e.Args, t.TempDir())
	}
	require.Contains(t, ids, "terraform-ls")
}
