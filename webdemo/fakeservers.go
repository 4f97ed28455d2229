package webdemo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FakeServerNames are the servers these machines cannot install for real;
// the fake language server stands in for them under their own names, so the
// agent discovers and runs them exactly as it would the real ones.
var FakeServerNames = []string{"rust-analyzer", "kotlin-lsp"}

// WithFakeServers links fakeBin into a new folder under dir as each of
// FakeServerNames and returns env with that folder first on PATH.
func WithFakeServers(env []string, dir, fakeBin string) ([]string, error) {
	abs, err := filepath.Abs(fakeBin)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "fake-servers")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	for _, name := range FakeServerNames {
		if err := os.Symlink(abs, filepath.Join(bin, name)); err != nil {
			return nil, err
		}
	}
	return PrependPath(env, bin)
}

// PrependPath returns env with dirs (a PATH-style list) first on PATH.
// Relative folders are made absolute: the agent runs language servers in
// the workspace, where a relative PATH entry would mean something else.
func PrependPath(env []string, dirs string) ([]string, error) {
	var abs []string
	for _, d := range filepath.SplitList(dirs) {
		if d == "" {
			continue
		}
		a, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		abs = append(abs, a)
	}
	prefix := strings.Join(abs, string(os.PathListSeparator))
	out := make([]string, 0, len(env)+1)
	path := prefix
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			if v != "" {
				path = prefix + string(os.PathListSeparator) + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path), nil
}

// WithUnlaunchable writes, in a new folder under dir, an executable file
// named after each of names that holds no program (exec fails with "exec
// format error"), and returns env with that folder first on PATH: the agent
// discovers the command as it would a real server, and its launch fails.
func WithUnlaunchable(env []string, dir string, names []string) ([]string, error) {
	bin := filepath.Join(dir, "unlaunchable")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	for _, name := range names {
		if name == "" || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("unlaunchable %q: not a command name", name)
		}
		if err := os.WriteFile(filepath.Join(bin, name), []byte("this file is not a program\n"), 0o755); err != nil {
			return nil, err
		}
	}
	return PrependPath(env, bin)
}
