package taskenv

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAllowed(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"PATH", "Path", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TMP", "TEMP", "USERPROFILE", "PATHEXT",
		"SystemRoot", "ComSpec", "windir", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "XDG_CACHE_HOME",
		"GOPATH", "GOBIN", "GOROOT", "GOFLAGS", "GOPROXY", "GOMODCACHE", "GOCACHE", "GOPRIVATE", "GONOSUMDB",
		"GOTOOLCHAIN", "CGO_ENABLED", "CGO_CFLAGS", "CC", "CXX", "NODE_PATH", "NODE_EXTRA_CA_CERTS",
		"npm_config_registry", "NPM_CONFIG_CACHE", "npm_config_strict-ssl", "npm_config_@acme:registry",
		"VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME", "JAVA_HOME", "CARGO_HOME", "RUSTUP_HOME",
		"RUSTUP_TOOLCHAIN", "DOTNET_ROOT", "HTTP_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
		"SSL_CERT_FILE", "SSL_CERT_DIR",
	} {
		require.True(t, Allowed(name), name)
	}
	for _, name := range []string{
		"PGPASSWORD", "PGPASSFILE", "PGHOST", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN",
		"DATABASE_URL", "KANDEV_AGENT_TOKEN", "KANDEV_AGENT_CATALOG", "GITHUB_TOKEN", "OPENAI_API_KEY",
		"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_API_KEY", "GOPHER_SECRET", "npm_config__authToken",
		"npm_config_//registry.npmjs.org/:_authToken", "NPM_CONFIG__AUTH", "npm_config_key", "npm_config_@acme:_authToken",
		"NODE_OPTIONS", "LD_PRELOAD", "LC_", "XDG_", "SECRET", "", "=C:",
	} {
		require.False(t, Allowed(name), name)
	}
}

func TestFilterEnviron(t *testing.T) {
	t.Parallel()
	got := FilterEnviron([]string{"PATH=/usr/bin", "PGPASSWORD=s3cret", "HOME=/home/u", "MY_TASK_VAR=1", "OTHER=2", "=C:=C:\\", "junk"}, "MY_TASK_VAR")
	require.Equal(t, []string{"PATH=/usr/bin", "HOME=/home/u", "MY_TASK_VAR=1"}, got)
}

// What a language server gets: the allowlist and the operator's names,
// PATH without relative or workspace entries; nothing else, whatever the
// task host's environment holds.
func TestServerList(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	other := t.TempDir()
	e := New(map[string]string{
		"PATH":       filepath.Join(ws, "node_modules", ".bin") + ":" + filepath.Join(ws, "bin") + ":.::bin:" + other + ":/usr/bin",
		"HOME":       other,
		"GOPATH":     filepath.Join(ws, "gopath"),
		"PGPASSWORD": "s3cret", "PGPASSFILE": "/x/.pgpass", "AWS_SECRET_ACCESS_KEY": "k", "DATABASE_URL": "postgres://u:p@h/db",
		"MY_TASK_VAR": "1", "LC_ALL": "C.UTF-8",
	}).WithWorkspace(ws).WithPass("MY_TASK_VAR")
	e.GOOS = "linux"
	got := Parse(e.ServerList())
	require.Equal(t, map[string]string{
		"PATH": other + ":/usr/bin", "HOME": other, "GOPATH": filepath.Join(ws, "gopath"), "MY_TASK_VAR": "1", "LC_ALL": "C.UTF-8",
	}, got)
	inst := Parse(e.InstallList())
	require.NotContains(t, inst, "GOPATH", "installs never write into the checkout")
	require.NotContains(t, inst, "PGPASSWORD")
	require.Equal(t, "1", inst["MY_TASK_VAR"])

	// A PATH wholly inside the workspace is no PATH at all.
	only := New(map[string]string{"PATH": filepath.Join(ws, "bin") + ":."}).WithWorkspace(ws)
	require.NotContains(t, Parse(only.ServerList()), "PATH")

	// The pass list survives WithWorkspace, in either order.
	again := New(map[string]string{"MY_TASK_VAR": "1"}).WithPass("MY_TASK_VAR").WithWorkspace(ws)
	require.Equal(t, "1", Parse(again.ServerList())["MY_TASK_VAR"])
}

// On Windows, cmd.exe (which runs npm's .cmd shims) must not look in the
// working directory, the workspace, before PATH.
func TestServerListWindows(t *testing.T) {
	t.Parallel()
	e := New(map[string]string{"Path": `C:\work\repo\node_modules\.bin;C:\Program Files\nodejs`, "SystemRoot": `C:\Windows`, "AWS_PROFILE": "x"})
	e.GOOS = "windows"
	e = e.WithWorkspace(`C:\work\repo`)
	got := Parse(e.ServerList())
	require.Equal(t, map[string]string{"Path": `C:\Program Files\nodejs`, "SystemRoot": `C:\Windows`, "NoDefaultCurrentDirectoryInExePath": "1"}, got)
}
