package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"time"
)

// DefaultKillGrace is how long an installer tree may take to exit after
// SIGTERM before it gets SIGKILL.
const DefaultKillGrace = 2 * time.Second

// outputDrain bounds how long the output of an exited installer may keep
// arriving: a descendant that kept the terminal open would otherwise hold
// the run open forever.
const outputDrain = time.Second

// Command is one installer command.
type Command struct {
	// Path is the absolute executable, found on the task PATH.
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Dir is the working directory.
	Dir string
	// Env is the complete environment (KEY=VALUE): the task environment.
	// Nothing is inherited from the agent.
	Env []string
}

// Runner runs installer commands as owned process trees: each command leads
// its own session (under a pty on unix), so the tree can be signalled as a
// whole, and nothing it spawned outlives Run.
type Runner struct {
	// KillGrace overrides DefaultKillGrace.
	KillGrace time.Duration
	// StallTimeout ends a command that prints nothing for this long
	// (Config's stall timeout when the Manager runs it; no limit when
	// zero and run directly).
	StallTimeout time.Duration
}

// ExitError reports an installer that ran and failed.
type ExitError struct {
	Command string
	Err     error // the *exec.ExitError
}

func (e *ExitError) Error() string { return fmt.Sprintf("%s: %v", e.Command, e.Err) }
func (e *ExitError) Unwrap() error { return e.Err }

// Run runs c to completion and writes its combined output to out. When ctx
// ends first, or the command prints nothing for the stall timeout, the
// whole tree gets SIGTERM, then SIGKILL after the kill grace, and Run
// returns ctx's cause (an error wrapping ErrStalled for a stall) once the
// leader has been reaped. In every case descendants the leader left behind
// are killed before Run returns, so a finished install leaves no process
// behind.
func (r *Runner) Run(ctx context.Context, c Command, out io.Writer) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if r.StallTimeout > 0 {
		sw := newStallWriter(out, r.StallTimeout, cancel)
		defer sw.stop()
		out = sw
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	if cmd.Env == nil {
		cmd.Env = []string{} // never inherit the agent's environment
	}
	t, output, err := startTree(cmd)
	if err != nil {
		return fmt.Errorf("start %s: %w", c.Path, err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		// Ends with EIO (pty) or EOF (pipe) once no process holds the
		// terminal, or when output is closed below.
		_, _ = io.Copy(out, output)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	grace := r.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	var waitErr error
	select {
	case waitErr = <-waited:
		reap(t, grace, nil)
	case <-ctx.Done():
		reap(t, grace, waited)
		waitErr = <-waited
	}

	drain := time.NewTimer(outputDrain)
	select {
	case <-copied:
	case <-drain.C:
	}
	drain.Stop()
	output.Close()
	// Closing a pollable pty or pipe ends the copy at once. Where the
	// platform cannot interrupt the read, the copy ends with the last
	// process holding the terminal, which reap has killed; the bound only
	// keeps Run from waiting on a platform quirk.
	drain.Reset(outputDrain)
	select {
	case <-copied:
	case <-drain.C:
	}

	if ctx.Err() != nil {
		if cause := context.Cause(ctx); errors.Is(cause, ErrStalled) {
			return fmt.Errorf("%s: %w", filepath.Base(c.Path), cause)
		}
		return context.Cause(ctx)
	}
	if waitErr != nil {
		return &ExitError{Command: c.Path, Err: waitErr}
	}
	return nil
}

// reap ends every process of the tree: SIGTERM, up to grace for them to go,
// then SIGKILL. leader, when not nil, is the leader's pending Wait; the tree
// counts as alive until it has returned (its result is put back).
func reap(t *tree, grace time.Duration, leader chan error) {
	leaderDone := func() bool {
		if leader == nil {
			return true
		}
		select {
		case err := <-leader:
			leader <- err // Run reads it afterwards
			leader = nil
			return true
		default:
			return false
		}
	}
	gone := func() bool { return leaderDone() && !t.alive() }
	if gone() {
		return
	}
	t.signal(sigTerm)
	if waitFor(grace, gone) {
		return
	}
	t.signal(sigKill)
	// SIGKILL cannot be ignored; the bound only guards against a process
	// stuck in uninterruptible I/O holding the run forever.
	waitFor(killWait, gone)
}

// killWait bounds the wait after SIGKILL.
const killWait = 5 * time.Second

// waitFor polls cond every few milliseconds until it holds (true) or d
// passes (false). A process tree has no exit notification to wait on.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			return cond()
		case <-tick.C:
		}
	}
	return true
}
