package watch

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// tree makes the directories and files (with content) under root.
func tree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
	}
}

// watching subscribes to a Watcher of root with a short window and
// returns once the workspace has been walked.
func watching(t *testing.T, root string, opts Options) (*Watcher, *Subscription) {
	t.Helper()
	if opts.Interval == 0 {
		opts.Interval = 10 * time.Millisecond
	}
	w := New(root, opts)
	t.Cleanup(w.Close)
	s, err := w.Subscribe()
	require.NoError(t, err)
	require.NoError(t, s.Ready(t.Context()))
	return w, s
}

// collect reads batches until every change of want has been reported (a
// later change of the same path replaces an earlier one), or fails after
// a deadline. It returns everything reported.
func collect(t *testing.T, s *Subscription, want map[string]int) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	got := map[string]int{}
	for !contains(got, want) {
		batch, err := s.Next(ctx)
		require.NoError(t, err, "reported so far: %v, want %v", got, want)
		for _, c := range batch {
			got[c.Path] = c.Type
		}
	}
	return got
}

func contains(got, want map[string]int) bool {
	for p, typ := range want {
		if got[p] != typ {
			return false
		}
	}
	return true
}

func TestReportsCreatedChangedDeleted(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "greet/greet.go", "main.go")
	_, s := watching(t, root, Options{})

	require.NoError(t, os.WriteFile(filepath.Join(root, "greet", "new.go"), []byte("package greet"), 0o644))
	collect(t, s, map[string]int{"greet/new.go": wire.FileCreated})

	require.NoError(t, os.WriteFile(filepath.Join(root, "greet", "greet.go"), []byte("package greet // v2"), 0o644))
	collect(t, s, map[string]int{"greet/greet.go": wire.FileChanged})

	require.NoError(t, os.Remove(filepath.Join(root, "main.go")))
	collect(t, s, map[string]int{"main.go": wire.FileDeleted})
}

// A save by rename (write a temporary file, rename it over the target) is
// one entry for the target; the temporary file never shows when both
// happen within one window.
func TestSaveByRenameIsOneChange(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "a.go")
	_, s := watching(t, root, Options{Interval: time.Second})
	tmp := filepath.Join(root, ".a.go.tmp")
	require.NoError(t, os.WriteFile(tmp, []byte("package a"), 0o644))
	require.NoError(t, os.Rename(tmp, filepath.Join(root, "a.go")))
	batch, err := s.Next(t.Context())
	require.NoError(t, err)
	require.Len(t, batch, 1, "%v", batch)
	require.Equal(t, "a.go", batch[0].Path)
}

func TestNewDirectoriesAreWatchedAndTheirContentReported(t *testing.T) {
	root := t.TempDir()
	_, s := watching(t, root, Options{})
	// Made faster than a watch can follow: the file exists before the
	// watch of its directory does.
	tree(t, root, "gen/api/v1/types.go")
	collect(t, s, map[string]int{
		"gen": wire.FileCreated, "gen/api": wire.FileCreated, "gen/api/v1": wire.FileCreated,
		"gen/api/v1/types.go": wire.FileCreated,
	})
	require.NoError(t, os.WriteFile(filepath.Join(root, "gen", "api", "v1", "types.go"), []byte("package v1"), 0o644))
	collect(t, s, map[string]int{"gen/api/v1/types.go": wire.FileChanged})
}

func TestRenamedDirectoryReportsItsNewPaths(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "old/sub/f.go")
	_, s := watching(t, root, Options{})
	require.NoError(t, os.Rename(filepath.Join(root, "old"), filepath.Join(root, "new")))
	collect(t, s, map[string]int{"old": wire.FileDeleted, "new": wire.FileCreated})
	require.NoError(t, os.WriteFile(filepath.Join(root, "new", "sub", "f.go"), []byte("package sub"), 0o644))
	got := collect(t, s, map[string]int{"new/sub/f.go": wire.FileChanged})
	require.NotContains(t, got, "old/sub/f.go")
}

