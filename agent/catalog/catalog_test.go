package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/catalogfile"
	"github.com/kandev/lsp/internal/wire"
)

func get(t *testing.T, id string) Entry {
	t.Helper()
	e, ok := Builtin().Lookup(id)
	require.True(t, ok, id)
	return e
}

// wire's per-language server lists (what the relay and the browser know)
// and the built-in entries (what the agent runs) are one table.
func TestBuiltinAgreesWithWire(t *testing.T) {
	t.Parallel()
	c := Builtin()
	served := map[string][]wire.Language{}
	for _, l := range wire.Languages {
		var ids []string
		for _, e := range c.ForLanguage(l.Language) {
			ids = append(ids, e.ID)
		}
		require.Equal(t, l.Servers, ids, l.Language)
		d, ok := c.Default(l.Language)
		require.True(t, ok)
		require.Equal(t, l.Servers[0], d.ID)
		for _, id := range l.Servers {
			served[id] = append(served[id], l.Language)
		}
	}
	for _, e := range c.Entries() {
		require.True(t, wire.ValidServerID(e.ID), e.ID)
		require.Equal(t, served[e.ID], e.Languages, "%s serves what wire lists it for", e.ID)
		require.NotEmpty(t, e.Command, e.ID)
		require.False(t, e.Operator)
		for _, obj := range []json.RawMessage{e.InitializationOptions, e.Configuration} {
			if obj != nil {
				var o map[string]any
				require.NoError(t, json.Unmarshal(obj, &o), e.ID)
				require.NotNil(t, o, e.ID)
			}
		}
		for _, f := range e.Features {
			require.True(t, wire.IsFeature(f), f)
		}
	}
	require.Empty(t, c.ForLanguage("cobol"))
}

// What a stream request may name: a language, and optionally a server of
// it. Everything else is refused with a reason the route maps to HTTP 400.
func TestResolve(t *testing.T) {
	t.Parallel()
	c := Builtin()
	for _, ok := range []struct{ lang, server, want string }{
		{"go", "", "gopls"}, {"typescript", "", "typescript-language-server"}, {"typescript", "tsgo", "tsgo"},
		{"python", "basedpyright", "basedpyright"}, {"c", "", "clangd"}, {"shell", "bash-language-server", "bash-language-server"},
	} {
		e, err := c.Resolve(ok.lang, ok.server)
		require.NoError(t, err, ok)
		require.Equal(t, ok.want, e.ID)
	}
	for _, bad := range []struct {
		lang, server string
		want         error
	}{
		{"cobol", "", ErrUnknownLanguage}, {"", "gopls", ErrUnknownLanguage}, {"go", "gopls2", ErrUnknownServer},
		{"python", "tsgo", ErrNotServed}, {"go", "/usr/bin/gopls", ErrBadServerID}, {"go", "../gopls", ErrBadServerID},
		{"go", `..\gopls`, ErrBadServerID}, {"go", "gopls -rpc.trace", ErrBadServerID}, {"go", "Gopls", ErrBadServerID},
		{"go", "..", ErrBadServerID}, {"go", strings.Repeat("g", 65), ErrBadServerID},
	} {
		_, err := c.Resolve(bad.lang, bad.server)
		require.ErrorIs(t, err, bad.want, bad)
	}
}

