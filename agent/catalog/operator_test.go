package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// A lockfile an operator could ship: the built-in yaml-language-server
// one, which pins yaml-language-server@2.0.0.
func operatorLock(t *testing.T) string {
	t.Helper()
	return string(get(t, "yaml-language-server").Install.Lock.PackageLock)
}

func TestParseOperatorCatalog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "yaml.lock.json"), []byte(operatorLock(t)), 0o644))
	sum := strings.Repeat("ab", 32)
	file := `{"servers": [
	  {"id": "ruff", "languages": ["python"], "command": "ruff", "args": ["server"],
	   "install": {"kind": "manual", "guidance": "pipx install ruff==0.12.0"},
	   "features": ["diagnostics", "format"], "initializationOptions": {"settings": {"lineLength": 100}},
	   "configuration": {"lint": {"select": ["E", "F"]}}},
	  {"id": "my-yaml", "languages": ["yaml", "json"], "command": "yaml-language-server", "args": ["--stdio"],
	   "install": {"kind": "npm", "packages": ["yaml-language-server@2.0.0"], "lockfile": "yaml.lock.json"}},
	  {"id": "my-yaml-inline", "languages": ["yaml"], "command": "yaml-language-server", "args": ["--stdio"],
	   "install": {"kind": "npm", "packages": ["yaml-language-server@2.0.0"], "lockfile": ` + operatorLock(t) + `}},
	  {"id": "golangci-lint-ls", "languages": ["go"], "command": "golangci-lint-langserver",
	   "install": {"kind": "go", "package": "github.com/nametake/golangci-lint-langserver@v0.0.11"}, "tools": {"MY_LINT": "golangci-lint"}},
	  {"id": "taplo", "languages": ["yaml"], "command": "taplo", "args": ["lsp", "stdio"],
	   "install": {"kind": "release", "tag": "0.10.0", "baseUrl": "https://example.com/taplo/0.10.0/",
	     "assets": {"linux/amd64": {"file": "taplo-linux-x86_64.gz", "sha256": "` + sum + `"}}}}
	]}`
	path := filepath.Join(dir, "catalog.json")
	require.NoError(t, os.WriteFile(path, []byte(file), 0o644))
	entries, err := Load(path)
	require.NoError(t, err)
	require.Len(t, entries, 5)

	ruff := entries[0]
	require.Equal(t, "ruff", ruff.ID)
	require.True(t, ruff.Operator)
	require.Equal(t, InstallManual, ruff.Install.Kind)
	require.Equal(t, "pipx install ruff==0.12.0", ruff.Install.Guidance)
	require.Equal(t, `{"settings":{"lineLength":100}}`, string(ruff.InitializationOptions))
	require.Equal(t, `{"lint":{"select":["E","F"]}}`, string(ruff.Configuration), "compacted")
	require.Equal(t, []string{wire.FeatureDiagnostics, wire.FeatureFormat}, ruff.Features)

	y := entries[1]
	require.Equal(t, []wire.Language{wire.YAML, wire.JSON}, y.Languages)
	require.Equal(t, InstallNPM, y.Install.Kind)
	require.Equal(t, "operator/my-yaml", y.Install.Managed)
	require.Equal(t, operatorLock(t), string(y.Install.Lock.PackageLock))
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(y.Install.Lock.PackageJSON, &manifest))
	require.Equal(t, map[string]string{"yaml-language-server": "2.0.0"}, manifest.Dependencies)
	require.JSONEq(t, operatorLock(t), string(entries[2].Install.Lock.PackageLock))

	g := entries[3]
	require.Equal(t, []string{"github.com/nametake/golangci-lint-langserver@v0.0.11"}, g.Install.Packages)
	require.Equal(t, []Tool{{Env: "MY_LINT", Command: "golangci-lint"}}, g.Tools)

	taplo := entries[4]
	require.Equal(t, "https://example.com/taplo/0.10.0", taplo.Install.Release.BaseURL)
	a, ok := taplo.Install.Release.Asset("linux", "amd64")
	require.True(t, ok)
	require.Equal(t, Asset{File: "taplo-linux-x86_64.gz", SHA256: sum}, a)
	require.True(t, taplo.AutoInstallable("linux", "amd64"))
	require.False(t, taplo.AutoInstallable("darwin", "arm64"))

	c, err := New(entries)
	require.NoError(t, err)
	e, err := c.Resolve("yaml", "taplo")
	require.NoError(t, err)
	require.Equal(t, "taplo", e.ID)
	_, err = c.Resolve("python", "taplo")
	require.ErrorIs(t, err, ErrNotServed)
	var ids []string
	for _, e := range c.ForLanguage(wire.YAML) {
		ids = append(ids, e.ID)
	}
	require.Equal(t, []string{"yaml-language-server", "my-yaml", "my-yaml-inline", "taplo"}, ids, "the default first, operator entries after the built-in ones")
	d, _ := c.Default(wire.YAML)
	require.Equal(t, "yaml-language-server", d.ID, "an operator entry is never a default")
	require.Len(t, Builtin().Entries(), len(builtinEntries()), "the built-in catalog is unchanged")
}

