package taskenv

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotFound: no executable of that name in any searched directory.
var ErrNotFound = errors.New("taskenv: executable not found")

// LookPath finds an executable named name in the task's PATH and then in
// extra, in that order, and returns its absolute path.
//
// Unlike exec.LookPath it never consults the agent's own environment or
// working directory: relative PATH entries (".", "bin", "") are skipped, and
// so are entries inside the task workspace (WithWorkspace), so a repository
// cannot plant a server binary (such as .kandev/lsp-servers/...) that the
// agent would run. Only executable regular files match; on Windows,
// a name without an extension is tried with each PATHEXT extension.
func (e *Env) LookPath(name string, extra ...string) (string, error) {
	return e.LookIn(name, append(e.SplitList(e.Get("PATH")), extra...)...)
}

// LookIn is LookPath over dirs alone, without the task PATH: for a server
// that must run from its own install.
func (e *Env) LookIn(name string, dirs ...string) (string, error) {
	seen := make(map[string]bool, len(dirs))
	for _, dir := range dirs {
		if seen[dir] || !e.usable(dir) {
			continue
		}
		seen[dir] = true
		for _, cand := range e.candidates(name) {
			p := e.join(dir, cand)
			if e.isExecutable(p) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%w: %s", ErrNotFound, name)
}

// GoBinDirs lists where `go install` may have put a binary for this task,
// in Go's own order of preference: GOBIN, each GOPATH entry's bin, then the
// default GOPATH's bin, which is Go's user home plus go\bin — USERPROFILE on
// Windows (what a Local PC task with only USERPROFILE has), HOME elsewhere.
// A Windows task's HOME/go/bin is searched last, since tools run under
// MSYS-style shells may have used it. The first entry is therefore where
// `go install` publishes. Relative values, and values inside the task
// workspace, are ignored: only absolute task-host directories outside the
// checkout may supply an installed binary.
func (e *Env) GoBinDirs() []string {
	var dirs []string
	add := func(d string) {
		if !slices.Contains(dirs, d) && e.usable(d) {
			dirs = append(dirs, d)
		}
	}
	add(e.Get("GOBIN"))
	for _, p := range e.SplitList(e.Get("GOPATH")) {
		if e.IsAbs(p) {
			add(e.join(p, "bin"))
		}
	}
	homes := []string{e.Get("HOME")}
	if e.GOOS == "windows" {
		homes = []string{e.Get("USERPROFILE"), e.Get("HOME")}
	}
	for _, h := range homes {
		if e.usable(h) {
			add(e.join(h, "go", "bin"))
		}
	}
	return dirs
}

// Home returns the task's home directory: HOME, or on Windows USERPROFILE
// when HOME is unset. A relative or missing value is "": nothing may be
// looked up or installed relative to the agent's working directory. A home
// inside the task workspace is "" too: no managed cache in a checkout.
func (e *Env) Home() string {
	home := e.Get("HOME")
	if e.GOOS == "windows" && home == "" {
		home = e.Get("USERPROFILE")
	}
	if !e.usable(home) {
		return ""
	}
	return home
}

// Join joins path elements with the task OS's separator.
func (e *Env) Join(elem ...string) string { return e.join(elem...) }

// SplitList splits a PATH-like list with the task OS's separator. Empty
// entries are kept; LookPath drops them as relative.
func (e *Env) SplitList(list string) []string {
	if list == "" {
		return nil
	}
	sep := ":"
	if e.GOOS == "windows" {
		sep = ";"
	}
	return strings.Split(list, sep)
}

// IsAbs reports whether p is absolute under the task OS's rules. Windows
// accepts drive paths (C:\x, C:/x) and UNC paths (\\host\share); a
// drive-relative "C:x" is not absolute.
func (e *Env) IsAbs(p string) bool {
	if e.GOOS != "windows" {
		return path.IsAbs(p)
	}
	if len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		return true
	}
	return strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// join joins path elements with the task OS's separator.
func (e *Env) join(elem ...string) string {
	if e.GOOS == "windows" {
		return strings.Join(elem, `\`)
	}
	return filepath.Join(elem...)
}

// candidates returns the file names to try for name: on Windows, name with
// each PATHEXT extension unless it already has one of them.
func (e *Env) candidates(name string) []string {
	if e.GOOS != "windows" {
		return []string{name}
	}
	exts := e.pathExt()
	lower := strings.ToLower(name)
	for _, ext := range exts {
		if strings.HasSuffix(lower, ext) {
			return []string{name}
		}
	}
	out := make([]string, 0, len(exts))
	for _, ext := range exts {
		out = append(out, name+ext)
	}
	return out
}

// pathExt returns the lower-cased PATHEXT extensions, with the Windows
// default when the task leaves it unset.
func (e *Env) pathExt() []string {
	v := e.Get("PATHEXT")
	if v == "" {
		v = ".com;.exe;.bat;.cmd"
	}
	var exts []string
	for _, ext := range strings.Split(strings.ToLower(v), ";") {
		if ext == "" {
			continue
		}
		if ext[0] != '.' {
			ext = "." + ext
		}
		exts = append(exts, ext)
	}
	return exts
}

// isExecutable reports whether p is a regular file the task may run. On
// Windows the extension decides (candidates already chose it), elsewhere an
// execute bit must be set. Symlinks are followed, as exec does.
func (e *Env) isExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return e.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