// ESLint is a choice beside the TypeScript server, never the default; it
// is used for its diagnostics, fixes and their commands only, and its
// default settings hold every member its server reads without a check.
func TestESLintEntry(t *testing.T) {
	t.Parallel()
	e := get(t, "eslint")
	require.Equal(t, []wire.Language{wire.TypeScript}, e.Languages)
	d, _ := Builtin().Default(wire.TypeScript)
	require.NotEqual(t, "eslint", d.ID)
	require.Equal(t, get(t, "vscode-json-language-server").Install.Managed, e.Install.Managed, "one install of vscode-langservers-extracted")
	require.Equal(t, []string{wire.FeatureDiagnostics, wire.FeatureCodeAction, wire.FeatureWorkspaceCommand}, e.Features)
	var cfg struct {
		Validate     string `json:"validate"`
		Experimental *struct {
			UseFlatConfig bool `json:"useFlatConfig"`
		} `json:"experimental"`
		WorkingDirectory *struct {
			Mode string `json:"mode"`
		} `json:"workingDirectory"`
		Problems            *struct{ ShortenToSingleLine *bool } `json:"problems"`
		CodeActionOnSave    *struct{ Mode string }               `json:"codeActionOnSave"`
		RulesCustomizations []any                                `json:"rulesCustomizations"`
		CodeAction          *struct {
			DisableRuleComment *struct{ Enable bool } `json:"disableRuleComment"`
			ShowDocumentation  *struct{ Enable bool } `json:"showDocumentation"`
		} `json:"codeAction"`
		NodePath       json.RawMessage `json:"nodePath"`
		PackageManager *string         `json:"packageManager"`
	}
	require.NoError(t, json.Unmarshal(e.Configuration, &cfg))
	require.Equal(t, "on", cfg.Validate)
	require.True(t, cfg.Experimental.UseFlatConfig, "eslint.config.js")
	require.Equal(t, "location", cfg.WorkingDirectory.Mode)
	require.NotNil(t, cfg.Problems.ShortenToSingleLine)
	require.Equal(t, "all", cfg.CodeActionOnSave.Mode)
	require.NotNil(t, cfg.RulesCustomizations)
	require.True(t, cfg.CodeAction.DisableRuleComment.Enable)
	require.True(t, cfg.CodeAction.ShowDocumentation.Enable)
	require.Equal(t, "null", string(cfg.NodePath))
	require.Nil(t, cfg.PackageManager, "no fallback to a global eslint")
	for _, other := range Builtin().Entries() {
		if other.ID == "eslint" || other.ID == "vscode-markdown-language-server" || other.Configuration == nil {
			continue
		}
		// The VS Code servers' configuration only lists the sections they
		// read as objects, as {}.
		var sections map[string]map[string]any
		require.NoError(t, json.Unmarshal(other.Configuration, &sections), other.ID)
		for name, v := range sections {
			require.Empty(t, v, "%s: %s", other.ID, name)
		}
		require.True(t, strings.HasPrefix(other.ID, "vscode-"), other.ID)
	}
}

// The built-in catalog is one data file: it parses, its languages table is
// what internal/wire (and so the relay and lsp.wasm) know, generated from
// it, and the servers' own options that lsp.wasm once special-cased are
// entries' data.
func TestBuiltinFile(t *testing.T) {
	t.Parallel()
	f, err := parseBuiltin()
	require.NoError(t, err)
	require.Equal(t, wire.Languages, f.Languages, "internal/wire/languages.go is out of date: go generate ./internal/wire")
	require.Len(t, f.Servers, len(Builtin().Entries()))
	for _, id := range []string{"typescript-language-server", "tsgo"} {
		require.JSONEq(t, `{"tsserver":{"useClientFileWatcher":true},"codeLensShowLocationsCommandName":"editor.action.showReferences"}`,
			string(get(t, id).InitializationOptions), id)
	}
	require.JSONEq(t, `{"css":{},"scss":{},"less":{}}`, string(get(t, "vscode-css-language-server").Configuration))
	// The Markdown server checks links only with its settings, which it
	// reads without a check: every member, link checking on.
	var md struct {
		Markdown struct {
			Validate struct {
				Enabled   bool `json:"enabled"`
				FileLinks struct {
					Enabled string `json:"enabled"`
				} `json:"fileLinks"`
			} `json:"validate"`
		} `json:"markdown"`
	}
	require.NoError(t, json.Unmarshal(get(t, "vscode-markdown-language-server").Configuration, &md))
	require.True(t, md.Markdown.Validate.Enabled)
	for _, e := range Builtin().Entries() {
		require.Equal(t, e.ID == "vscode-markdown-language-server", e.PushConfiguration, "%s: only the Markdown server reads its settings by push alone", e.ID)
	}
	require.Equal(t, "warning", md.Markdown.Validate.FileLinks.Enabled)
	for _, l := range wire.Languages {
		require.NotEmpty(t, l.DisplayName, l.Language)
	}
	// A field's error names the built-in catalog, the entry and the field.
	bad := strings.Replace(string(builtinFile), `"name": "Python"`, `"name": ""`, 1)
	_, err = catalogfile.Parse([]byte(bad), catalogfile.Options{Builtin: true, FS: npmLocks})
	require.EqualError(t, err, `built-in catalog: language "python" (languages[1]): field name: required: the language's English display name`)
}

