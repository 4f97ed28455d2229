package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Create creates an empty regular file (0o644), or a directory (0o755)
// when dir is set, at rel. Its parent directory must exist and resolve
// inside the workspace (entry). Whatever is at the name already, a
// dangling symlink included, is ErrExists: the creation is exclusive
// (O_EXCL, mkdir), so nothing is followed or replaced, not even something
// that appeared since the check.
func (r *Root) Create(rel string, dir bool) error {
	c, err := clean(rel)
	if err != nil {
		return err
	}
	p, err := r.entry(c)
	if err != nil {
		return err
	}
	if err := r.absent(p, c); err != nil {
		return err
	}
	if dir {
		err = r.root.Mkdir(p, 0o755)
	} else {
		var f *os.File
		f, err = r.root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			err = f.Close()
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w: %s", ErrExists, c)
	}
	return err
}

// Move renames from to to: a file, a directory with everything in it, or
// a symlink — the link itself, never its target, so a link out of the
// workspace moves as a link and what it points at is not touched. Both
// parents must exist and resolve inside the workspace (entry); from must
// exist (ErrNotFound) and to must not (ErrExists, from itself included).
// A directory cannot go below itself (ErrInvalidPath): the check compares
// the symlink-free paths, so no link inside the workspace hides it. The
// workspace root is never moved: clean refuses "." before anything else.
//
// The ErrExists check guards a user against replacing a file by mistake;
// it is not the confinement, which os.Root keeps whatever races it.
func (r *Root) Move(from, to string) error {
	fc, err := clean(from)
	if err != nil {
		return err
	}
	tc, err := clean(to)
	if err != nil {
		return err
	}
	src, err := r.entry(fc)
	if err != nil {
		return err
	}
	if err := r.lstat(src, fc); err != nil {
		return err
	}
	dst, err := r.entry(tc)
	if err != nil {
		return err
	}
	if strings.HasPrefix(dst, src+string(filepath.Separator)) {
		return fmt.Errorf("%w: %s into itself (%s)", ErrInvalidPath, fc, tc)
	}
	if err := r.absent(dst, tc); err != nil {
		return err
	}
	return r.root.Rename(src, dst)
}

// Delete removes the file, symlink or directory (with everything in it) at
// rel. A symlink is removed as a link: neither it nor anything in a
// directory below it is followed (os.Root.RemoveAll unlinks the name and
// opens directories it descends into without following links), so a link
// to a directory outside the workspace goes and that directory stays. Its
// parent must resolve inside the workspace (entry); a missing name is
// ErrNotFound. The workspace root is never deleted: clean refuses ".".
func (r *Root) Delete(rel string) error {
	c, err := clean(rel)
	if err != nil {
		return err
	}
	p, err := r.entry(c)
	if err != nil {
		return err
	}
	if err := r.lstat(p, c); err != nil {
		return err
	}
	return r.root.RemoveAll(p)
}

// entry returns the root-relative path of the name the clean path c ends
// in, under its parent directory resolved: the parent must exist, be a
// directory and resolve inside the workspace (ErrNotFound, ErrEscapes),
// while the name itself is not resolved — what a create, move or delete
// acts on is the name, a symlink there included, never what it points at.
func (r *Root) entry(c string) (string, error) {
	dir, err := r.resolve(filepath.Dir(filepath.FromSlash(c)))
	if errors.Is(err, ErrInvalidPath) { // the directory is the root itself
		dir, err = ".", nil
	}
	if err != nil {
		return "", err
	}
	if fi, err := r.root.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a directory", ErrNotFound, filepath.ToSlash(filepath.Dir(filepath.FromSlash(c))))
	}
	return filepath.Join(dir, filepath.Base(filepath.FromSlash(c))), nil
}

// lstat checks that the entry p (the request path c) is there, a dangling
// symlink included, and answers in the package's errors: ErrNotFound for
// nothing there, ErrUnresolvable for a name the system cannot take (too
// long, say) — the client's to fix, like any unusable path — and a
// permission error as it is.
func (r *Root) lstat(p, c string) error {
	_, err := r.root.Lstat(p)
	switch {
	case err == nil, errors.Is(err, fs.ErrPermission):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s", ErrNotFound, c)
	default:
		return fmt.Errorf("%w: %s: %w", ErrUnresolvable, c, err)
	}
}

// absent checks that nothing is at the entry p (the request path c), a
// dangling symlink included: ErrExists if something is.
func (r *Root) absent(p, c string) error {
	err := r.lstat(p, c)
	switch {
	case err == nil:
		return fmt.Errorf("%w: %s", ErrExists, c)
	case errors.Is(err, ErrNotFound):
		return nil
	default:
		return err
	}
}
