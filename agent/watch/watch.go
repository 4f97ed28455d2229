// Package watch reports what changes on disk in a task workspace — files
// an agent, a script, a branch switch or a generator created, changed or
// deleted behind the editor — as batches of wire.FileChange for the
// stream's peer, which forwards them to the language servers that asked
// (workspace/didChangeWatchedFiles) and reloads open documents.
//
// One Watcher serves the workspace for every stream of the agent: the
// kernel's watches (inotify on Linux) are taken when the first stream
// subscribes and given back when the last one leaves. inotify is not
// recursive, so the tree is walked and every directory watched, and so is
// each directory created later (whose entries, made before its watch, are
// reported as created). The walk is bounded: dependency and VCS stores
// (see ignoredDir) are not descended into, symbolic links are not
// followed, and at most MaxWatches directories are watched — past that,
// one log line says so and changes in the rest go unreported.
//
// Each subscriber gets its own batches: changes are coalesced per path
// over a window (Interval, 100 ms) that opens with the first change, so a
// save by rename or a burst of writes is one entry, and a subscriber that
// is slow to send loses nothing — its pending batch only grows.
package watch

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/kandev/lsp/internal/wire"
)

// Defaults of Options.
const (
	// DefaultMaxWatches bounds the directories watched. It is the kernel's
	// default fs.inotify.max_user_watches of older Linux releases, which
	// newer ones raise; a workspace needing more is rare once dependency
	// trees are skipped.
	DefaultMaxWatches = 8192
	// DefaultInterval is the coalescing window.
	DefaultInterval = 100 * time.Millisecond
)

// ErrClosed is returned by Next after the subscription or the Watcher
// closed.
var ErrClosed = errors.New("watch: closed")

// Options tune a Watcher; zero values take the defaults.
type Options struct {
	// MaxWatches caps the directories watched at once (DefaultMaxWatches).
	MaxWatches int
	// Interval is the coalescing window (DefaultInterval).
	Interval time.Duration
	// Logger receives the cap and lost-event warnings; nil discards.
	Logger *slog.Logger
}

// Watcher watches one workspace for its subscribers. Create it with New.
type Watcher struct {
	root   string
	opts   Options
	logger *slog.Logger
	// window opens a coalescing window; tests replace it.
	window func() <-chan time.Time

	mu     sync.Mutex
	subs   map[*Subscription]struct{}
	run    *running // nil while nobody subscribes
	closed bool
}

// New returns a Watcher for the directory root (absolute). Nothing is
// watched until the first Subscribe.
func New(root string, opts Options) *Watcher {
	if opts.MaxWatches <= 0 {
		opts.MaxWatches = DefaultMaxWatches
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{root: filepath.Clean(root), opts: opts, logger: logger, subs: make(map[*Subscription]struct{})}
	w.window = func() <-chan time.Time { return time.After(w.opts.Interval) }
	return w
}

// Subscribe starts receiving changes; the first subscriber starts the
// watching (see Subscription.Ready). It fails only when the Watcher is
// closed or the system cannot watch at all.
func (w *Watcher) Subscribe() (*Subscription, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	if w.run == nil {
		fsw, err := fsnotify.NewWatcher()
		if err != nil {
			return nil, err
		}
		w.run = &running{w: w, fsw: fsw, dirs: make(map[string]bool), walked: make(chan struct{}), done: make(chan struct{})}
		go w.run.loop()
	}
	s := &Subscription{w: w, run: w.run, signal: make(chan struct{}, 1), closed: make(chan struct{})}
	w.subs[s] = struct{}{}
	return s, nil
}

// Close ends every subscription and stops watching; it waits until the
// watching goroutine has returned.
func (w *Watcher) Close() {
	w.mu.Lock()
	w.closed = true
	subs := w.subs
	w.subs = make(map[*Subscription]struct{})
	run := w.run
	w.run = nil
	w.mu.Unlock()
	for s := range subs {
		s.end()
	}
	if run != nil {
		run.stop()
	}
}

// Watched returns the number of directories watched now: 0 while nobody
// subscribes.
func (w *Watcher) Watched() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run == nil {
		return 0
	}
	return int(w.run.watched.Load())
}

