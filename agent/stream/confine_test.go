//go:build linux

package stream

import (
	"os"
	"path/filepath"
	"testing"

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