func TestAutoInstallable(t *testing.T) {
	t.Parallel()
	require.True(t, get(t, "gopls").AutoInstallable("linux", "amd64"))
	require.True(t, get(t, "tsgo").AutoInstallable("windows", "amd64"))
	require.True(t, get(t, "rust-analyzer").AutoInstallable("linux", "arm64"))
	require.False(t, get(t, "rust-analyzer").AutoInstallable("windows", "amd64"))
	require.False(t, get(t, "rust-analyzer").AutoInstallable("linux", "riscv64"))
	require.False(t, get(t, "kotlin-lsp").AutoInstallable("linux", "amd64"))
	require.False(t, get(t, "clangd").AutoInstallable("linux", "amd64"))
	require.True(t, get(t, "tombi").AutoInstallable("linux", "amd64"))
	require.False(t, get(t, "tombi").AutoInstallable("linux", "arm64"), "its binary's package is Linux x64's")
	require.False(t, get(t, "tombi").AutoInstallable("darwin", "amd64"))
	for _, e := range Builtin().Entries() {
		if e.Install.Kind == InstallManual {
			require.NotEmpty(t, e.Install.Guidance, e.ID)
		}
	}
}

func TestLocateGoplsInGoBin(t *testing.T) {
	t.Parallel()
	gobin := t.TempDir()
	p := filepath.Join(gobin, "gopls")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
	env := taskenv.New(map[string]string{"PATH": t.TempDir(), "GOBIN": gobin})
	got, err := get(t, "gopls").Locate(env)
	require.NoError(t, err)
	require.Equal(t, p, got)

	// Go bin directories are only for Go-installed servers.
	for _, id := range []string{"kotlin-lsp", "clangd"} {
		e := get(t, id)
		require.NoError(t, os.WriteFile(filepath.Join(gobin, e.Command), []byte("#!/bin/sh\n"), 0o755))
		_, err = e.Locate(env)
		require.ErrorIs(t, err, taskenv.ErrNotFound)
	}
}

// The managed cache comes from the task HOME: an npm server is found in
// its node_modules/.bin (the VS Code servers in their shared one), a
// release server in its directory, and nothing from a relative home or the
// repository.
func TestLocateManagedCache(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ts, rust := get(t, "typescript-language-server"), get(t, "rust-analyzer")
	env := taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": home})
	_, err := ts.Locate(env)
	require.ErrorIs(t, err, taskenv.ErrNotFound)

	npmBin := filepath.Join(home, ".kandev", "lsp-servers", "typescript-language-server", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(npmBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(npmBin, "typescript-language-server"), []byte("#!/bin/sh\n"), 0o755))
	got, err := ts.Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(npmBin, "typescript-language-server"), got)

	vscBin := filepath.Join(home, ".kandev", "lsp-servers", "vscode-langservers-extracted", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(vscBin, 0o755))
	for _, id := range []string{"vscode-json-language-server", "vscode-css-language-server", "vscode-html-language-server", "vscode-markdown-language-server", "eslint"} {
		e := get(t, id)
		require.NoError(t, os.WriteFile(filepath.Join(vscBin, e.Command), []byte("#!/bin/sh\n"), 0o755))
		got, err := e.Locate(env)
		require.NoError(t, err)
		require.Equal(t, filepath.Join(vscBin, e.Command), got)
	}

	rdir := filepath.Join(home, ".kandev", "lsp-servers", "rust-analyzer")
	require.NoError(t, os.MkdirAll(rdir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(rdir, "rust-analyzer"), []byte("#!/bin/sh\n"), 0o755))
	got, err = rust.Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(rdir, "rust-analyzer"), got)

	// A relative HOME (say, the repository) supplies nothing.
	rel := taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": "."})
	_, err = rust.Locate(rel)
	require.ErrorIs(t, err, taskenv.ErrNotFound)
	require.Empty(t, ManagedRoot(rel))
}

