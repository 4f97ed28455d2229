//go:build linux

package stream

import (
	"os"
	"path/filepath"
	"testing"

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
