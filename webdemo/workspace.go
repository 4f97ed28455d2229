package webdemo

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// NewWorkspace copies the sample tree at src into a fresh temporary
// directory and returns its absolute path. The demo edits and saves that
// copy, so the repository itself never gets dirty. The caller removes it.
//
// A node_modules folder (the sample's pinned eslint, which the ESLint
// server loads from the workspace) is not copied but linked: a symlink to
// the sample's own, by absolute path, so a demo start stays fast. The
// packages are only read; the Files tree and the watcher skip
// node_modules, and the file routes refuse paths through a link that
// leaves the workspace.
func NewWorkspace(src string) (string, error) {
	src, err := filepath.Abs(src)
	if err != nil {
		return "", err
	}
	dst, err := os.MkdirTemp("", "kandev-demo-workspace-")
	if err != nil {
		return "", err
	}
	// Resolve symlinks (macOS /var → /private/var): the workspace path the
	// agent reports must be the one language servers see.
	if dst, err = filepath.EvalSymlinks(dst); err != nil {
		return "", err
	}
	if err := copyTree(src, dst); err != nil {
		os.RemoveAll(dst)
		return "", fmt.Errorf("copy sample workspace: %w", err)
	}
	return dst, nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == "node_modules" && rel != ".":
			if err := os.Symlink(p, target); err != nil {
				return err
			}
			return fs.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, target)
		default: // links and devices have no place in a sample workspace
			return nil
		}
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// InitRepositories makes each of repos — slash-separated folders of the
// workspace — a Git repository with git init, as a task of several
// checked-out repositories has them.
func InitRepositories(ctx context.Context, workspace string, repos []string) error {
	for _, r := range repos {
		if !filepath.IsLocal(filepath.FromSlash(r)) || strings.HasPrefix(r, ".") {
			return fmt.Errorf("repository %q: not a folder of the workspace", r)
		}
		dir := filepath.Join(workspace, filepath.FromSlash(r))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("repository %q: not a folder of the sample", r)
		}
		if out, err := exec.CommandContext(ctx, "git", "init", "-q", dir).CombinedOutput(); err != nil {
			return fmt.Errorf("git init %s: %w: %s", r, err, out)
		}
	}
	return nil
}
