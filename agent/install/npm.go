package install

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kandev/lsp/agent/taskenv"
)

// Exact npm pins. typescript-language-server 6 needs Node 22; typescript 7
// ships no tsserver.js, which typescript-language-server loads. The whole
// dependency tree of each server is pinned further, with integrity
// hashes, by the lockfiles in npm/ (see npmLocks).
const (
	TypeScriptLanguageServerVersion = "5.3.0"
	TypeScriptVersion               = "6.0.3"
	PyrightVersion                  = "1.1.414"
)

// npmLocks holds, per server, the package.json and package-lock.json that
// an install writes into its staging directory and hands to `npm ci`: npm
// then installs exactly the locked tree — every package at its locked
// version, each tarball checked against its sha512 — or fails (EINTEGRITY
// for a tarball that does not match). Nothing is resolved at install time.
//
// Provenance: the lockfiles were generated with npm 11.19.1 (`npm install
// --package-lock-only`) against registry.npmjs.org; each integrity value is
// the registry's dist.integrity for that version, as the publisher's
// upload produced it; each was checked again against `npm view
// NAME@VERSION dist.integrity` from the registry. To move a pin, change the version in
// package.json, regenerate the lockfile the same way, and update the
// constants above; TestNPMLockfilesPinned keeps the three in step.
//
//go:embed npm/*/package.json npm/*/package-lock.json
var npmLocks embed.FS

// npmPackage is one managed npm install: a directory in the cache holding
// the locked package.json and package-lock.json and their node_modules.
type npmPackage struct {
	// name is the cache subdirectory and the directory in npmLocks.
	name string
	// specs are the exact package@version pins, for the installers
	// route's manual command; the lockfile is what an install uses.
	specs []string
	// launcher is the command node_modules/.bin gets for the server.
	launcher string
	// lock holds package.json and package-lock.json; nil means
	// npmLocks' directory for name.
	lock fs.FS
}

// lockFiles returns the package's package.json and package-lock.json.
func (p npmPackage) lockFiles() fs.FS {
	if p.lock != nil {
		return p.lock
	}
	sub, err := fs.Sub(npmLocks, "npm/"+p.name)
	if err != nil {
		panic(err) // a fixed, embedded path
	}
	return sub
}

var (
	npmTypeScript = npmPackage{
		name:     "typescript-language-server",
		specs:    []string{"typescript-language-server@" + TypeScriptLanguageServerVersion, "typescript@" + TypeScriptVersion},
		launcher: "typescript-language-server",
	}
	npmPyright = npmPackage{
		name:     "pyright",
		specs:    []string{"pyright@" + PyrightVersion},
		launcher: "pyright-langserver",
	}
)

// npmInstaller installs an npmPackage under the task's cache root.
type npmInstaller struct {
	work
	pkg  npmPackage
	root string // CacheRoot(env)
}

func (n *npmInstaller) dest() string { return join(n.env.GOOS, n.root, n.pkg.name) }

func (n *npmInstaller) lockPath() string {
	return join(n.env.GOOS, locksDir(n.env, n.root), n.pkg.name+".lock")
}

// find returns the concrete launcher in node_modules/.bin: on Windows the
// PATHEXT-selected shim (pyright-langserver.cmd), which is what a process
// start can launch.
func (n *npmInstaller) find(stat statFunc) (string, error) {
	bin := join(n.env.GOOS, n.dest(), "node_modules", ".bin")
	return findExecutable(n.env, stat, bin, n.pkg.launcher)
}

// install runs `npm ci` in a fresh staging directory inside the cache,
// with the package's locked package.json and package-lock.json written
// there, and renames it into place once the launcher is there, so
// discovery never sees a half-installed package, whatever interrupts npm.
//
// npm runs with the staging directory as its working directory and the
// task environment's own npm settings (its npmrc, registry, proxy, CA),
// without the PATH entries inside the workspace. Not --prefix: npm then
// reads DIR/etc/npmrc as its global config and loses the machine's own
// (a registry CA file, a proxy), and installs fail with certificate
// errors. --ignore-scripts: no package's install scripts run; the servers
// need none, and a compromised dependency's would run with the user's
// rights before any server starts.
func (n *npmInstaller) install(ctx context.Context, r *Runner, out *Output) (err error) {
	npm, err := n.env.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is required (install Node.js on the task host): %w", err)
	}
	if err := os.MkdirAll(n.root, 0o755); err != nil {
		return err
	}
	removeGlob(n.root, ".staging-"+n.pkg.name+"-*")
	staging, err := os.MkdirTemp(n.root, ".staging-"+n.pkg.name+"-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(staging)
		}
	}()
	if err := writeLockFiles(staging, n.pkg.lockFiles()); err != nil {
		return err
	}
	if err := r.Run(ctx, Command{Path: npm, Args: npmArgs, Dir: staging, Env: n.env.InstallList()}, out); err != nil {
		return err
	}
	if _, err := findExecutable(n.env, osStat, join(n.env.GOOS, staging, "node_modules", ".bin"), n.pkg.launcher); err != nil {
		return fmt.Errorf("npm finished but did not create %s: %w", n.pkg.launcher, err)
	}
	return publishDir(staging, n.dest())
}

// npmArgs is the npm command line. --loglevel=http prints one line per
// package fetched: the progress the stall timeout watches, and what a
// failure's output shows. --no-progress and --color=false keep that output
// readable in an install_failed frame; --no-audit, --no-fund and
// --update-notifier=false spare requests nobody reads.
var npmArgs = []string{
	"ci", "--ignore-scripts", "--no-audit", "--no-fund", "--update-notifier=false",
	"--no-progress", "--color=false", "--loglevel=http",
}

// writeLockFiles copies package.json and package-lock.json into dir, which
// makes dir the npm project `npm ci` installs.
func writeLockFiles(dir string, lock fs.FS) error {
	for _, name := range []string{"package.json", "package-lock.json"} {
		b, err := fs.ReadFile(lock, name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// publishDir renames a complete staging directory to dest. A directory that
// is already at dest (an install from an older pin, or one a user broke)
// is first moved aside: rename cannot replace a non-empty directory, and
// moving it is itself atomic, so dest is never a mix of the two.
func publishDir(staging, dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		old := staging + ".old"
		if err := os.Rename(dest, old); err != nil {
			return err
		}
		defer os.RemoveAll(old)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(staging, dest)
}

// newNPMInstaller returns the installer of pkg for env.
func newNPMInstaller(env *taskenv.Env, pkg npmPackage) (*npmInstaller, error) {
	root, err := CacheRoot(env)
	if err != nil {
		return nil, err
	}
	return &npmInstaller{work: work{env: env}, pkg: pkg, root: root}, nil
}