// Discovery never takes a command from the workspace, for any entry: the
// task PATH's workspace directories and a HOME inside the workspace (a
// managed cache in the checkout) supply nothing, while the same files
// outside it would be found.
func TestLocateNeverInWorkspace(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	wsBin := filepath.Join(ws, "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(wsBin, 0o755))
	for _, e := range Builtin().Entries() {
		for _, dir := range []string{wsBin, outside} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, e.Command), []byte("#!/bin/sh\n"), 0o755))
		}
		for _, d := range e.InstallDirs(taskenv.New(map[string]string{"HOME": filepath.Join(ws, "home")})) {
			require.NoError(t, os.MkdirAll(d, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(d, e.Command), []byte("#!/bin/sh\n"), 0o755))
		}
	}
	confined := taskenv.New(map[string]string{"PATH": wsBin + ":" + ws, "HOME": filepath.Join(ws, "home")}).WithWorkspace(ws)
	free := taskenv.New(map[string]string{"PATH": wsBin + ":" + outside}).WithWorkspace(ws)
	for _, e := range Builtin().Entries() {
		_, err := e.Locate(confined)
		require.ErrorIs(t, err, taskenv.ErrNotFound, e.ID)
		got, err := e.Locate(free)
		if e.NeedsInstallDir() {
			require.ErrorIs(t, err, taskenv.ErrNotFound, "%s runs from its own install alone", e.ID)
			continue
		}
		require.NoError(t, err, e.ID)
		require.Equal(t, filepath.Join(outside, e.Command), got, e.ID)
	}
}

// An entry whose options name its install directory (Vue's TypeScript
// server, whose plugin lies beside it) runs from that install alone, even
// with the same command on the PATH, and its options carry the directory.
func TestInstallDirEntry(t *testing.T) {
	t.Parallel()
	home, onPath := t.TempDir(), t.TempDir()
	e := get(t, "vue-typescript")
	require.True(t, e.NeedsInstallDir())
	require.False(t, get(t, "typescript-language-server").NeedsInstallDir())
	require.NoError(t, os.WriteFile(filepath.Join(onPath, e.Command), []byte("#!/bin/sh\n"), 0o755))
	env := taskenv.New(map[string]string{"PATH": onPath, "HOME": home})
	_, err := e.Locate(env)
	require.ErrorIs(t, err, taskenv.ErrNotFound, "not the PATH's typescript-language-server")
	found, err := get(t, "typescript-language-server").Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(onPath, e.Command), found, "the TypeScript entry itself takes the PATH's")

	dir := e.ManagedDir(env)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "node_modules", ".bin", e.Command), []byte("#!/bin/sh\n"), 0o755))
	found, err = e.Locate(env)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "node_modules", ".bin", e.Command), found)

	var opts struct {
		Plugins []struct{ Name, Location string }
	}
	require.NoError(t, json.Unmarshal(e.InitOptions(env), &opts))
	require.Equal(t, "@vue/typescript-plugin", opts.Plugins[0].Name)
	require.Equal(t, dir, opts.Plugins[0].Location)
	win := taskenv.New(map[string]string{"USERPROFILE": `C:\Users\dev`})
	win.GOOS = "windows"
	require.Contains(t, string(e.InitOptions(win)), `"location":"C:\\Users\\dev\\.kandev\\lsp-servers\\vue-typescript"`, "a JSON string")
	require.Equal(t, get(t, "gopls").InitializationOptions, get(t, "gopls").InitOptions(env), "others as they are")
}

