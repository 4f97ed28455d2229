package install

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	m := New(Config{GOARCH: "amd64", ReleaseBaseURL: "http://127.0.0.1:1/dl", ReleaseChecksums: map[string]string{}})
	env := linuxEnv(map[string]string{"HOME": "/home/u", "PATH": "/nonexistent"})

	ts := m.Describe(env, def(wire.TypeScript))
	require.True(t, ts.Installable)
	require.Equal(t, wire.InstallerNPM, ts.Kind)
	require.Equal(t, []string{"npm", "install", "--no-audit", "--no-fund", "--save-exact", "typescript-language-server@5.3.0", "typescript@6.0.3"}, ts.InstallCommand)
	require.Equal(t, "/home/u/.kandev/lsp-servers/typescript-language-server", ts.WorkDir)
	require.Equal(t, "/home/u/.kandev/lsp-servers/typescript-language-server/node_modules/.bin", ts.Destination)
	require.Equal(t, []wire.Prerequisite{{Name: "node"}, {Name: "npm"}}, ts.Prerequisites)

	g := m.Describe(env, def(wire.Go))
	require.Equal(t, []string{"go", "install", "golang.org/x/tools/gopls@v0.23.0"}, g.InstallCommand)
	require.Equal(t, "/home/u/go/bin", g.Destination)

	r := m.Describe(env, def(wire.Rust))
	require.True(t, r.Installable)
	require.Equal(t, "http://127.0.0.1:1/dl/rust-analyzer-x86_64-unknown-linux-gnu.gz", r.Download)
	require.Equal(t, "/home/u/.kandev/lsp-servers/rust-analyzer", r.Destination)
	require.Contains(t, r.Guidance, "no pinned checksum")

	k := m.Describe(env, def(wire.Kotlin))
	require.False(t, k.Installable)
	require.Equal(t, wire.NotInstallableManual, k.Reason)
	require.Contains(t, k.Guidance, "kotlin-lsp")

	w := m.Describe(windowsEnv(map[string]string{"USERPROFILE": `C:\Users\dev`}), def(wire.Rust))
	require.False(t, w.Installable)
	require.Equal(t, wire.NotInstallableOS, w.Reason)
	require.Contains(t, w.Guidance, "manually")

	// tombi's native binary is locked for Linux x64 alone: a Windows or
	// macOS task host is told so, not handed an npm ci that would fail.
	tombi, _ := catalog.Builtin().Lookup("tombi")
	for _, env := range []*taskenv.Env{windowsEnv(map[string]string{"USERPROFILE": `C:\Users\dev`}), darwinEnv(map[string]string{"HOME": "/Users/dev"})} {
		d := m.Describe(env, tombi)
		require.False(t, d.Installable, env.GOOS)
		require.Equal(t, wire.NotInstallableOS, d.Reason, env.GOOS)
		require.Contains(t, d.Guidance, "tombi cannot be auto-installed on")
	}
	l := m.Describe(linuxEnv(map[string]string{"HOME": "/home/u"}), tombi)
	require.True(t, l.Installable)
	require.Equal(t, "/home/u/.kandev/lsp-servers/tombi/node_modules/@tombi-toml/cli-linux-x64", l.Destination)

	noHome := m.Describe(linuxEnv(map[string]string{"HOME": "rel"}), def(wire.Python))
	require.False(t, noHome.Installable)
	require.Contains(t, noHome.Guidance, "HOME")
}