// leave removes s; the last subscriber stops the watching.
func (w *Watcher) leave(s *Subscription) {
	w.mu.Lock()
	delete(w.subs, s)
	var run *running
	if len(w.subs) == 0 {
		run, w.run = w.run, nil
	}
	w.mu.Unlock()
	if run != nil {
		run.stop()
	}
}

// publish hands one change, from run, to every subscriber.
func (w *Watcher) publish(run *running, rel string, typ int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run != run {
		return // a stopped run's late event
	}
	for s := range w.subs {
		s.add(rel, typ)
	}
}

// running is one period of watching, from the first subscriber to the
// last one leaving. Its dirs are touched only by its loop goroutine.
type running struct {
	w    *Watcher
	fsw  *fsnotify.Watcher
	dirs map[string]bool // watched directories, absolute
	// watched is len(dirs), for Watched on other goroutines.
	watched atomic.Int64
	capped  bool          // the cap was reached (and logged)
	closing bool          // the kernel watcher was closed: stop walking
	walked  chan struct{} // closed when the first walk is done
	done    chan struct{} // closed when loop returned
}

// stop closes the kernel watcher, which ends loop, and waits for it.
func (r *running) stop() {
	_ = r.fsw.Close()
	<-r.done
}

// loop walks the workspace, then turns kernel events into changes until
// the watcher is closed.
func (r *running) loop() {
	defer close(r.done)
	r.addTree(r.w.root, false)
	close(r.walked)
	for {
		select {
		case ev, ok := <-r.fsw.Events:
			if !ok {
				return
			}
			r.event(ev)
		case err, ok := <-r.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				r.w.logger.Warn("workspace file events were lost: the kernel's event queue overflowed (fs.inotify.max_queued_events)")
			} else {
				r.w.logger.Warn("workspace watch", "err", err)
			}
		}
	}
}