// Tools are found like servers: outside the workspace, or not at all (an
// empty value, which turns the server's use of them off).
func TestToolEnv(t *testing.T) {
	t.Parallel()
	ws, tools := t.TempDir(), t.TempDir()
	for _, dir := range []string{ws, tools} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "shellcheck"), []byte("#!/bin/sh\n"), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "shfmt"), []byte("#!/bin/sh\n"), 0o755))
	env := taskenv.New(map[string]string{"PATH": ws + ":" + tools}).WithWorkspace(ws)
	require.Equal(t, []string{"SHELLCHECK_PATH=" + filepath.Join(tools, "shellcheck"), "SHFMT_PATH="}, get(t, "bash-language-server").ToolEnv(env))
	require.Empty(t, get(t, "gopls").ToolEnv(env))
}

func TestInstallDirsWindows(t *testing.T) {
	t.Parallel()
	env := taskenv.New(map[string]string{"USERPROFILE": `C:\Users\dev`})
	env.GOOS = "windows"
	require.Equal(t, []string{`C:\Users\dev\.kandev\lsp-servers\typescript-language-server\node_modules\.bin`}, get(t, "typescript-language-server").InstallDirs(env))
	require.Equal(t, []string{`C:\Users\dev\go\bin`}, get(t, "gopls").InstallDirs(env))
	require.Empty(t, get(t, "kotlin-lsp").InstallDirs(env))
	op := Entry{Server: catalogfile.Server{ID: "x", Install: Recipe{Kind: InstallNPM, Managed: OperatorDir + "/x"}}}
	require.Equal(t, []string{`C:\Users\dev\.kandev\lsp-servers\operator\x\node_modules\.bin`}, op.InstallDirs(env))
	// A native binary without an npm bin is found in its own package.
	require.Equal(t, []string{`C:\Users\dev\.kandev\lsp-servers\tombi\node_modules\@tombi-toml\cli-linux-x64`}, get(t, "tombi").InstallDirs(env))
}

// The embedded lockfiles pin the whole tree of each built-in npm recipe:
// package.json asks for exactly the pinned versions, the lockfile's root
// agrees, the command is one of the locked packages' bins, and every
// package comes from the npm registry with a sha512 integrity.
func TestNPMLockfilesPinned(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, e := range Builtin().Entries() {
		if e.Install.Kind != InstallNPM {
			continue
		}
		seen[e.Install.Managed] = true
		require.NoError(t, catalogfile.CheckLock(e.Install.Lock, e.Install.Packages, e.Command, e.Install.Executable), e.ID)
		var lf testLockfile
		require.NoError(t, json.Unmarshal(e.Install.Lock.PackageLock, &lf))
		require.Equal(t, 3, lf.LockfileVersion, e.ID)
		require.Greater(t, len(lf.Packages), len(e.Install.Packages), e.ID)
		for path, p := range lf.Packages {
			if path != "" {
				require.True(t, strings.HasPrefix(p.Resolved, "https://registry.npmjs.org/"), "%s %s: %s", e.ID, path, p.Resolved)
			}
		}
	}
	entries, err := npmLocks.ReadDir("npm")
	require.NoError(t, err)
	var dirs []string
	for _, d := range entries {
		dirs = append(dirs, d.Name())
		require.True(t, seen[d.Name()], "npm/%s is some entry's lockfile", d.Name())
	}

	// tsgo's launcher only dispatches to a platform package: the lockfile
	// must hold them, with their own integrity.
	var lf testLockfile
	require.NoError(t, json.Unmarshal(get(t, "tsgo").Install.Lock.PackageLock, &lf))
	for _, p := range []string{"linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"} {
		pkg, ok := lf.Packages["node_modules/@typescript/native-preview-"+p]
		require.True(t, ok, p)
		require.Equal(t, Version("tsgo"), pkg.Version)
		require.True(t, strings.HasPrefix(pkg.Integrity, "sha512-"))
	}
}

