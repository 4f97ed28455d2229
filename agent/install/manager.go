package install

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install/lock"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Manager owns the agent's install work: it serialises installs by
// destination and cancels and drains them all at task stop. Create it with
// New; one per agent.
type Manager struct {
	cfg   Config
	keyed lock.Keyed

	mu       sync.Mutex
	closed   bool
	teardown context.Context // ends at Close
	cancel   context.CancelFunc
	running  sync.WaitGroup
}

// New returns a Manager for cfg.
func New(cfg Config) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{cfg: cfg, teardown: ctx, cancel: cancel}
}

// Job is one prepared install of one catalog entry's server in one task
// environment. Prepare is cheap and does no I/O; Run does the work.
type Job struct {
	m        *Manager
	language wire.Language
	server   string
	inst     installer
}

// Result is a finished install.
type Result struct {
	// Path is the absolute executable to start: for npm servers the
	// concrete launcher (the .cmd shim on Windows).
	Path string
	// Reused reports that another connection or agent had already
	// installed it while this one waited, so nothing was run.
	Reused bool
}

// Prepare returns the install of an entry's server for env. The error is
// an *UnsupportedError (errors.Is ErrUnsupported: close 4007) when this
// task host has no installer for it: a manual entry (kotlin-lsp, clangd)
// anywhere, a release on a platform it has no asset for (rust-analyzer on
// Windows or an unsupported architecture). Any other error (a task
// without an absolute HOME) is an install failure (4003 with Detail).
func (m *Manager) Prepare(env *taskenv.Env, e catalog.Entry) (*Job, error) {
	inst, err := newInstaller(env, &m.cfg, e)
	if err != nil {
		return nil, err
	}
	return &Job{m: m, language: first(e.Languages), server: e.ID, inst: inst}, nil
}

// newInstaller picks the installer of an entry by its recipe. This is the
// one place that knows which recipe is installed how.
func newInstaller(env *taskenv.Env, cfg *Config, e catalog.Entry) (installer, error) {
	switch e.Install.Kind {
	case catalog.InstallNPM:
		if !e.AutoInstallable(env.GOOS, cfg.goarch()) {
			// A native binary's package, locked for other platforms.
			return nil, &UnsupportedError{Language: first(e.Languages), Server: e.ID, Code: wire.NotInstallableOS,
				Reason: fmt.Sprintf("%s cannot be auto-installed on %s (%s) task hosts; install it manually on the task host's PATH", e.Command, osName(env.GOOS), cfg.goarch())}
		}
		return newNPMInstaller(env, npmPackageOf(e))
	case catalog.InstallGo:
		return newGoInstaller(env, e)
	case catalog.InstallRelease:
		return newReleaseInstaller(env, cfg, e)
	}
	guidance := e.Install.Guidance
	if guidance == "" {
		guidance = e.Command + " is never auto-installed; install it on the task host's PATH"
	}
	return nil, &UnsupportedError{Language: first(e.Languages), Server: e.ID, Code: wire.NotInstallableManual, Reason: guidance}
}

// Run installs the server, unless it is already there, and returns the
// executable to start.
//
// It first waits for the destination: for another connection of this agent
// (in-process) and then for another agent (a lock file in the cache), both
// giving up when ctx ends. With the destination held it looks again: if a
// previous holder published the result, that result is returned without
// installing. Otherwise the installer runs under ctx; when ctx ends (the
// browser left, or Close) the installer's tree is killed and its partial
// files removed before Run returns, and the locks are released.
//
// The installer is also ended when it makes no progress for the stall
// timeout (ErrStalled) or has not finished within the overall limit
// (ErrTimeout); both are failures like any other.
//
// A failure is an *Error carrying the installer's output tail (Detail
// formats it), except that a cancelled or closed Run returns an error
// wrapping ctx's error or ErrClosed, which calls for a 1001 close with no
// frame.
func (j *Job) Run(ctx context.Context) (Result, error) {
	ctx, done, err := j.m.track(ctx)
	if err != nil {
		return Result{}, err
	}
	defer done()

	unlock, err := j.m.keyed.Lock(ctx, j.inst.lockPath())
	if err != nil {
		return Result{}, j.m.why(err)
	}
	defer unlock()
	fl, err := lock.Acquire(ctx, j.inst.lockPath(), j.m.cfg.LockPoll)
	if err != nil {
		return Result{}, j.m.why(err)
	}
	defer fl.Release()

	if p, err := j.inst.find(osStat); err == nil {
		return Result{Path: p, Reused: true}, nil
	}
	out := NewOutput(MaxOutput)
	// The overall limit starts with the work, not with the wait for the
	// locks: a connection queued behind another's install is not charged
	// for it.
	limit := j.m.cfg.installTimeout()
	ictx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("%w: not finished after %s", ErrTimeout, limit))
	err = j.inst.install(ictx, j.m.cfg.runner(), out)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, j.m.why(ctx.Err())
		}
		return Result{}, &Error{Language: j.language, Server: j.server, Err: err, Output: out.Tail(TailSize)}
	}
	p, err := j.inst.find(osStat)
	if err != nil {
		return Result{}, &Error{Language: j.language, Server: j.server, Err: fmt.Errorf("installed, but %w", err), Output: out.Tail(TailSize)}
	}
	return Result{Path: p}, nil
}

// track registers a Run so Close can cancel and drain it, and returns ctx
// joined with the teardown.
func (m *Manager) track(ctx context.Context) (context.Context, func(), error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, nil, ErrClosed
	}
	m.running.Add(1)
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(m.teardown, cancel)
	return ctx, func() {
		stop()
		cancel()
		m.running.Done()
	}, nil
}

// why reports a cancellation caused by Close as ErrClosed.
func (m *Manager) why(err error) error {
	if errors.Is(err, context.Canceled) && m.teardown.Err() != nil {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return err
}

// Close is task stop: no new Run starts (ErrClosed), running ones are
// cancelled, and Close waits until every one has killed its tree, removed
// its partial files and released its locks, or until ctx ends.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	drained := make(chan struct{})
	go func() {
		m.running.Wait()
		close(drained)
	}()
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ManagedLauncher returns the installed executable of an entry's server in
// env's managed locations, for discovery on later starts: the npm launcher
// in the cache (the PATHEXT shim on Windows), a release's executable in
// the cache, a Go-installed one in the Go bin directories. The error wraps
// ErrNotInstalled, or is the reason there is no managed location
// (ErrUnsupported, ErrNoHome).
func ManagedLauncher(env *taskenv.Env, e catalog.Entry) (string, error) {
	return managedLauncher(env, e, osStat)
}

func managedLauncher(env *taskenv.Env, e catalog.Entry, stat statFunc) (string, error) {
	inst, err := newInstaller(env, &Config{}, e)
	if err != nil {
		return "", err
	}
	return inst.find(stat)
}
