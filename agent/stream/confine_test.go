//go:build linux

package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Discovery inside the workspace: the repository plants a gopls in its
// bin directory and a pyright in a managed cache under a HOME inside the
// checkout; the task environment points at both (PATH directly and
// through a symlink from outside). Neither runs: the stream reports the
// servers missing (4001) and the planted scripts never start.
func TestWorkspaceBinariesNeverRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	planted := "#!/bin/sh\ntouch " + filepath.Join(f.ws, "planted-ran") + "\nexec cat\n"
	require.NoError(t, os.MkdirAll(filepath.Join(f.ws, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(f.ws, "bin", "gopls"), []byte(planted), 0o755))
	home := filepath.Join(f.ws, "home")
	launchers := filepath.Join(home, ".kandev", "lsp-servers", "pyright", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(launchers, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(launchers, "pyright-langserver"), []byte(planted), 0o755))
	link := filepath.Join(t.TempDir(), "tools")
	require.NoError(t, os.Symlink(filepath.Join(f.ws, "bin"), link))

	for name, env := range map[string]map[string]string{
		"PATH entry":         {"PATH": filepath.Join(f.ws, "bin") + ":/usr/bin:/bin", "HOME": t.TempDir()},
		"PATH symlink":       {"PATH": link + ":/usr/bin:/bin", "HOME": t.TempDir()},
		"HOME managed cache": {"PATH": "/usr/bin:/bin", "HOME": home},
	} {
		t.Run(name, func(t *testing.T) {
			g := newFixture(t, "", func(c *Config) {
				c.Workspace = f.h.cfg.Workspace
				c.Env = taskenv.New(env)
			})
			for _, lang := range []string{"go", "python"} {
				c, _, err := dial(t, g, lang, token)
				require.NoError(t, err)
				requireClose(t, c, int(wire.CloseBinaryMissing))
			}
		})
	}
	require.NoFileExists(t, filepath.Join(f.ws, "planted-ran"))

	// The same environments without the confinement would have run them:
	// the test plants what discovery would really find.
	outside := newFixture(t, "", func(c *Config) {
		c.Env = taskenv.New(map[string]string{"PATH": link + ":/usr/bin:/bin", "HOME": home})
	})
	c, _ := readReady(t, outside)
	c.CloseNow()
	py, _, err := dial(t, outside, "python", token)
	require.NoError(t, err)
	require.Equal(t, wire.StatusReady, readStatus(t, py).Status)
}

// An npm launcher outside the workspace names its interpreter with
// "#!/usr/bin/env NAME"; the task PATH has a workspace directory first
// that holds a NAME of the repository's. The agent runs the launcher with
// the NAME discovery finds, outside the workspace: the planted one never
// runs and the server comes up.
func TestLauncherInterpreterOutsideWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ran := filepath.Join(t.TempDir(), "planted-ran")
	wsBin := filepath.Join(f.ws, "node_modules", ".bin")
	tools := t.TempDir()
	require.NoError(t, os.MkdirAll(wsBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wsBin, "kandevnode"), []byte("#!/bin/sh\ntouch "+ran+"\nexec cat\n"), 0o755))
	// The interpreter gets the launcher as its first argument, like node.
	require.NoError(t, os.WriteFile(filepath.Join(tools, "kandevnode"), []byte("#!/bin/sh\ntest -f \"$1\" || exit 9\nexec cat\n"), 0o755))
	home := t.TempDir()
	launchers := filepath.Join(home, ".kandev", "lsp-servers", "pyright", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(launchers, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(launchers, "pyright-langserver"), []byte("#!/usr/bin/env kandevnode\n"), 0o755))

	g := newFixture(t, "", func(c *Config) {
		c.Workspace = f.h.cfg.Workspace
		c.Env = taskenv.New(map[string]string{"PATH": wsBin + ":" + tools + ":/usr/bin:/bin", "HOME": home})
	})
	py, _, err := dial(t, g, "python", token)
	require.NoError(t, err)
	require.Equal(t, wire.StatusReady, readStatus(t, py).Status)
	// An echo proves the server runs (and so that a planted interpreter
	// would have left its mark by now).
	ctx := testCtx(t)
	msg := []byte(`{"jsonrpc":"2.0","method":"ping"}`)
	require.NoError(t, py.Write(ctx, websocket.MessageText, msg))
	_, got, err := py.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, msg, got)
	py.CloseNow()
	require.NoFileExists(t, ran)
}

// The managed launcher names "#!/usr/bin/env NAME" and the only NAME is
// the repository's, in node_modules/.bin, ./bin or "." of the task PATH.
// The stream closes like a server that cannot be installed here (4007,
// the manual-install guidance) and neither the planted interpreter nor
// the launcher runs: nothing is left to env's search of the PATH.
func TestLauncherInterpreterOnlyInWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ran := filepath.Join(t.TempDir(), "planted-ran")
	planted := "#!/bin/sh\ntouch " + ran + "\nexec cat\n"
	for _, dir := range []string{filepath.Join(f.ws, "node_modules", ".bin"), filepath.Join(f.ws, "bin"), f.ws} {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "kandevnode"), []byte(planted), 0o755))
	}
	home := t.TempDir()
	launchers := filepath.Join(home, ".kandev", "lsp-servers", "pyright", "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(launchers, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(launchers, "pyright-langserver"), []byte("#!/usr/bin/env kandevnode\n"), 0o755))

	for name, path := range map[string]string{
		"absolute workspace entries": filepath.Join(f.ws, "node_modules", ".bin") + ":" + filepath.Join(f.ws, "bin") + ":/usr/bin:/bin",
		"relative entries":           "node_modules/.bin:./bin:.::/usr/bin:/bin",
	} {
		t.Run(name, func(t *testing.T) {
			g := newFixture(t, "", func(c *Config) {
				c.Workspace = f.h.cfg.Workspace
				c.Env = taskenv.New(map[string]string{"PATH": path, "HOME": home})
			})
			py, _, err := dial(t, g, "python", token)
			require.NoError(t, err)
			requireClose(t, py, int(wire.CloseNoInstaller))
		})
	}
	require.NoFileExists(t, ran)
}

// A language server's own PATH holds no relative entry and none inside
// the workspace: what it (or a launcher run as it is) looks up there can
// never be the repository's.
func TestServerPathConfined(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	dump := filepath.Join(t.TempDir(), "env")
	require.NoError(t, os.WriteFile(filepath.Join(f.bin, "gopls"), []byte("#!/bin/sh\nenv > "+dump+".tmp && mv "+dump+".tmp "+dump+"\nexec cat\n"), 0o755))
	link := filepath.Join(t.TempDir(), "tools")
	require.NoError(t, os.Symlink(f.ws, link))
	g := newFixture(t, "", func(c *Config) {
		c.Workspace = f.h.cfg.Workspace
		c.Env = taskenv.New(map[string]string{
			"PATH": filepath.Join(f.ws, "node_modules", ".bin") + ":.:bin::" + link + ":" + f.bin + ":/usr/bin:/bin",
			"HOME": t.TempDir(),
		})
	})
	c, _ := readReady(t, g)
	c.CloseNow()
	var path string
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(dump)
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "PATH="); ok {
				path = v
				return true
			}
		}
		return false
	}, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, f.bin+":/usr/bin:/bin", path)
}