// Every bad field stops the agent at start with the entry and the field
// named.
func TestOperatorCatalogErrors(t *testing.T) {
	t.Parallel()
	lock := operatorLock(t)
	npm := func(extra string) string {
		return `{"id":"x","languages":["yaml"],"command":"yaml-language-server","install":{"kind":"npm","packages":["yaml-language-server@2.0.0"],"lockfile":` + lock + extra + `}}`
	}
	for _, c := range []struct {
		server string
		want   string
	}{
		{`{"languages":["go"],"command":"gopls","install":{"kind":"manual"}}`, `servers[0]: field id: required`},
		{`{"id":"../evil","languages":["go"],"command":"gopls","install":{"kind":"manual"}}`, `servers[0]: field id: "../evil" is not a catalog id`},
		{`{"id":"Ruff","languages":["go"],"command":"gopls","install":{"kind":"manual"}}`, `field id: "Ruff" is not a catalog id`},
		{`{"id":"gopls","languages":["go"],"command":"gopls","install":{"kind":"manual"}}`, `server "gopls" (servers[0]): field id: "gopls" is a built-in server's id`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"comand":"y"}`, `server "x" (servers[0]): field comand: unknown field`},
		{`{"id":"x","command":"gopls","install":{"kind":"manual"}}`, `server "x" (servers[0]): field languages: required`},
		{`{"id":"x","languages":["cobol"],"command":"gopls","install":{"kind":"manual"}}`, `field languages: unknown language "cobol"`},
		{`{"id":"x","languages":["go","go"],"command":"gopls","install":{"kind":"manual"}}`, `field languages: "go" is listed twice`},
		{`{"id":"x","languages":["go"],"command":"/usr/bin/gopls","install":{"kind":"manual"}}`, `server "x" (servers[0]): field command: required: the executable's base name`},
		{`{"id":"x","languages":["go"],"command":"..","install":{"kind":"manual"}}`, `field command`},
		{`{"id":"x","languages":["go"],"command":"gopls serve","install":{"kind":"manual"}}`, `field command`},
		{`{"id":"x","languages":["go"],"command":"gopls","args":"-v","install":{"kind":"manual"}}`, `field args: must be an array of strings`},
		{`{"id":"x","languages":["go"],"command":"gopls"}`, `server "x" (servers[0]): field install: required`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"brew"}}`, `field install.kind: "brew": must be manual, npm, go or release`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual","packages":[]}}`, `field install.packages: not a field of a manual install`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"go","package":"golang.org/x/tools/gopls@latest"}}`, `server "x" (servers[0]): field install.package: "golang.org/x/tools/gopls@latest" is not module/path@vX.Y.Z at an exact version`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"go","package":"golang.org/x/tools/gopls@master"}}`, `field install.package`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"go","package":"golang.org/x/tools/gopls"}}`, `field install.package`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"go","package":"golang.org/x/tools/cmd/goimports@v0.30.0"}}`, `field install.package: go install of golang.org/x/tools/cmd/goimports writes "goimports", not the command "gopls"`},
		{`{"id":"gopls-old","languages":["go"],"command":"gopls","install":{"kind":"go","package":"golang.org/x/tools/gopls@v0.22.0"}}`, `server "gopls-old" (servers[0]): field install.package: go install writes gopls into the Go bin directory, where "gopls" installs its own`},
		{`{"id":"x","languages":["yaml"],"command":"yaml-language-server","install":{"kind":"npm","packages":["yaml-language-server@2.0.0"]}}`, `server "x" (servers[0]): field install.lockfile: required`},
		{`{"id":"x","languages":["yaml"],"command":"yaml-language-server","install":{"kind":"npm","packages":["yaml-language-server@^2.0.0"],"lockfile":{}}}`, `field install.packages: "yaml-language-server@^2.0.0" is not an exact npm pin`},
		{`{"id":"x","languages":["yaml"],"command":"yaml-language-server","install":{"kind":"npm","packages":["yaml-language-server@2.0.1"],"lockfile":` + lock + `}}`, `field install.lockfile: package-lock.json: its root depends on`},
		{`{"id":"x","languages":["yaml"],"command":"yaml-ls","install":{"kind":"npm","packages":["yaml-language-server@2.0.0"],"lockfile":` + lock + `}}`, `field install.lockfile: package-lock.json: none of [yaml-language-server] has a "yaml-ls" bin`},
		{`{"id":"x","languages":["yaml"],"command":"yaml-language-server","install":{"kind":"npm","packages":["yaml-language-server@2.0.0"],"lockfile":"missing.json"}}`, `field install.lockfile: open `},
		{strings.Replace(npm(""), `"integrity": "sha512-vT6ZEMTkXJA9Ixo07ByLgPkkt/L22fJdVDGAoB3EpPq3DCfKkMYeEeZdK5ECU6alwFUofhETo94/OV8GUxGuBg=="`, `"integrity": ""`, 1), `field install.lockfile: package-lock.json: node_modules/yaml-language-server has no sha512 integrity`},
		{`{"id":"x","languages":["go"],"command":"x","install":{"kind":"release","baseUrl":"http://example.com","assets":{"linux/amd64":{"file":"x.gz","sha256":"` + strings.Repeat("a", 64) + `"}}}}`, `field install.baseUrl: required: the https URL`},
		{`{"id":"x","languages":["go"],"command":"x","install":{"kind":"release","baseUrl":"https://example.com","assets":{"linux/amd64":{"file":"../x.gz","sha256":"` + strings.Repeat("a", 64) + `"}}}}`, `field install.assets: linux/amd64: file "../x.gz"`},
		{`{"id":"x","languages":["go"],"command":"x","install":{"kind":"release","baseUrl":"https://example.com","assets":{"linux/amd64":{"file":"x.gz","sha256":"abc"}}}}`, `field install.assets: linux/amd64: sha256 "abc"`},
		{`{"id":"x","languages":["go"],"command":"x","install":{"kind":"release","baseUrl":"https://example.com","assets":{"linux":{"file":"x.gz","sha256":"` + strings.Repeat("a", 64) + `"}}}}`, `field install.assets: "linux" is not goos/goarch`},
		{`{"id":"x","languages":["go"],"command":"x","install":{"kind":"release","baseUrl":"https://example.com","assets":{}}}`, `field install.assets: required`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"initializationOptions":[1]}`, `field initializationOptions: must be a JSON object`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"configuration":"on"}`, `field configuration: must be a JSON object`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"configuration":null}`, `field configuration: must be a JSON object`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"features":["telepathy"]}`, `field features: unknown feature "telepathy"`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"configuration":{},"pushConfiguration":"yes"}`, `field pushConfiguration: must be true or false`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"pushConfiguration":true}`, `field pushConfiguration: needs a configuration to send`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"tools":{"PATH":"evil"}}`, `field tools: "PATH" is not a variable a tool may set`},
		{`{"id":"x","languages":["go"],"command":"gopls","install":{"kind":"manual"},"tools":{"LINT":"/tmp/lint"}}`, `field tools: LINT: "/tmp/lint" is not an executable's base name`},
		{`[]`, `servers[0]: not a JSON object`},
	} {
		_, err := Parse([]byte(`{"servers":[`+c.server+`]}`), t.TempDir())
		var fe *FieldError
		require.ErrorAs(t, err, &fe, c.server)
		require.Contains(t, err.Error(), c.want, c.server)
		require.True(t, strings.HasPrefix(err.Error(), "operator catalog: "), err.Error())
	}
	for file, want := range map[string]string{
		`[]`:                   "operator catalog: not a JSON object",
		`{}`:                   "operator catalog: field servers: must be an array",
		`{"servers":[],"x":1}`: "operator catalog: field x: unknown field",
		`{"servers":[]} {}`:    "data after the object",
		`{"servers":[` + `{"id":"a","languages":["go"],"command":"gopls","install":{"kind":"manual"}},{"id":"a","languages":["go"],"command":"gopls","install":{"kind":"manual"}}]}`: `server "a" (servers[1]): field id: defined twice`,
	} {
		_, err := Parse([]byte(file), "")
		require.ErrorContains(t, err, want, file)
	}
	// Load names the file.
	p := filepath.Join(t.TempDir(), "ops.json")
	require.NoError(t, os.WriteFile(p, []byte(`{"servers":[{"id":"x"}]}`), 0o644))
	_, err := Load(p)
	require.EqualError(t, err, "operator catalog "+p+`: server "x" (servers[0]): field languages: required: an array of language ids`)
	_, err = Load(filepath.Join(t.TempDir(), "none.json"))
	require.ErrorContains(t, err, "no such file")
	_, err = Parse([]byte(npm("")), "")
	require.Error(t, err, "a server is not a file")

	// A major-version suffix is not the binary's name.
	entries, err := Parse([]byte(`{"servers":[{"id":"x","languages":["go"],"command":"x","install":{"kind":"go","package":"example.com/x/v2@v2.1.0"}}]}`), "")
	require.NoError(t, err)
	require.Equal(t, []string{"example.com/x/v2@v2.1.0"}, entries[0].Install.Packages)
}
