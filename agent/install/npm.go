package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/taskenv"
)

// npmPackage is one managed npm install: a directory in the cache holding
// the locked package.json and package-lock.json and their node_modules.
// The pins and the lockfile are the catalog entry's (catalog.Recipe).
type npmPackage struct {
	// managed is the cache subdirectory, slash-separated
	// ("vscode-langservers-extracted", "operator/my-yaml").
	managed string
	// specs are the exact package@version pins, for the installers
	// route's manual command; the lockfile is what an install uses.
	specs []string
	// launcher is the command node_modules/.bin gets for the server.
	launcher string
	// binDir is where the executable is inside node_modules
	// (catalog.Recipe.BinDir): .bin (also when nil), or a native binary's
	// own package.
	binDir []string
	// lock holds package.json and package-lock.json.
	lock *catalog.NPMLock
}

// npmPackageOf is the npm install of an entry.
func npmPackageOf(e catalog.Entry) npmPackage {
	return npmPackage{managed: e.Install.Managed, specs: e.Install.Packages, launcher: e.Command, binDir: e.Install.BinDir(), lock: e.Install.Lock}
}

// npmInstaller installs an npmPackage under the task's cache root.
type npmInstaller struct {
	work
	pkg  npmPackage
	root string // CacheRoot(env)
}

func (n *npmInstaller) dest() string {
	return join(n.env.GOOS, append([]string{n.root}, strings.Split(n.pkg.managed, "/")...)...)
}

func (n *npmInstaller) lockPath() string {
	return join(n.env.GOOS, append([]string{locksDir(n.env, n.root)}, strings.Split(n.pkg.managed+".lock", "/")...)...)
}

// find returns the concrete launcher in node_modules/.bin: on Windows the
// PATHEXT-selected shim (pyright-langserver.cmd), which is what a process
// start can launch.
func (n *npmInstaller) find(stat statFunc) (string, error) {
	return n.pkg.findIn(n.env, stat, n.dest())
}

// binPath is the directory of the server's executable in an install at
// dir: node_modules/.bin, or a native binary's own package.
func (p npmPackage) binPath(goos, dir string) string {
	if len(p.binDir) == 0 {
		return join(goos, dir, "node_modules", ".bin")
	}
	return join(goos, append([]string{dir, "node_modules"}, p.binDir...)...)
}

// findIn returns the server's executable in an install at dir.
func (p npmPackage) findIn(env *taskenv.Env, stat statFunc, dir string) (string, error) {
	return findExecutable(env, stat, p.binPath(env.GOOS, dir), p.launcher)
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
	// Staging beside the destination, so publishing it is a rename.
	parent, base := filepath.Dir(n.dest()), filepath.Base(n.dest())
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeGlob(parent, ".staging-"+base+"-*")
	staging, err := os.MkdirTemp(parent, ".staging-"+base+"-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(staging)
		}
	}()
	if err := writeLockFiles(staging, n.pkg.lock); err != nil {
		return err
	}
	if err := r.Run(ctx, Command{Path: npm, Args: npmArgs, Dir: staging, Env: n.env.InstallList()}, out); err != nil {
		return err
	}
	if _, err := n.pkg.findIn(n.env, osStat, staging); err != nil {
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

// writeLockFiles writes package.json and package-lock.json into dir, which
// makes dir the npm project `npm ci` installs.
func writeLockFiles(dir string, lock *catalog.NPMLock) error {
	if lock == nil {
		return errors.New("no lockfile for this npm install")
	}
	for name, b := range map[string][]byte{"package.json": lock.PackageJSON, "package-lock.json": lock.PackageLock} {
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
