package library

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/workspace"
)

// fakeTool writes an executable shell script named name into dir that
// prints lines.
func fakeTool(t *testing.T, dir, name string, lines ...string) {
	t.Helper()
	script := "#!/bin/sh\n"
	for _, l := range lines {
		script += "echo '" + l + "'\n"
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755))
}

// A task host described by a PATH whose go and python3 name a toolchain, a
// module cache and a site-packages directory, and an npm server installed
// in a node_modules directory; plus a workspace whose own node_modules is
// no library root.
type host struct {
	env                       *taskenv.Env
	goroot, modcache, site    string
	nodeModules, workspaceDir string
}

func newHost(t *testing.T) host {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	h := host{
		goroot: filepath.Join(base, "go"), modcache: filepath.Join(base, "mod"), site: filepath.Join(base, "site-packages"),
		nodeModules: filepath.Join(base, "servers", "node_modules"), workspaceDir: filepath.Join(base, "ws"),
	}
	bin := filepath.Join(base, "bin")
	for _, d := range []string{h.goroot, h.modcache, h.site, bin, h.workspaceDir,
		filepath.Join(h.nodeModules, ".bin"), filepath.Join(h.nodeModules, "typescript", "lib"), filepath.Join(h.nodeModules, "typescript-language-server", "lib"),
		filepath.Join(h.workspaceDir, "node_modules", ".bin")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	fakeTool(t, bin, "go", h.goroot, h.modcache)
	fakeTool(t, bin, "python3", h.site, h.site, filepath.Join(base, "missing"))
	fakeTool(t, filepath.Join(h.nodeModules, "typescript-language-server", "lib"), "cli.mjs")
	require.NoError(t, os.Symlink("../typescript-language-server/lib/cli.mjs", filepath.Join(h.nodeModules, ".bin", "typescript-language-server")))
	fakeTool(t, filepath.Join(h.workspaceDir, "node_modules", ".bin"), "pyright-langserver")
	require.NoError(t, os.WriteFile(filepath.Join(h.nodeModules, "typescript", "lib", "lib.dom.d.ts"), []byte("interface Console {}\n"), 0o644))
	path := strings.Join([]string{bin, filepath.Join(h.nodeModules, ".bin"), filepath.Join(h.workspaceDir, "node_modules", ".bin"), "/usr/bin", "/bin"}, string(os.PathListSeparator))
	h.env = taskenv.New(map[string]string{"PATH": path, "HOME": base}).WithWorkspace(h.workspaceDir)
	return h
}

// The roots are what the task's own tools name, each an existing
// directory, once; the workspace's node_modules is not one (the workspace
// routes serve it), and a command that is not on PATH adds nothing.
func TestDiscoverFindsTheTaskHostsRoots(t *testing.T) {
	h := newHost(t)
	got := Discover(context.Background(), h.env, []string{"typescript-language-server", "pyright-langserver", "gopls"})
	assert.Equal(t, []Source{
		{Kind: KindGoRoot, Dir: h.goroot},
		{Kind: KindGoModules, Dir: h.modcache},
		{Kind: KindPython, Dir: h.site},
		{Kind: KindServer, Dir: h.nodeModules},
	}, got)
}

// The real toolchain of this machine, when there is one: its GOROOT is a
// root, and a standard library file opens.
func TestTheRealGoToolchainIsALibrary(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	require.NoError(t, err)
	goroot, err := filepath.EvalSymlinks(strings.TrimSpace(string(out)))
	require.NoError(t, err)
	home := t.TempDir()
	// Go's telemetry is off in this HOME: otherwise go env starts a detached
	// upload process that may still be writing under HOME/.config/go after
	// the test, which then fails to remove its TempDir.
	telemetry := filepath.Join(home, ".config", "go", "telemetry")
	require.NoError(t, os.MkdirAll(telemetry, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(telemetry, "mode"), []byte("off"), 0o644))
	env := taskenv.New(map[string]string{"PATH": filepath.Dir(goBin), "HOME": home})
	lib := New(env, nil)
	t.Cleanup(lib.Close)
	f, err := lib.Open(context.Background(), filepath.Join(goroot, "src", "fmt", "print.go"))
	require.NoError(t, err)
	defer f.Close()
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Contains(t, string(b), "func Println(")
}

// Only regular files under a root open; everything else is refused the
// way the workspace routes refuse it, and nothing is ever written.
func TestOpenIsConfinedToTheRoots(t *testing.T) {
	h := newHost(t)
	ctx := context.Background()
	lib := New(h.env, []string{"typescript-language-server"})
	t.Cleanup(lib.Close)
	outside := filepath.Join(filepath.Dir(h.goroot), "secret.txt")
	require.NoError(t, os.WriteFile(outside, []byte("secret"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(h.goroot, "src", "fmt"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(h.goroot, "src", "fmt", "print.go"), []byte("package fmt\n"), 0o444))
	require.NoError(t, os.Symlink(outside, filepath.Join(h.goroot, "src", "leak.go")))
	mkfifo(t, filepath.Join(h.site, "pipe.py"))

	f, err := lib.Open(ctx, filepath.Join(h.goroot, "src", "fmt", "print.go"))
	require.NoError(t, err)
	b, _ := io.ReadAll(f)
	f.Close()
	assert.Equal(t, "package fmt\n", string(b))
	f, err = lib.Open(ctx, filepath.Join(h.nodeModules, "typescript", "lib", "lib.dom.d.ts"))
	require.NoError(t, err, "the server's own libraries")
	f.Close()

	for _, c := range []struct {
		path string
		want error
	}{
		{outside, ErrNotInLibrary},
		{"src/fmt/print.go", ErrNotInLibrary},
		{filepath.Join(h.goroot, "..", "secret.txt"), ErrNotInLibrary},
		{filepath.Join(h.workspaceDir, "node_modules", ".bin", "pyright-langserver"), ErrNotInLibrary},
		{filepath.Join(h.goroot, "src", "leak.go"), workspace.ErrEscapes},
		{filepath.Join(h.goroot, "src"), workspace.ErrNotRegular},
		{filepath.Join(h.site, "pipe.py"), workspace.ErrNotRegular},
		{filepath.Join(h.goroot, "src", "nothing.go"), workspace.ErrNotFound},
		{h.goroot + "\x00/x", ErrNotInLibrary},
	} {
		f, err := lib.Open(ctx, c.path)
		if f != nil {
			f.Close()
		}
		assert.ErrorIs(t, err, c.want, "%q", c.path)
	}
}

// A root that appears after the first look (a module cache created by
// the first download) is found when a path under it is asked for.
func TestARootThatAppearsLaterIsFound(t *testing.T) {
	h := newHost(t)
	require.NoError(t, os.Remove(h.modcache))
	lib := New(h.env, nil)
	t.Cleanup(lib.Close)
	assert.NotContains(t, lib.Sources(context.Background()), Source{Kind: KindGoModules, Dir: h.modcache})
	require.NoError(t, os.MkdirAll(filepath.Join(h.modcache, "example.com", "m@v1.0.0"), 0o755))
	file := filepath.Join(h.modcache, "example.com", "m@v1.0.0", "m.go")
	require.NoError(t, os.WriteFile(file, []byte("package m\n"), 0o444))
	lib.mu.Lock()
	lib.found = lib.found.Add(-2 * rediscoverAfter) // as if a while had passed
	lib.mu.Unlock()
	f, err := lib.Open(context.Background(), file)
	require.NoError(t, err)
	f.Close()
}

// A toolchain or interpreter that names a directory holding the workspace
// or the task's home (a GOROOT of /, a site-packages of $HOME) gives no
// root: that would make them readable.
func TestNoRootHoldsTheWorkspaceOrHome(t *testing.T) {
	h := newHost(t)
	bin := filepath.Join(filepath.Dir(h.goroot), "bin")
	fakeTool(t, bin, "go", "/", filepath.Dir(h.workspaceDir))
	fakeTool(t, bin, "python3", h.env.Home())
	assert.Empty(t, Discover(context.Background(), h.env, nil))
}