func TestIgnoredDirectories(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "node_modules/left-pad/index.js", "node_modules/@types/react/index.d.ts", ".git/objects/ab/cdef", ".git/HEAD",
		"py/__pycache__/app.cpython-313.pyc", "main.go")
	w, s := watching(t, root, Options{})

	// Inside ignored directories: nothing. Then a change that is
	// reported, whose arrival means every earlier event has arrived.
	for _, f := range []string{"node_modules/left-pad/index.js", "node_modules/@types/react/index.d.ts", ".git/objects/ab/cdef", "py/__pycache__/app.cpython-313.pyc"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), []byte("y"), 0o644))
	}
	tree(t, root, "node_modules/left-pad/lib/new.js")
	require.NoError(t, os.WriteFile(filepath.Join(root, "main.go"), []byte("package main"), 0o644))
	got := collect(t, s, map[string]int{"main.go": wire.FileChanged})
	require.Equal(t, map[string]int{"main.go": wire.FileChanged}, got)

	// node_modules itself is watched, and its scope directories, .git too
	// (a branch switch shows in HEAD): installing a package, scoped or
	// not, or switching shows — the package, not its files.
	tree(t, root, "node_modules/is-odd/index.js", "node_modules/@types/node/index.d.ts", "node_modules/@babel/core/lib/index.js")
	require.NoError(t, os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/x"), 0o644))
	want := map[string]int{"node_modules/is-odd": wire.FileCreated, "node_modules/@types/node": wire.FileCreated,
		"node_modules/@babel": wire.FileCreated, "node_modules/@babel/core": wire.FileCreated, ".git/HEAD": wire.FileChanged}
	require.Equal(t, want, collect(t, s, want))

	w.mu.Lock()
	run := w.run
	w.mu.Unlock()
	require.NotNil(t, run)
	require.False(t, run.dirs[filepath.Join(root, "node_modules", "left-pad")])
	require.False(t, run.dirs[filepath.Join(root, "node_modules", "@types", "react")])
	require.True(t, run.dirs[filepath.Join(root, "node_modules")])
	require.True(t, run.dirs[filepath.Join(root, "node_modules", "@types")])
}

func TestIgnoredDir(t *testing.T) {
	for rel, want := range map[string]bool{
		"node_modules": false, "node_modules/react": true, "node_modules/.pnpm": true,
		"web/node_modules/@types": false, "web/node_modules/@types/node": true, "node_modules/@babel/core": true,
		"@scope": false, "src/@scope/pkg": false, "node_modules/react/@x": false,
		".git": false, ".git/objects": true, ".git/refs": false, "sub/.git/objects": true, ".git/subtree-cache": true,
		".hg/store": true, "src/__pycache__": true, "objects": false, "store": false, "src": false,
	} {
		require.Equal(t, want, ignoredDir(rel), rel)
	}
}

// lockedBuffer is a log destination safe for the watching goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWatchCapIsLoggedOnce(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "a/x.go", "b/x.go", "c/x.go", "d/x.go")
	var log lockedBuffer
	w, s := watching(t, root, Options{MaxWatches: 3, Logger: slog.New(slog.NewTextHandler(&log, nil))})

	require.Equal(t, 3, w.Watched()) // the root and two of a, b, c, d
	require.Contains(t, log.String(), "workspace watch limit reached")
	require.Contains(t, log.String(), "-max-watches")

	// A new directory finds the cap reached too: reported as created
	// (its parent is watched), not watched, and not logged again.
	tree(t, root, "e/x.go")
	collect(t, s, map[string]int{"e": wire.FileCreated})
	require.Equal(t, 1, bytes.Count([]byte(log.String()), []byte("limit reached")))
}

func TestLastSubscriberStopsWatching(t *testing.T) {
	root := t.TempDir()
	w := New(root, Options{})
	a, err := w.Subscribe()
	require.NoError(t, err)
	b, err := w.Subscribe()
	require.NoError(t, err)
	run := a.run
	require.Same(t, run, b.run)
	a.Close()
	a.Close()
	w.mu.Lock()
	require.Same(t, run, w.run)
	w.mu.Unlock()
	b.Close()
	<-run.done // the watching goroutine has returned
	require.Zero(t, w.Watched())

	// A later subscriber starts watching afresh.
	c, err := w.Subscribe()
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Ready(t.Context()))
	tree(t, root, "late.go")
	collect(t, c, map[string]int{"late.go": wire.FileCreated})
}
