package install

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// windowsEnv is a task environment of a Windows host.
func windowsEnv(vars map[string]string) *taskenv.Env {
	e := taskenv.New(vars)
	e.GOOS = "windows"
	return e
}

// linuxEnv is a task environment of a Linux host.
func linuxEnv(vars map[string]string) *taskenv.Env {
	e := taskenv.New(vars)
	e.GOOS = "linux"
	return e
}

// darwinEnv is a task environment of a macOS host.
func darwinEnv(vars map[string]string) *taskenv.Env {
	e := taskenv.New(vars)
	e.GOOS = "darwin"
	return e
}

// windowsFS is a fake Windows file tree: paths like C:\a\b.cmd are keys
// "C:/a/b.cmd" of an in-memory file system.
func windowsFS(files ...string) statFunc {
	m := fstest.MapFS{}
	for _, f := range files {
		m[strings.ReplaceAll(f, `\`, "/")] = &fstest.MapFile{Mode: 0o644}
	}
	return func(name string) (fs.FileInfo, error) {
		return m.Stat(strings.ReplaceAll(name, `\`, "/"))
	}
}

func TestCacheRootFromTaskHome(t *testing.T) {
	t.Parallel()
	root, err := CacheRoot(linuxEnv(map[string]string{"HOME": "/task/home"}))
	require.NoError(t, err)
	require.Equal(t, "/task/home/.kandev/lsp-servers", root)

	for _, home := range []string{"", "relative/home", "."} {
		_, err := CacheRoot(linuxEnv(map[string]string{"HOME": home}))
		require.ErrorIs(t, err, ErrNoHome, "HOME=%q", home)
	}

	root, err = CacheRoot(windowsEnv(map[string]string{"USERPROFILE": `C:\Users\dev`}))
	require.NoError(t, err)
	require.Equal(t, `C:\Users\dev\.kandev\lsp-servers`, root)
	_, err = CacheRoot(windowsEnv(map[string]string{"USERPROFILE": `Users\dev`}))
	require.ErrorIs(t, err, ErrNoHome)
}

// Spec: Windows npm launcher — cache lookup returns the PATHEXT shim, not
// the extensionless script beside it.
func TestManagedLauncherWindowsShim(t *testing.T) {
	t.Parallel()
	env := windowsEnv(map[string]string{"USERPROFILE": `C:\Users\dev`, "PATHEXT": ".COM;.EXE;.BAT;.CMD"})
	bin := `C:\Users\dev\.kandev\lsp-servers\pyright\node_modules\.bin\`
	stat := windowsFS(bin+"pyright-langserver", bin+"pyright-langserver.cmd", bin+"pyright-langserver.ps1")
	got, err := managedLauncher(env, def(wire.Python), stat)
	require.NoError(t, err)
	require.Equal(t, bin+"pyright-langserver.cmd", got)

	_, err = managedLauncher(env, def(wire.TypeScript), stat)
	require.ErrorIs(t, err, ErrNotInstalled)
}

// Spec: Windows Go workspace — only USERPROFILE set: gopls.exe is found in
// USERPROFILE\go\bin.
func TestManagedLauncherWindowsGoWorkspace(t *testing.T) {
	t.Parallel()
	env := windowsEnv(map[string]string{"USERPROFILE": `C:\Users\dev`})
	stat := windowsFS(`C:\Users\dev\go\bin\gopls.exe`)
	got, err := managedLauncher(env, def(wire.Go), stat)
	require.NoError(t, err)
	require.Equal(t, `C:\Users\dev\go\bin\gopls.exe`, got)

	// A gopls.cmd planted there is not what go install writes.
	_, err = managedLauncher(env, def(wire.Go), windowsFS(`C:\Users\dev\go\bin\gopls.cmd`))
	require.ErrorIs(t, err, ErrNotInstalled)
}

// Spec: Relative Go binary directory — relative GOBIN, GOPATH entries,
// HOME and USERPROFILE never supply gopls.
func TestGoResultIgnoresRelativeDirs(t *testing.T) {
	t.Parallel()
	env := windowsEnv(map[string]string{"GOBIN": `bin`, "GOPATH": `gp;D:\gopath`, "USERPROFILE": `Users\dev`})
	stat := windowsFS(`bin\gopls.exe`, `gp\bin\gopls.exe`, `Users\dev\go\bin\gopls.exe`, `D:\gopath\bin\gopls.exe`)
	got, err := managedLauncher(env, def(wire.Go), stat)
	require.NoError(t, err)
	require.Equal(t, `D:\gopath\bin\gopls.exe`, got)

	_, err = managedLauncher(env, def(wire.Go), windowsFS(`bin\gopls.exe`, `gp\bin\gopls.exe`))
	require.ErrorIs(t, err, ErrNotInstalled)
}

func TestPrepareUnsupported(t *testing.T) {
	t.Parallel()
	m := New(Config{})
	_, err := m.Prepare(linuxEnv(map[string]string{"HOME": "/h"}), def(wire.Kotlin))
	require.ErrorIs(t, err, ErrUnsupported)
	var ue *UnsupportedError
	require.ErrorAs(t, err, &ue)
	require.Contains(t, ue.Reason, "kotlin-lsp")

	// Spec: Unsupported Rust installer — Windows is 4007, with a reason.
	_, err = m.Prepare(windowsEnv(map[string]string{"USERPROFILE": `C:\u`}), def(wire.Rust))
	require.ErrorIs(t, err, ErrUnsupported)
	require.ErrorAs(t, err, &ue)
	require.Contains(t, ue.Reason, "manually")

	// A Linux task host gets the installer even when the agent that
	// decided the preference was elsewhere: only the task host's OS counts.
	_, err = New(Config{GOARCH: "arm64"}).Prepare(linuxEnv(map[string]string{"HOME": "/h"}), def(wire.Rust))
	require.NoError(t, err)
	_, err = New(Config{GOARCH: "riscv64"}).Prepare(linuxEnv(map[string]string{"HOME": "/h"}), def(wire.Rust))
	require.ErrorIs(t, err, ErrUnsupported)

	// No absolute home: not "unsupported", a failure the user can fix.
	_, err = m.Prepare(linuxEnv(map[string]string{"HOME": "rel"}), def(wire.Python))
	require.ErrorIs(t, err, ErrNoHome)
	require.NotErrorIs(t, err, ErrUnsupported)
}

func TestRustAssets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "rust-analyzer-x86_64-unknown-linux-gnu.gz"},
		{"linux", "arm64", "rust-analyzer-aarch64-unknown-linux-gnu.gz"},
		{"darwin", "amd64", "rust-analyzer-x86_64-apple-darwin.gz"},
		{"darwin", "arm64", "rust-analyzer-aarch64-apple-darwin.gz"},
	} {
		env := taskenv.New(map[string]string{"HOME": "/h"})
		env.GOOS = c.goos
		ri, err := newReleaseInstaller(env, &Config{GOARCH: c.goarch}, def(wire.Rust))
		require.NoError(t, err)
		require.Equal(t, c.want, ri.asset)
		require.Equal(t, def(wire.Rust).Install.Release.Assets[c.goos+"/"+c.goarch].SHA256, ri.sum)
		require.NotEmpty(t, ri.sum)
	}
	for _, c := range [][2]string{{"windows", "amd64"}, {"freebsd", "amd64"}, {"linux", "386"}} {
		env := taskenv.New(map[string]string{"HOME": "/h"})
		env.GOOS = c[0]
		_, err := newReleaseInstaller(env, &Config{GOARCH: c[1]}, def(wire.Rust))
		require.ErrorIs(t, err, ErrUnsupported, c)
	}
}
