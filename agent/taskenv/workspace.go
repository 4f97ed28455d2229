package taskenv

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// WithWorkspace returns a copy of e that never looks inside the task
// workspace dir: a PATH entry, GOBIN, a GOPATH entry, HOME or USERPROFILE
// that resolves inside it (symlinks followed, on the agent's own OS) is
// ignored by LookPath, GoBinDirs and Home, and left out of InstallList.
//
// The workspace is a checkout: whatever lives there is the project's, not
// the user's. A task PATH that lists ./bin or node_modules/.bin would
// otherwise let a repository plant the gopls or npm the agent runs, and a
// HOME inside it would put the managed cache (the installed servers) in
// the checkout, where the next commit or the next clone decides what runs.
func (e *Env) WithWorkspace(dir string) *Env {
	c := e.clone()
	c.workspace = ""
	if dir != "" {
		c.workspace = c.resolve(dir)
	}
	return c
}

// WorkspaceDir is the resolved workspace given to WithWorkspace, "" for none.
func (e *Env) WorkspaceDir() string { return e.workspace }

// InWorkspace reports whether p resolves inside the workspace given to
// WithWorkspace (the workspace itself included).
func (e *Env) InWorkspace(p string) bool {
	if e.workspace == "" || p == "" {
		return false
	}
	r := e.resolve(p)
	if e.GOOS == "windows" {
		r, ws := strings.ToLower(r), strings.ToLower(e.workspace)
		return r == ws || strings.HasPrefix(r, strings.TrimRight(ws, `\/`)+`\`)
	}
	return r == e.workspace || strings.HasPrefix(r, strings.TrimRight(e.workspace, "/")+"/")
}

// usable reports whether dir may be searched or installed into: absolute
// and outside the workspace.
func (e *Env) usable(dir string) bool { return dir != "" && e.IsAbs(dir) && !e.InWorkspace(dir) }

// resolve returns p cleaned and, on the agent's own OS, with symlinks
// resolved as far as the path exists: a directory that does not exist yet
// (a Go bin directory before the first install) is still placed where its
// existing parent really is. A task OS other than the agent's (tests
// describing Windows) is compared as written, with separators unified.
func (e *Env) resolve(p string) string {
	if e.GOOS != runtime.GOOS {
		if e.GOOS == "windows" {
			return strings.TrimRight(strings.ReplaceAll(p, "/", `\`), `\`)
		}
		return filepath.Clean(p)
	}
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// InstallList is the environment installers (npm, go) run with: the
// allowed variables (Allowed, WithPass) with the PATH and GOPATH entries
// that are relative or inside the workspace removed, and GOBIN dropped
// when it is one of those. npm starts node and go its tools through PATH,
// so a planted node or a GOPATH in the checkout would otherwise run or be
// written to during an install.
func (e *Env) InstallList() []string { return e.childList("PATH", "GOPATH", "GOBIN") }

// ServerList is the environment a language server runs with: the allowed
// variables (Allowed, WithPass) with the PATH entries that are relative
// or inside the workspace removed. A server's launcher ("#!/usr/bin/env
// node" run as it is, a .cmd shim) and the server itself (gopls running
// go, a linter running its plugins) look commands up in PATH; with
// node_modules/.bin, ./bin or "." on it, the repository would choose what
// runs. GOPATH is left as the task has it: gopls reads a project laid out
// in a GOPATH inside the checkout, and nothing is run from there.
func (e *Env) ServerList() []string { return e.childList("PATH") }

// childList is the allowed part of the environment with the named
// directory-list variables confined (usable entries only; the variable
// dropped when none is left). On Windows it also sets
// NoDefaultCurrentDirectoryInExePath: cmd.exe, which runs npm's .cmd
// shims, otherwise looks for node in the working directory — the
// workspace — before PATH.
func (e *Env) childList(confine ...string) []string {
	vars := make(map[string]string, len(e.vars))
	for k, v := range e.vars {
		if e.passes(k) {
			vars[k] = v
		}
	}
	sep := ":"
	if e.GOOS == "windows" {
		sep = ";"
	}
	for k, v := range vars {
		name := k
		if e.GOOS == "windows" {
			name = strings.ToUpper(k) // Path is PATH there
		}
		if !slices.Contains(confine, name) {
			continue
		}
		if name == "GOBIN" {
			if !e.usable(v) {
				delete(vars, k)
			}
			continue
		}
		var keep []string
		for _, d := range e.SplitList(v) {
			if e.usable(d) {
				keep = append(keep, d)
			}
		}
		if len(keep) == 0 {
			delete(vars, k)
		} else {
			vars[k] = strings.Join(keep, sep)
		}
	}
	if e.GOOS == "windows" {
		vars["NoDefaultCurrentDirectoryInExePath"] = "1"
	}
	c := New(vars)
	c.GOOS = e.GOOS
	return c.List()
}
