package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kandev/lsp/agent/taskenv"
)

// Exact npm pins. typescript-language-server 6 needs Node 22; typescript 7
// ships no tsserver.js, which typescript-language-server loads.
const (
	TypeScriptLanguageServerVersion = "5.3.0"
	TypeScriptVersion               = "6.0.3"
	PyrightVersion                  = "1.1.414"
)

// npmPackage is one managed npm install: a directory in the cache holding
// a package.json and its node_modules.
type npmPackage struct {
	// name is the cache subdirectory.
	name string
	// specs are the exact package@version arguments.
	specs []string
	// launcher is the command node_modules/.bin gets for the server.
	launcher string
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

// install runs npm in a fresh staging directory inside the cache and
// renames it into place once the launcher is there, so discovery never sees
// a half-installed package, whatever interrupts npm.
//
// npm runs with the staging directory as its working directory, a
// package.json there, and the task environment untouched. Not --prefix:
// npm then reads DIR/etc/npmrc as its global config and loses the
// machine's own (a registry CA file, a proxy), and installs fail with
// certificate errors.
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
	if err := writePackageJSON(staging, n.pkg.name); err != nil {
		return err
	}
	// --no-progress and --color=false keep the captured output readable in
	// an install_failed frame; they change no install behaviour.
	args := append([]string{"install", "--no-audit", "--no-fund", "--save-exact", "--no-progress", "--color=false"}, n.pkg.specs...)
	if err := r.Run(ctx, Command{Path: npm, Args: args, Dir: staging, Env: n.env.InstallList()}, out); err != nil {
		return err
	}
	if _, err := findExecutable(n.env, osStat, join(n.env.GOOS, staging, "node_modules", ".bin"), n.pkg.launcher); err != nil {
		return fmt.Errorf("npm finished but did not create %s: %w", n.pkg.launcher, err)
	}
	return publishDir(staging, n.dest())
}

// writePackageJSON makes dir an npm project, so npm installs into its
// node_modules rather than looking for a project further up.
func writePackageJSON(dir, name string) error {
	b, err := json.MarshalIndent(map[string]any{
		"name":        "kandev-lsp-" + name,
		"private":     true,
		"description": "Managed by Kandev: a language server install.",
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "package.json"), append(b, '\n'), 0o644)
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