// event turns one kernel event into a change.
func (r *running) event(ev fsnotify.Event) {
	rel, ok := r.rel(ev.Name)
	if !ok {
		return // the workspace itself, or outside it
	}
	switch {
	case ev.Has(fsnotify.Create):
		r.w.publish(r, rel, wire.FileCreated)
		// A new directory (or one moved in): watch it, and report what
		// was made in it before its watch existed.
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && !ignoredDir(rel) {
			r.addTree(ev.Name, true)
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		// Renamed away is gone from here; where it went, if inside the
		// workspace, comes as a Create.
		r.w.publish(r, rel, wire.FileDeleted)
		r.forget(ev.Name)
	case ev.Has(fsnotify.Write):
		r.w.publish(r, rel, wire.FileChanged)
	}
}

// rel returns abs relative to the workspace, slash-separated.
func (r *running) rel(abs string) (string, bool) {
	rel, err := filepath.Rel(r.w.root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// addTree watches dir and the directories below it that are not ignored,
// up to the cap. With report, every entry found below dir is published as
// created (dir itself already was).
func (r *running) addTree(dir string, report bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // vanished or unreadable: nothing to watch there
		}
		rel, inside := r.rel(p)
		if report && p != dir && inside {
			r.w.publish(r, rel, wire.FileCreated)
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && inside && ignoredDir(rel) {
			return filepath.SkipDir
		}
		if !r.watch(p) {
			if r.closing {
				return filepath.SkipAll
			}
			return filepath.SkipDir
		}
		return nil
	})
}

// watch adds one directory's watch; false when it could not (the cap, the
// kernel's limit, the watcher closing, the directory gone).
func (r *running) watch(dir string) bool {
	if r.dirs[dir] {
		return true
	}
	if len(r.dirs) >= r.w.opts.MaxWatches {
		r.capReached(dir, "the agent's cap (-max-watches)")
		return false
	}
	if err := r.fsw.Add(dir); err != nil {
		switch {
		case errors.Is(err, syscall.ENOSPC):
			r.capReached(dir, "the system's limit (fs.inotify.max_user_watches)")
		case errors.Is(err, fsnotify.ErrClosed):
			r.closing = true
		}
		return false
	}
	r.dirs[dir] = true
	r.watched.Store(int64(len(r.dirs)))
	return true
}

// capReached logs, once per period of watching, that directories go
// unwatched from now on.
func (r *running) capReached(dir, which string) {
	if r.capped {
		return
	}
	r.capped = true
	r.w.logger.Warn("workspace watch limit reached: changes in further directories are not reported",
		"watched", len(r.dirs), "limit", which, "first_unwatched", dir)
}

// forget drops the watches of a removed or renamed directory and of every
// directory below it: their kernel watches would otherwise go on under
// the old names. A path that was no watched directory costs nothing.
func (r *running) forget(abs string) {
	if !r.dirs[abs] {
		return
	}
	prefix := abs + string(filepath.Separator)
	for d := range r.dirs {
		if d == abs || strings.HasPrefix(d, prefix) {
			delete(r.dirs, d)
			_ = r.fsw.Remove(d)
		}
	}
	r.watched.Store(int64(len(r.dirs)))
}

// ignoredDir reports whether a directory (workspace-relative, slash
// form) is left unwatched, as editors leave it by default: the packages
// inside node_modules, a repository's object and cache stores, and
// Python's byte-code caches. Their contents change in bulk and no
// language server needs each file.
//
// node_modules itself is watched, and so is each scope directory in it
// (@types, @babel...), so that installing, removing or replacing a
// package — scoped or not — shows as its own directory created, deleted
// or changed: the TypeScript server re-resolves the imports that looked
// there and re-reads the package's files on such an event, as it does
// with its own watching, where events inside a package change nothing.
func ignoredDir(rel string) bool {
	base, parent := path.Base(rel), path.Base(path.Dir(rel))
	switch {
	case parent == "node_modules":
		return !strings.HasPrefix(base, "@")
	case strings.HasPrefix(parent, "@") && path.Base(path.Dir(path.Dir(rel))) == "node_modules":
		return true
	case parent == ".git" && (base == "objects" || base == "subtree-cache"):
		return true
	case parent == ".hg" && base == "store":
		return true
	case base == "__pycache__":
		return true
	}
	return false
}

// Subscription receives the workspace's changes in batches.
type Subscription struct {
	w      *Watcher
	run    *running
	once   sync.Once
	closed chan struct{}
	signal chan struct{} // one slot: pending was empty and got a change

	mu      sync.Mutex
	pending batch
	due     bool // the window of what is pending has passed
}

// Ready waits until the watching this subscription joined has walked the
// workspace, so that every change made after it returns is reported; it
// returns ctx's error if ctx ends first, or ErrClosed.
func (s *Subscription) Ready(ctx context.Context) error {
	select {
	case <-s.run.walked:
		return nil
	case <-s.closed:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Next returns the next batch: it waits for a change, then for the
// window to pass, and returns every change pending by then, coalesced, at
// most wire.MaxFilesPerFrame of them (the rest come with the next call,
// at once). It returns ctx's error if ctx ends first, or ErrClosed.
func (s *Subscription) Next(ctx context.Context) ([]wire.FileChange, error) {
	for {
		s.mu.Lock()
		pending, due := !s.pending.empty(), s.due
		s.mu.Unlock()
		if pending {
			if !due {
				select {
				case <-s.w.window():
				case <-s.closed:
					return nil, ErrClosed
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			s.mu.Lock()
			out := s.pending.take(wire.MaxFilesPerFrame)
			s.due = !s.pending.empty()
			s.mu.Unlock()
			if len(out) > 0 {
				return out, nil
			}
			continue
		}
		select {
		case <-s.signal:
		case <-s.closed:
			return nil, ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// add records a change for the subscriber.
func (s *Subscription) add(rel string, typ int) {
	s.mu.Lock()
	s.pending.add(rel, typ)
	s.mu.Unlock()
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

// Close ends the subscription; the last one stops the watching. It is
// safe to call more than once and with Next running.
func (s *Subscription) Close() {
	if s.end() {
		s.w.leave(s)
	}
}

// end closes the subscription's channel once and reports whether it did.
func (s *Subscription) end() bool {
	ended := false
	s.once.Do(func() {
		close(s.closed)
		ended = true
	})
	return ended
}
