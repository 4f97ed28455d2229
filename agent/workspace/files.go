package workspace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// MaxFiles bounds a listing, so a huge workspace cannot make one request
// walk for minutes or return megabytes of JSON.
const MaxFiles = 50000

// Files lists the workspace's regular files as sorted, slash-separated
// relative paths. .git and node_modules are skipped; symlinks are not
// listed (their target may lie outside) and not followed, and neither are
// FIFOs, sockets or devices. The walk stops with ctx's error when ctx
// ends: a client that gave up costs no further work.
func (r *Root) Files(ctx context.Context) ([]string, error) {
	files, _, err := r.list(ctx, time.Time{})
	return files, err
}

// list is Files, stopping early with what it has and cut set when deadline
// (if not zero) passes or MaxFiles are listed.
func (r *Root) list(ctx context.Context, deadline time.Time) (files []string, cut bool, err error) {
	err = fs.WalkDir(r.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			cut = true
			return fs.SkipAll
		}
		if err != nil {
			if p == "." {
				return err
			}
			return nil // an unreadable subtree is left out, not fatal
		}
		if d.IsDir() {
			if skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, p)
			if len(files) >= MaxFiles {
				cut = true
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	sort.Strings(files)
	return files, cut, nil
}

// Open opens a regular file for reading. A path naming anything else — a
// directory, a FIFO, a socket, a device — is ErrNotRegular, and is never
// opened (openRegular).
func (r *Root) Open(rel string) (*os.File, error) {
	p, err := r.resolve(rel)
	if err != nil {
		return nil, err
	}
	f, err := r.openRegular(p)
	if errors.Is(err, ErrNotRegular) {
		return nil, fmt.Errorf("%w: %s", ErrNotRegular, rel)
	}
	return f, err
}

// WriteFile replaces the file at rel with the content of body, atomically:
// the content goes to a temporary file in the same directory, which is then
// renamed over the target, so a reader (or a crash) never sees half a file.
// An existing file keeps its permissions; a symlink to a file inside the
// workspace is followed, so the link survives. A new file may only be
// created in an existing directory.
func (r *Root) WriteFile(rel string, body io.Reader) error {
	target, mode, err := r.writeTarget(rel)
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".kandev-"+randomSuffix())
	f, err := r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, body)
	if err == nil {
		err = f.Chmod(mode) // the umask must not change an existing file's mode
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.root.Rename(tmp, target)
	}
	if err != nil {
		_ = r.root.Remove(tmp)
	}
	return err
}

// writeTarget returns the root-relative path to replace and its mode.
func (r *Root) writeTarget(rel string) (string, os.FileMode, error) {
	p, err := r.resolve(rel)
	if err == nil {
		// resolve left no symlink in p: Lstat sees the file itself, and
		// a FIFO or device there is refused without being opened (the
		// write only ever opens its own new temporary file).
		fi, err := r.root.Lstat(p)
		if err != nil {
			return "", 0, err
		}
		if !fi.Mode().IsRegular() {
			return "", 0, fmt.Errorf("%w: %s", ErrNotRegular, rel)
		}
		return p, fi.Mode().Perm(), nil
	}
	if !errors.Is(err, ErrNotFound) {
		return "", 0, err
	}
	// A new file: its directory must exist and resolve inside.
	c, _ := clean(rel) // resolve already accepted it lexically
	p, err = r.entry(c)
	if err != nil {
		return "", 0, err
	}
	// A dangling symlink at the name would be followed by the rename's
	// target lookup in nobody's favour; refuse it.
	if _, err := r.root.Lstat(p); err == nil {
		return "", 0, fmt.Errorf("%w: %s", ErrEscapes, rel)
	}
	return p, 0o644, nil
}

func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
