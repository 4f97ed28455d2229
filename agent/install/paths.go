package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kandev/lsp/agent/taskenv"
)

// ErrNoHome: the task environment has no absolute home directory, so there
// is no managed cache to install into or look in.
var ErrNoHome = errors.New("install: task HOME is not an absolute path")

// ErrNotInstalled: the managed result is not there (yet).
var ErrNotInstalled = errors.New("install: not installed")

// ErrHomeInWorkspace: the task's home directory is inside the task
// workspace, so a managed cache (or go's module and build caches) there
// would live in the checkout. Nothing is installed for such a task.
var ErrHomeInWorkspace = errors.New("install: task HOME is inside the task workspace; no managed cache may live in a checkout")

// CacheRoot returns the managed cache, $HOME/.kandev/lsp-servers, of the
// task environment. The task's HOME is used, not the agent's parent
// process's, because executors override HOME; a Windows task without HOME
// uses USERPROFILE, as Go and npm do there. A relative home is refused: it
// would resolve inside whatever directory the agent runs in, perhaps the
// repository. A home inside the task workspace is refused for the same
// reason: no managed cache may live in a checkout.
func CacheRoot(env *taskenv.Env) (string, error) {
	home, err := taskHome(env)
	if err != nil {
		return "", err
	}
	return join(env.GOOS, home, ".kandev", "lsp-servers"), nil
}

// taskHome is the task's home for installs: HOME, or USERPROFILE on a
// Windows task without HOME; absolute and outside the workspace.
func taskHome(env *taskenv.Env) (string, error) {
	home := env.Get("HOME")
	if home == "" && env.GOOS == "windows" {
		home = env.Get("USERPROFILE")
	}
	if home == "" || !env.IsAbs(home) {
		return "", fmt.Errorf("%w: %q", ErrNoHome, home)
	}
	if env.InWorkspace(home) {
		return "", fmt.Errorf("%w: %q", ErrHomeInWorkspace, home)
	}
	return home, nil
}

// join joins path elements with the task OS's separator. filepath would use
// the agent's, which is wrong for an injected Windows task in tests and
// harmless otherwise.
func join(goos string, elem ...string) string {
	if goos != "windows" {
		return filepath.Join(elem...)
	}
	for i, e := range elem {
		if i > 0 {
			e = strings.Trim(e, `\/`)
		} else {
			e = strings.TrimRight(e, `\/`)
		}
		elem[i] = e
	}
	return strings.Join(elem, `\`)
}

// statFunc is how lookups see the file system; tests describe a Windows
// tree with an in-memory one.
type statFunc func(name string) (fs.FileInfo, error)

// findExecutable returns the first of dir/name+ext, for the candidate
// extensions of the task OS, that is an executable regular file. On Windows
// the candidates follow PATHEXT, so npm's "pyright-langserver.cmd" shim is
// found rather than the extensionless sh script beside it, which Windows
// cannot launch.
func findExecutable(env *taskenv.Env, stat statFunc, dir, name string) (string, error) {
	for _, cand := range candidates(env, name) {
		p := join(env.GOOS, dir, cand)
		fi, err := stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if env.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %s in %s", ErrNotInstalled, name, dir)
}

// candidates lists the file names to try for name: on Windows name with each
// PATHEXT extension (the Windows default when unset), elsewhere name.
func candidates(env *taskenv.Env, name string) []string {
	if env.GOOS != "windows" {
		return []string{name}
	}
	pathext := env.Get("PATHEXT")
	if pathext == "" {
		pathext = ".COM;.EXE;.BAT;.CMD"
	}
	var out []string
	for _, ext := range strings.Split(pathext, ";") {
		if ext == "" {
			continue
		}
		if ext[0] != '.' {
			ext = "." + ext
		}
		out = append(out, name+strings.ToLower(ext))
	}
	return out
}

// osStat is the real file system.
var osStat statFunc = os.Stat
