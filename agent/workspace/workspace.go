// Package workspace confines file access to a task workspace and answers the
// questions the agent asks about it: which files it holds, which directories
// are repositories, and how to read or atomically replace one file; and it
// makes a Files tree's changes: create, move or delete a file or directory
// (ops.go).
//
// Confinement is layered. A request path is checked lexically (relative, no
// ".." escape), then resolved with filepath.EvalSymlinks and checked against
// the resolved workspace root, which tells an escape (403) from a missing
// file (404); a create, move or delete resolves only the parent directory
// that way, and acts on the name itself — a symlink there is moved or
// removed as a link, never followed, and a create never goes through one.
// The I/O itself then goes through an os.Root, which refuses to leave the
// root even if a symlink is swapped between the check and the use.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Errors, each mapping to one HTTP status in the files routes.
var (
	// ErrInvalidPath: empty, absolute, or escaping with "..".
	ErrInvalidPath = errors.New("workspace: invalid path")
	// ErrEscapes: the path resolves, through a symlink, outside the workspace.
	ErrEscapes = errors.New("workspace: path escapes the workspace")
	// ErrNotFound: the file, or the directory a new file would go in, does
	// not exist.
	ErrNotFound = errors.New("workspace: not found")
	// ErrNotRegular: the path names a directory or a special file (a
	// FIFO, a socket, a device), which is never opened.
	ErrNotRegular = errors.New("workspace: not a regular file")
	// ErrUnresolvable: the path cannot be resolved at all — a symlink
	// loop, a regular file used as a directory, a name too long. Like
	// every other unusable path it is the client's to fix, not a fault of
	// the agent's.
	ErrUnresolvable = errors.New("workspace: path does not resolve")
	// ErrExists: the name a file or directory would be created at, or
	// moved to, is taken — by a file, a directory, or a symlink, dangling
	// or not. Nothing is ever replaced: a Files tree's create or rename
	// must not silently destroy what was there.
	ErrExists = errors.New("workspace: already exists")
)

// skipDirs are never listed or searched: VCS internals and dependency trees
// that would drown a Files tree.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Root is an open workspace directory.
type Root struct {
	dir  string   // as configured: absolute, cleaned
	real string   // dir with symlinks resolved
	root *os.Root // opened on real
}

// Open opens the workspace at dir, which must be an absolute directory.
func Open(dir string) (*Root, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("workspace: %q is not absolute", dir)
	}
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	return &Root{dir: dir, real: real, root: root}, nil
}

// Dir returns the workspace directory as configured (not symlink-resolved):
// the path the user and the language server know it by.
func (r *Root) Dir() string { return r.dir }

// Close releases the root directory handle.
func (r *Root) Close() error { return r.root.Close() }

// clean checks a request path lexically and returns it slash-cleaned.
func clean(rel string) (string, error) {
	if rel == "" || strings.ContainsRune(rel, 0) || path.IsAbs(rel) || filepath.IsAbs(rel) || strings.HasPrefix(rel, `\`) {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, rel)
	}
	c := path.Clean(filepath.ToSlash(rel))
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, rel)
	}
	return c, nil
}

// inside maps an absolute, symlink-free path to its path relative to the
// resolved root, or fails with ErrEscapes.
func (r *Root) inside(resolved string) (string, error) {
	rel, err := filepath.Rel(r.real, resolved)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", ErrEscapes
	}
	return rel, nil
}

// resolve returns the root-relative, symlink-free form of an existing path.
func (r *Root) resolve(rel string) (string, error) {
	c, err := clean(rel)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(r.real, filepath.FromSlash(c)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%w: %s", ErrNotFound, c)
	case errors.Is(err, fs.ErrPermission):
		return "", err
	case err != nil:
		return "", fmt.Errorf("%w: %s: %w", ErrUnresolvable, c, err)
	}
	return r.inside(resolved)
}

// openRegular opens the root-relative, symlink-free path p for reading
// if, and only if, it is a regular file. open(2) of a FIFO without a
// writer blocks, and of a device may do anything, so nothing is opened
// that lstat does not call regular; the open itself is non-blocking (a
// FIFO swapped in since the lstat opens at once), and the opened file
// must still be regular and the very file lstat saw.
func (r *Root) openRegular(p string) (*os.File, error) {
	before, err := r.root.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s", ErrNotRegular, filepath.ToSlash(p))
	}
	f, err := r.root.OpenFile(p, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	after, err := f.Stat()
	if err != nil || !after.Mode().IsRegular() || !os.SameFile(before, after) {
		f.Close()
		return nil, fmt.Errorf("%w: %s", ErrNotRegular, filepath.ToSlash(p))
	}
	return f, nil
}
