package taskenv

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A PATH entry inside the workspace, directly or through a symlink from
// outside, is never searched: a repository's bin/gopls does not run even
// when the task PATH lists it first.
func TestLookPathIgnoresWorkspace(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	ws, outside, links := t.TempDir(), t.TempDir(), t.TempDir()
	writeExe(t, filepath.Join(mkdir(t, ws, "bin")), "gopls", 0o755)
	writeExe(t, filepath.Join(mkdir(t, ws, "deep", "tools")), "gopls", 0o755)
	link := filepath.Join(links, "tools")
	require.NoError(t, os.Symlink(filepath.Join(ws, "deep", "tools"), link))
	want := writeExe(t, outside, "gopls", 0o755)

	path := filepath.Join(ws, "bin") + ":" + link + ":" + ws + ":" + outside
	e := New(map[string]string{"PATH": path})
	got, err := e.LookPath("gopls")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(ws, "bin", "gopls"), got, "without a workspace the first entry wins")

	e = e.WithWorkspace(ws)
	got, err = e.LookPath("gopls")
	require.NoError(t, err)
	require.Equal(t, want, got, "the workspace entries, the symlinked one too, are skipped")

	e = New(map[string]string{"PATH": filepath.Join(ws, "bin")}).WithWorkspace(ws)
	_, err = e.LookPath("gopls", link)
	require.ErrorIs(t, err, ErrNotFound, "extra directories inside the workspace are skipped as well")
}

// The workspace given through a symlink is resolved too: a PATH entry
// naming the real directory is inside it.
func TestWorkspaceThroughSymlink(t *testing.T) {
	t.Parallel()
	real, links := t.TempDir(), t.TempDir()
	ws := filepath.Join(links, "ws")
	require.NoError(t, os.Symlink(real, ws))
	e := New(nil).WithWorkspace(ws)
	require.True(t, e.InWorkspace(filepath.Join(real, "bin")))
	require.True(t, e.InWorkspace(filepath.Join(ws, "not", "yet", "made")), "a path that does not exist yet")
	require.True(t, e.InWorkspace(real))
	require.False(t, e.InWorkspace(links))
	require.False(t, e.InWorkspace(real+"-sibling"), "a name that only starts like it")
}

// A HOME inside the workspace has no managed cache and no Go bin
// directory; GOBIN and GOPATH entries inside it are dropped from lookups
// and from the installers' environment.
func TestHomeAndGoDirsInsideWorkspace(t *testing.T) {
	t.Parallel()
	ws, other := t.TempDir(), t.TempDir()
	e := New(map[string]string{
		"HOME":   filepath.Join(ws, "home"),
		"GOBIN":  filepath.Join(ws, "gobin"),
		"GOPATH": filepath.Join(ws, "gopath") + ":" + other,
		"PATH":   filepath.Join(ws, "node_modules", ".bin") + ":relative:/usr/bin",
	})
	require.Equal(t, filepath.Join(ws, "home"), e.Home(), "no workspace given: as it was")

	e = e.WithWorkspace(ws)
	require.Empty(t, e.Home(), "a home in the checkout is no home")
	require.Equal(t, []string{filepath.Join(other, "bin")}, e.GoBinDirs())
	got := Parse(e.InstallList())
	require.Equal(t, "/usr/bin", got["PATH"])
	require.Equal(t, other, got["GOPATH"])
	require.NotContains(t, got, "GOBIN")
	require.Equal(t, filepath.Join(ws, "home"), got["HOME"], "HOME itself is the task's; installs refuse it elsewhere")
}

// Windows task hosts, described on any agent: the comparison ignores case
// and separators.
func TestWindowsWorkspace(t *testing.T) {
	t.Parallel()
	e := New(map[string]string{"USERPROFILE": `c:\work\repo\home`, "Path": `C:\Work\Repo\bin;C:\Go\bin`})
	e.GOOS = "windows"
	e = e.WithWorkspace(`C:\work\repo`)
	require.True(t, e.InWorkspace(`c:/WORK/repo/bin`))
	require.False(t, e.InWorkspace(`C:\work\repo2`))
	require.Empty(t, e.Home())
	require.Equal(t, `C:\Go\bin`, Parse(e.InstallList())["Path"])
}

func mkdir(t *testing.T, elem ...string) string {
	t.Helper()
	d := filepath.Join(elem...)
	require.NoError(t, os.MkdirAll(d, 0o755))
	return d
}