func TestCheckLockRefuses(t *testing.T) {
	t.Parallel()
	good := get(t, "yaml-language-server").Install
	pkgs := good.Packages
	mutate := func(f func(map[string]any)) *NPMLock {
		var lf map[string]any
		require.NoError(t, json.Unmarshal(good.Lock.PackageLock, &lf))
		f(lf)
		b, err := json.Marshal(lf)
		require.NoError(t, err)
		return &NPMLock{PackageJSON: good.Lock.PackageJSON, PackageLock: b}
	}
	pkg := func(lf map[string]any, name string) map[string]any {
		return lf["packages"].(map[string]any)["node_modules/"+name].(map[string]any)
	}
	require.NoError(t, catalogfile.CheckLock(good.Lock, pkgs, "yaml-language-server", ""))
	for name, c := range map[string]struct {
		lock    *NPMLock
		pkgs    []string
		command string
		want    string
	}{
		"range pin":         {good.Lock, []string{"yaml-language-server@^2.0.0"}, "yaml-language-server", "not an exact npm pin"},
		"tag pin":           {good.Lock, []string{"yaml-language-server@latest"}, "yaml-language-server", "not an exact npm pin"},
		"other version":     {good.Lock, []string{"yaml-language-server@2.0.1"}, "yaml-language-server", "package.json depends on"},
		"no such bin":       {good.Lock, pkgs, "yaml-ls", `has a "yaml-ls" bin`},
		"no integrity":      {mutate(func(lf map[string]any) { delete(pkg(lf, "yaml"), "integrity") }), pkgs, "yaml-language-server", "node_modules/yaml has no sha512 integrity"},
		"sha1 integrity":    {mutate(func(lf map[string]any) { pkg(lf, "yaml")["integrity"] = "sha1-abc" }), pkgs, "yaml-language-server", "no sha512"},
		"http tarball":      {mutate(func(lf map[string]any) { pkg(lf, "yaml")["resolved"] = "http://registry.npmjs.org/yaml.tgz" }), pkgs, "yaml-language-server", "not fetched from an https URL"},
		"local link":        {mutate(func(lf map[string]any) { pkg(lf, "yaml")["link"] = true }), pkgs, "yaml-language-server", "link to a local directory"},
		"root disagrees":    {mutate(func(lf map[string]any) { lf["packages"].(map[string]any)[""] = map[string]any{} }), pkgs, "yaml-language-server", "its root depends on"},
		"old lockfile":      {mutate(func(lf map[string]any) { lf["lockfileVersion"] = 1 }), pkgs, "yaml-language-server", "lockfileVersion 1"},
		"not locked at pin": {mutate(func(lf map[string]any) { pkg(lf, "yaml-language-server")["version"] = "1.0.0" }), pkgs, "yaml-language-server", "locked at"},
		"no lockfile":       {nil, pkgs, "yaml-language-server", "no lockfile"},
	} {
		err := catalogfile.CheckLock(c.lock, c.pkgs, c.command, "")
		require.ErrorContains(t, err, c.want, name)
	}
	_, _, ok := catalogfile.SplitNPMSpec("@typescript/native-preview@" + Version("tsgo"))
	require.True(t, ok)
	for _, bad := range []string{"x", "@x", "x@", "x@1.0", "x@>=1.0.0", "x@git+https://e/x", "X@1.0.0", "x@1.0.0 || 2.0.0"} {
		_, _, ok := catalogfile.SplitNPMSpec(bad)
		require.False(t, ok, bad)
	}
	require.True(t, slices.Contains(get(t, "typescript-language-server").Install.Packages, "typescript@6.0.3"))
}

// testLockfile is the part of a package-lock.json these tests read.
type testLockfile struct {
	LockfileVersion int `json:"lockfileVersion"`
	Packages        map[string]struct {
		Version   string `json:"version"`
		Resolved  string `json:"resolved"`
		Integrity string `json:"integrity"`
	} `json:"packages"`
}
