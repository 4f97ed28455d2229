// Package library opens, read-only, the files outside the workspace that a
// language server's answers point to: the definition of fmt.Println in the
// Go toolchain, of a dependency in the module cache, of requests.get in the
// task interpreter's site-packages, of console.log in the TypeScript
// server's own lib.dom.d.ts. An editor opens such a file read-only, as
// desktop IDEs do.
//
// Only files under a library root are opened, and only regular files: each
// root is opened as a workspace.Root, so a path is confined exactly as the
// workspace's file routes confine theirs (lexical check, symlinks resolved
// and checked against the root, I/O through an os.Root). Nothing here
// writes. The roots are what the task environment itself names (its go and
// python3 on its PATH, the servers the catalog would run), found again
// when a path lies under none of those known, at most every few seconds.
package library

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/workspace"
)

// Kinds of library root.
const (
	// KindGoRoot is the task's Go toolchain (go env GOROOT): the standard
	// library's sources.
	KindGoRoot = "go-root"
	// KindGoModules is the task's module cache (go env GOMODCACHE): the
	// sources of every dependency, read-only on disk too.
	KindGoModules = "go-modules"
	// KindPython is a site-packages directory of the task's python3.
	KindPython = "python-site-packages"
	// KindServer is the node_modules directory an npm language server
	// runs from: its own libraries (TypeScript's lib.*.d.ts, pyright's
	// bundled typeshed) beside it.
	KindServer = "server"
)

// Source is one library root.
type Source struct {
	Kind string `json:"kind"`
	// Dir is the root as the task names it: absolute, cleaned.
	Dir string `json:"dir"`
}

// ErrNotInLibrary is a path under no library root (or not absolute): it
// stays refused, as everything outside the workspace did before.
var ErrNotInLibrary = errors.New("library: not under a library root")

// rediscoverAfter bounds how often a path under no known root makes the
// roots be found again (a module downloaded, a server installed since).
const rediscoverAfter = 5 * time.Second

// Library is the task host's library roots, found lazily.
type Library struct {
	env      *taskenv.Env
	commands []string // catalog commands whose npm package dirs are roots

	mu    sync.Mutex
	roots []root
	found time.Time // when roots were last found; zero: never
}

type root struct {
	Source
	r *workspace.Root
}

// New returns the library of env's task host; commands are the language
// server commands the catalog may run, looked up on the task's PATH.
func New(env *taskenv.Env, commands []string) *Library {
	return &Library{env: env, commands: commands}
}

// Sources lists the roots, finding them on the first call.
func (l *Library) Sources(ctx context.Context) []Source {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.found.IsZero() {
		l.discoverLocked(ctx)
	}
	out := make([]Source, len(l.roots))
	for i, r := range l.roots {
		out[i] = r.Source
	}
	return out
}

// Open opens the regular file at abs, an absolute task-host path under a
// library root, for reading. A path under no root is ErrNotInLibrary; the
// rest is workspace.Root.Open's (ErrEscapes through a symlink,
// ErrNotRegular, ErrNotFound…).
func (l *Library) Open(ctx context.Context, abs string) (*os.File, error) {
	if !filepath.IsAbs(abs) || strings.ContainsRune(abs, 0) {
		return nil, ErrNotInLibrary
	}
	abs = filepath.Clean(abs)
	l.mu.Lock()
	if l.found.IsZero() || (l.under(abs) == nil && time.Since(l.found) > rediscoverAfter) {
		l.discoverLocked(ctx)
	}
	r := l.under(abs)
	l.mu.Unlock()
	if r == nil {
		return nil, ErrNotInLibrary
	}
	rel, err := filepath.Rel(r.Dir, abs)
	if err != nil {
		return nil, ErrNotInLibrary
	}
	return r.r.Open(filepath.ToSlash(rel))
}

// under returns the root abs lies under (the deepest, if they nest).
func (l *Library) under(abs string) *root {
	var best *root
	for i := range l.roots {
		r := &l.roots[i]
		if strings.HasPrefix(abs, strings.TrimRight(r.Dir, string(filepath.Separator))+string(filepath.Separator)) &&
			(best == nil || len(r.Dir) > len(best.Dir)) {
			best = r
		}
	}
	return best
}

// discoverLocked finds the roots again; l.mu is held.
func (l *Library) discoverLocked(ctx context.Context) {
	for _, r := range l.roots {
		_ = r.r.Close()
	}
	l.roots = nil
	for _, s := range Discover(ctx, l.env, l.commands) {
		wr, err := workspace.Open(s.Dir)
		if err != nil {
			continue // gone since, or unreadable: not a root
		}
		l.roots = append(l.roots, root{Source: s, r: wr})
	}
	l.found = time.Now()
}

// Close releases the roots.
func (l *Library) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.roots {
		_ = r.r.Close()
	}
	l.roots = nil
}

// Discover finds the library roots env names: its go's GOROOT and
// GOMODCACHE, its python3's site-packages, and the node_modules directory
// each of commands runs from. Directories inside the workspace are never
// roots (the workspace's own routes serve those), nor is a directory that
// holds the workspace or the task's home (a toolchain set to / or to $HOME
// would make them all readable), nor anything that is not an existing
// absolute directory.
func Discover(ctx context.Context, env *taskenv.Env, commands []string) []Source {
	var out []Source
	home := env.Home()
	add := func(kind, dir string) {
		dir = strings.TrimSpace(dir)
		if dir == "" || !filepath.IsAbs(dir) || env.InWorkspace(dir) {
			return
		}
		dir = filepath.Clean(dir) // as the task names it: the paths servers send use this name
		real := dir
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			real = r
		}
		inside := func(p string) bool {
			return p != "" && (p == real || strings.HasPrefix(p, strings.TrimRight(real, string(filepath.Separator))+string(filepath.Separator)))
		}
		if inside(env.WorkspaceDir()) || (home != "" && inside(filepath.Clean(home))) {
			return
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return
		}
		if !slices.ContainsFunc(out, func(s Source) bool { return s.Dir == dir }) {
			out = append(out, Source{Kind: kind, Dir: dir})
		}
	}
	if lines := run(ctx, env, "go", "env", "GOROOT", "GOMODCACHE"); len(lines) == 2 {
		add(KindGoRoot, lines[0])
		add(KindGoModules, lines[1])
	}
	for _, dir := range run(ctx, env, "python3", "-c",
		"import site, sysconfig; print('\\n'.join(dict.fromkeys([sysconfig.get_paths()['purelib'], sysconfig.get_paths()['platlib']] + site.getsitepackages())))") {
		add(KindPython, dir)
	}
	for _, c := range commands {
		p, err := env.LookPath(c)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if i := strings.LastIndex(p, string(filepath.Separator)+"node_modules"+string(filepath.Separator)); i >= 0 {
			add(KindServer, p[:i+len("/node_modules")])
		}
	}
	return out
}

// run runs a command of the task environment (found on its PATH, with its
// variables, outside the workspace) for at most 10 s and returns its
// non-empty output lines; nil when it is missing or fails.
func run(ctx context.Context, env *taskenv.Env, name string, args ...string) []string {
	p, err := env.LookPath(name)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p, args...)
	cmd.Env = env.ServerList() // what a language server may see, no more
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
