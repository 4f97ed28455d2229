package installers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

func byLanguage(t *testing.T, in wire.Installers) map[wire.Language]wire.LanguageInstallers {
	t.Helper()
	m := map[wire.Language]wire.LanguageInstallers{}
	for i, l := range in.Languages {
		require.Equal(t, wire.Languages[i].Language, l.Language, "wire order")
		require.NotEmpty(t, l.Servers)
		require.Equal(t, l.InstallerInfo, l.Servers[0], "the language's own fields are its default server's")
		require.True(t, l.Default)
		for j, s := range l.Servers {
			require.Equal(t, l.Language, s.Language)
			require.Equal(t, j == 0, s.Default)
		}
		m[l.Language] = l
	}
	require.Len(t, m, len(wire.Languages))
	return m
}

// server is one entry of a language's answer.
func server(t *testing.T, l wire.LanguageInstallers, id string) wire.InstallerInfo {
	t.Helper()
	for _, s := range l.Servers {
		if s.Server == id {
			return s
		}
	}
	t.Fatalf("%s: no server %s", l.Language, id)
	return wire.InstallerInfo{}
}

func exe(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
	return p
}

func TestDescribeLinux(t *testing.T) {
	t.Parallel()
	home, bin, gobin := t.TempDir(), t.TempDir(), t.TempDir()
	exe(t, bin, "node")
	exe(t, bin, "go") // npm missing
	clangd := exe(t, bin, "clangd")
	gopls := exe(t, gobin, "gopls")
	env := taskenv.New(map[string]string{"PATH": bin, "HOME": home, "GOBIN": gobin})
	env.GOOS, env.GOARCH = "linux", "arm64"
	got := Describe(env, catalog.Builtin(), nil)
	require.Equal(t, "linux", got.GOOS)
	m := byLanguage(t, got)
	cache := filepath.Join(home, ".kandev", "lsp-servers")
	node := []wire.Prerequisite{{Name: "node", Found: true}, {Name: "npm", Found: false}}

	require.Equal(t, wire.InstallerInfo{
		Language: wire.TypeScript, Server: "typescript-language-server", Default: true,
		Command: "typescript-language-server", Installable: true, Kind: wire.InstallerNPM,
		InstallCommand: []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "typescript-language-server@5.3.0", "typescript@6.0.3"},
		WorkDir:        filepath.Join(cache, "typescript-language-server"),
		Prerequisites:  node,
		Destination:    filepath.Join(cache, "typescript-language-server", "node_modules", ".bin"),
	}, m[wire.TypeScript].InstallerInfo)
	require.Equal(t, wire.InstallerInfo{
		Language: wire.TypeScript, Server: "tsgo", Command: "tsgo", Installable: true, Kind: wire.InstallerNPM,
		InstallCommand: []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "@typescript/native-preview@" + catalog.Version("tsgo")},
		WorkDir:        filepath.Join(cache, "tsgo"),
		Prerequisites:  node,
		Destination:    filepath.Join(cache, "tsgo", "node_modules", ".bin"),
	}, server(t, m[wire.TypeScript], "tsgo"))
	require.Equal(t, []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "pyright@1.1.414"}, m[wire.Python].InstallCommand)
	require.Equal(t, []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "basedpyright@1.40.1"}, server(t, m[wire.Python], "basedpyright").InstallCommand)
	require.Equal(t, wire.InstallerInfo{
		Language: wire.Go, Server: "gopls", Default: true, Command: "gopls", Found: true, Path: gopls, Installable: true, Kind: wire.InstallerGo,
		InstallCommand: []string{"go", "install", "golang.org/x/tools/gopls@v0.23.0"},
		Prerequisites:  []wire.Prerequisite{{Name: "go", Found: true}},
		Destination:    gobin,
	}, m[wire.Go].InstallerInfo)
	rust := m[wire.Rust]
	require.True(t, rust.Installable)
	require.Equal(t, wire.InstallerRelease, rust.Kind)
	require.Regexp(t, `^https://github\.com/rust-lang/rust-analyzer/releases/download/[0-9-]+/rust-analyzer-aarch64-unknown-linux-gnu\.gz$`, rust.Download)
	require.Equal(t, filepath.Join(cache, "rust-analyzer"), rust.Destination)
	requireManual(t, m[wire.Kotlin].InstallerInfo, "kotlin-lsp")

	// The VS Code servers share one install.
	for _, l := range []wire.Language{wire.JSON, wire.CSS, wire.HTML, wire.Markdown} {
		info := m[l].InstallerInfo
		require.Equal(t, "vscode-"+map[wire.Language]string{wire.JSON: "json", wire.CSS: "css", wire.HTML: "html", wire.Markdown: "markdown"}[l]+"-language-server", info.Server)
		require.Equal(t, info.Server, info.Command)
		require.Equal(t, filepath.Join(cache, "vscode-langservers-extracted"), info.WorkDir, l)
		require.Equal(t, []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "vscode-langservers-extracted@4.10.0"}, info.InstallCommand)
	}
	require.Equal(t, "docker-langserver", m[wire.Dockerfile].Command)
	require.Equal(t, filepath.Join(cache, "bash-language-server", "node_modules", ".bin"), m[wire.Shell].Destination)

	// clangd: manual, and found on the task PATH.
	c := m[wire.C].InstallerInfo
	requireManual(t, c, "clangd")
	require.True(t, c.Found)
	require.Equal(t, clangd, c.Path)
	require.Contains(t, c.Guidance, "apt-get install clangd")
}

