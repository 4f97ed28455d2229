// Package taskenv holds the task environment: the one explicit map of
// environment variables that discovery reads, and the allowlist
// (allow.go) of those that installers and language servers may see.
//
// The agent's own process environment is the task environment, but it is read
// once, in main, and passed down as a value. Nothing else in the agent calls
// os.Getenv: a test can then describe a whole task host (PATH, HOME, GOBIN,
// GOPATH, USERPROFILE, PATHEXT) without touching the process, and the spec's
// "task-only toolchain" rule holds by construction.
package taskenv

import (
	"runtime"
	"sort"
	"strings"
)

// Env is a task environment and the operating system it describes. The zero
// value is an empty environment on runtime.GOOS.
type Env struct {
	vars map[string]string
	// GOOS selects path and lookup rules (list separator, absolute paths,
	// PATHEXT, case-insensitive names). It is a field rather than
	// runtime.GOOS so Windows rules are testable on any host.
	GOOS string
	// GOARCH is the task host's architecture, which picks release
	// downloads; a field for the same reason as GOOS.
	GOARCH string
	// workspace is the resolved task workspace (WithWorkspace), "" for
	// none: directories inside it are never searched.
	workspace string
	// pass names the variables children get besides the allowlist
	// (WithPass).
	pass []string
}

// New returns an Env over a copy of vars, for the host's operating system.
func New(vars map[string]string) *Env {
	m := make(map[string]string, len(vars))
	for k, v := range vars {
		m[k] = v
	}
	return &Env{vars: m, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
}

// clone copies e, variables, rules and workspace included.
func (e *Env) clone() *Env {
	c := New(e.vars)
	c.GOOS, c.GOARCH, c.workspace = e.GOOS, e.GOARCH, e.workspace
	c.pass = append([]string(nil), e.pass...)
	return c
}

// Parse turns KEY=VALUE entries, as os.Environ returns them, into a map.
// Entries without "=" are dropped; a later entry wins, as in exec. Windows'
// per-drive "=C:=C:\dir" entries have an empty name and are dropped too.
func Parse(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		m[k] = v
	}
	return m
}

// Get returns the value of a variable, "" when unset. Names are
// case-insensitive on Windows, where PATH is often spelled Path.
func (e *Env) Get(name string) string {
	if v, ok := e.vars[name]; ok || e.GOOS != "windows" {
		return v
	}
	for k, v := range e.vars {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// List returns the whole environment as sorted KEY=VALUE entries, the
// form exec.Cmd.Env takes; sorting makes it reproducible. It is what the
// agent reads, not what a child may see: children get ServerList or
// InstallList.
func (e *Env) List() []string {
	out := make([]string, 0, len(e.vars))
	for k, v := range e.vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
