package install

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
)

// goInstaller runs `go install` with the task's Go toolchain and finds the
// result in the task's Go bin directories.
type goInstaller struct {
	work
	// target is what `go install` is given: a module path at a version.
	target string
	// binary is the executable's base name (".exe" is added on Windows).
	binary string
	// dir is the working directory; `go install path@version` ignores the
	// current module, so any directory outside a checkout does.
	dir string
	// lockFile guards the Go bin directory this task installs into.
	lockFile string
}

// newGoInstaller returns the `go install` of an entry for env: its one
// pinned module path@version, which publishes the entry's command. It runs
// in the managed cache directory; its lock lives there too, or, for a task
// without a home, in the first Go bin directory, which is what it changes.
func newGoInstaller(env *taskenv.Env, e catalog.Entry) (*goInstaller, error) {
	if len(e.Install.Packages) != 1 {
		return nil, fmt.Errorf("install %s: the go recipe pins %d packages, not one", e.ID, len(e.Install.Packages))
	}
	g := &goInstaller{work: work{env: env}, target: e.Install.Packages[0], binary: e.Command}
	root, err := CacheRoot(env)
	if errors.Is(err, ErrHomeInWorkspace) {
		// go would put its module and build caches under that home.
		return nil, fmt.Errorf("install %s: %w", e.ID, err)
	}
	if err == nil {
		g.dir = root
		g.lockFile = join(env.GOOS, locksDir(env, root), g.binary+".lock")
		return g, nil
	}
	dirs := env.GoBinDirs()
	if len(dirs) == 0 {
		return nil, fmt.Errorf("install %s: the task sets no absolute GOBIN, GOPATH, HOME or USERPROFILE for go install to use", e.ID)
	}
	g.dir = dirs[0]
	g.lockFile = join(env.GOOS, dirs[0], ".kandev-"+g.binary+".lock")
	return g, nil
}

func (g *goInstaller) lockPath() string { return g.lockFile }

// find looks in the task's Go bin directories only (GOBIN, each GOPATH
// entry's bin, HOME/go/bin or USERPROFILE\go\bin), absolute ones only, in
// Go's order: that is where this install puts the binary, whatever PATH
// says. go install always writes name.exe on Windows, whatever PATHEXT is.
func (g *goInstaller) find(stat statFunc) (string, error) {
	// On Windows PATHEXT is narrowed to .exe: go install never writes
	// another kind, and a gopls.cmd there would be someone else's.
	bin := taskenv.New(map[string]string{"PATHEXT": ".exe"})
	bin.GOOS = g.env.GOOS
	for _, dir := range g.env.GoBinDirs() {
		if p, err := findExecutable(bin, stat, dir, g.binary); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %s in the Go bin directories %q", ErrNotInstalled, g.binary, g.env.GoBinDirs())
}

// install runs `go install` found on the task PATH, never the agent's, with
// the task environment, so GOPATH, HOME, USERPROFILE, GOPROXY and GOFLAGS
// are the task's own — without the PATH and GOPATH entries inside the
// workspace (taskenv.InstallList). GOBIN is set to the first Go bin
// directory, which is where go would write anyway unless the task's GOBIN
// was inside the workspace: the result must land where find looks. go
// writes the binary with its own temp file and rename, so a cancelled
// build publishes nothing.
func (g *goInstaller) install(ctx context.Context, r *Runner, out *Output) error {
	goBin, err := g.env.LookPath("go")
	if err != nil {
		return fmt.Errorf("go is required (install the Go toolchain on the task host): %w", err)
	}
	dirs := g.env.GoBinDirs()
	if len(dirs) == 0 {
		return fmt.Errorf("install %s: the task sets no absolute GOBIN, GOPATH, HOME or USERPROFILE outside the workspace for go install to use", g.binary)
	}
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		return err
	}
	env := append(g.env.InstallList(), "GOBIN="+dirs[0])
	return r.Run(ctx, Command{Path: goBin, Args: goInstallArgs(g.target), Dir: g.dir, Env: env}, out)
}

// goInstallArgs is the go command line. -v prints each package as it is
// built (after go's own "downloading" lines): the progress the stall
// timeout watches, since go install is otherwise silent until it ends.
func goInstallArgs(target string) []string {
	return []string{"install", "-v", target}
}