func requireManual(t *testing.T, k wire.InstallerInfo, command string) {
	t.Helper()
	require.False(t, k.Installable, "%s is never installable", command)
	require.Equal(t, wire.InstallerManual, k.Kind)
	require.Equal(t, wire.NotInstallableManual, k.Reason)
	require.Contains(t, k.Guidance, "PATH")
	require.Contains(t, k.Guidance, command)
	require.Empty(t, k.InstallCommand)
}

// A Windows task host, described from Linux with an injected OS: rust has
// no installer (the stream closes 4007 for it), npm and Go paths follow
// Windows rules from USERPROFILE.
func TestDescribeWindows(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"USERPROFILE": `C:\Users\dev`, "Path": `C:\nodejs;relative`})
	env.GOOS, env.GOARCH = "windows", "amd64"
	m := byLanguage(t, Describe(env, catalog.Builtin(), nil))
	rust := m[wire.Rust]
	require.False(t, rust.Installable)
	require.Equal(t, wire.NotInstallableOS, rust.Reason)
	require.Contains(t, rust.Guidance, "rust-analyzer")
	require.Empty(t, rust.Download)
	requireManual(t, m[wire.Kotlin].InstallerInfo, "kotlin-lsp")
	require.Equal(t, `C:\Users\dev\.kandev\lsp-servers\typescript-language-server\node_modules\.bin`, m[wire.TypeScript].Destination)
	require.Equal(t, `C:\Users\dev\.kandev\lsp-servers\tsgo\node_modules\.bin`, server(t, m[wire.TypeScript], "tsgo").Destination)
	require.Equal(t, `C:\Users\dev\go\bin`, m[wire.Go].Destination)
	require.True(t, m[wire.Go].Installable)
}

func TestDescribeDarwinAndNoHome(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"HOME": "/Users/dev"})
	env.GOOS, env.GOARCH = "darwin", "amd64"
	require.True(t, strings.HasSuffix(byLanguage(t, Describe(env, catalog.Builtin(), nil))[wire.Rust].Download, "/rust-analyzer-x86_64-apple-darwin.gz"))

	// Without an absolute home nothing can be installed anywhere safe.
	env = taskenv.New(map[string]string{"HOME": "relative"})
	for _, l := range Describe(env, catalog.Builtin(), nil).Languages {
		for _, s := range l.Servers {
			require.False(t, s.Installable, s.Server)
		}
	}
}

// Operator entries follow the built-in ones of their languages, marked.
func TestDescribeOperatorEntries(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	ruffPath := exe(t, bin, "ruff")
	ops, err := catalog.Parse([]byte(`{"servers":[{"id":"ruff","languages":["python"],"command":"ruff","args":["server"],
		"install":{"kind":"manual","guidance":"pipx install ruff==0.12.0"}}]}`), "")
	require.NoError(t, err)
	cat, err := catalog.New(ops)
	require.NoError(t, err)
	env := taskenv.New(map[string]string{"PATH": bin, "HOME": t.TempDir()})
	py := byLanguage(t, Describe(env, cat, nil))[wire.Python]
	var ids []string
	for _, s := range py.Servers {
		ids = append(ids, s.Server)
	}
	require.Equal(t, []string{"pyright", "basedpyright", "pylsp", "ruff"}, ids)
	require.Equal(t, wire.InstallerInfo{Language: wire.Python, Server: "ruff", Operator: true, Command: "ruff", Found: true, Path: ruffPath,
		Kind: wire.InstallerManual, Reason: wire.NotInstallableManual, Guidance: "pipx install ruff==0.12.0"}, py.Servers[len(py.Servers)-1])
}

func TestHandler(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"HOME": t.TempDir()})
	srv := httptest.NewServer(New(env, catalog.Builtin(), "tok", nil))
	defer srv.Close()
	do := func(method, tok string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+wire.AgentInstallersPath, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	require.Equal(t, http.StatusUnauthorized, do(http.MethodGet, "").StatusCode)
	require.Equal(t, http.StatusUnauthorized, do(http.MethodGet, "nope").StatusCode)
	require.Equal(t, http.StatusMethodNotAllowed, do(http.MethodPost, "tok").StatusCode)
	resp := do(http.MethodGet, "tok")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var got wire.Installers
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	require.Equal(t, Describe(env, catalog.Builtin(), nil), got)
}

// A Planner supplies the install plan; discovery and the catalog's
// answers stay the route's own.
func TestPlannerSeam(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	gopls := exe(t, bin, "gopls")
	env := taskenv.New(map[string]string{"PATH": bin})
	plan := func(_ *taskenv.Env, e catalog.Entry) wire.InstallerInfo {
		return wire.InstallerInfo{Language: "ignored", Server: "ignored", Command: "ignored", Found: true, Path: "/x", Installable: e.ID == "gopls", Guidance: "from planner"}
	}
	m := byLanguage(t, Describe(env, catalog.Builtin(), plan))
	require.Equal(t, wire.InstallerInfo{Language: wire.Go, Server: "gopls", Default: true, Command: "gopls", Found: true, Path: gopls, Installable: true, Guidance: "from planner"}, m[wire.Go].InstallerInfo)
	require.Equal(t, wire.InstallerInfo{Language: wire.Rust, Server: "rust-analyzer", Default: true, Command: "rust-analyzer", Guidance: "from planner"}, m[wire.Rust].InstallerInfo)
}
