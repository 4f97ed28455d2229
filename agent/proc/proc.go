// Package proc owns language-server processes: it starts one in its own
// process group with pipes the caller drives, reports its exit, and stops it
// together with every descendant.
//
// Ownership is the point. A language server forks helpers (gopls' go list,
// tsserver, node workers); stopping only the leader would leave them running
// after the task stops. So each server's tree is one unit the agent can
// signal as a whole, even after the leader has exited, and Stop always waits
// for the leader so no zombie is left behind.
//
// On Unix the unit is a process group led by a reaper shim: the agent binary
// re-executed (see reaper_unix.go) that starts the server in its group,
// adopts orphaned descendants as a child subreaper on Linux, and kills the
// whole group when the agent dies, however it dies. Where the host delegates
// a cgroup v2 to the agent (package cgroup), the shim is also started in a
// cgroup of its own and the unit is that cgroup: a descendant that calls
// setsid leaves the group but not the cgroup, and cgroup.kill ends it.
// Without one (cgroup v1, a read-only mount, macOS) process-group reaping
// is all there is, and such a descendant escapes it. On Windows the unit is
// a job object that the kernel terminates when the agent's handle closes.
package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Default grace periods for Stop.
const (
	// DefaultGrace is how long a server may take to exit after its stdin
	// closes; LSP servers treat stdin EOF as the end of the session.
	DefaultGrace = 2 * time.Second
	// DefaultKillGrace is how long the group may take to exit after SIGTERM
	// before it gets SIGKILL.
	DefaultKillGrace = 2 * time.Second
)

// Command describes a process to start.
type Command struct {
	// Path is the absolute path of the executable (discovery's result).
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Dir is the working directory: the task workspace.
	Dir string
	// Env is the complete environment, KEY=VALUE; nothing is inherited from
	// the agent beyond what the caller puts here.
	Env []string
	// Stderr receives the server's stderr; nil discards it. An *os.File is
	// handed to the child directly; any other writer is fed by a goroutine
	// that exec bounds with WaitDelay, so a descendant holding stderr open
	// cannot keep the leader's Wait from returning.
	Stderr io.Writer
	// Grace and KillGrace override DefaultGrace and DefaultKillGrace.
	Grace, KillGrace time.Duration
}

// Process is a started process and its group.
type Process struct {
	cmd       *exec.Cmd
	stdin     *os.File // our write end
	stdout    *os.File // our read end
	grace     time.Duration
	killGrace time.Duration

	done    chan struct{} // closed once Wait has returned
	waitErr error         // written before done is closed

	own *owner // the process tree as one unit (group or job)

	stdinOnce sync.Once
	stopMu    sync.Mutex // serialises Stop; later calls find the work done
}

// Start starts c. The pipes are os.Pipe files rather than exec's
// StdinPipe/StdoutPipe: exec closes those when Wait returns, which would race
// with a reader still draining the server's last messages, and os.Pipe files
// are pollable, so writes and reads honour deadlines and Close unblocks them.
func Start(c Command) (_ *Process, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("proc: start %s: %w", c.Path, err)
		}
	}()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	growPipe(inW)
	growPipe(outW)
	cmd, own, err := command(c)
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	setup := func(cmd *exec.Cmd) {
		cmd.Dir = c.Dir
		cmd.Env = c.Env
		if cmd.Env == nil {
			cmd.Env = []string{} // never inherit the agent's environment
		}
		cmd.Stdin = inR
		cmd.Stdout = outW
		cmd.Stderr = c.Stderr
		cmd.WaitDelay = time.Second
	}
	setup(cmd)
	startErr := cmd.Start()
	if startErr != nil {
		if retry := own.withoutCgroup(c); retry != nil {
			setup(retry)
			cmd, startErr = retry, retry.Start()
		}
	}
	// The child holds its own copies; ours would keep stdout from ever
	// reaching EOF.
	inR.Close()
	outW.Close()
	if startErr == nil {
		startErr = own.started(cmd)
	}
	if startErr != nil {
		if cmd.Process != nil {
			// The tree, and the leader directly in case it never joined
			// the tree (a failed job assignment on Windows).
			own.kill()
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		own.release()
		inW.Close()
		outR.Close()
		return nil, startErr
	}
	return newProcess(c, cmd, own, inW, outR), nil
}

// newProcess is the Process of a started cmd, its tree own and the
// agent's ends of its stdin and stdout.
func newProcess(c Command, cmd *exec.Cmd, own *owner, stdin, stdout *os.File) *Process {
	p := &Process{
		cmd: cmd, stdin: stdin, stdout: stdout, own: own,
		grace: orDefault(c.Grace, DefaultGrace), killGrace: orDefault(c.KillGrace, DefaultKillGrace),
		done: make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Pid returns the leader's process id: on Unix the reaper shim, whose pid
// is also the group id; elsewhere the server itself.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stdin is the write end of the server's stdin. The caller may set write
// deadlines on it; CloseStdin and Stop close it.
func (p *Process) Stdin() *os.File { return p.stdin }

// Stdout is the read end of the server's stdout. It reaches EOF when every
// process holding the write end has exited; Stop closes it.
func (p *Process) Stdout() *os.File { return p.stdout }

// CloseStdin closes the server's stdin, which unblocks any write in
// progress. It is idempotent.
func (p *Process) CloseStdin() {
	p.stdinOnce.Do(func() { p.stdin.Close() })
}

// Done is closed when the leader has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err returns the leader's exit error (an *exec.ExitError for a non-zero
// exit or a signal) once Done is closed, and nil before.
func (p *Process) Err() error {
	select {
	case <-p.done:
		return p.waitErr
	default:
		return nil
	}
}

// Stop ends the process and its whole group: close stdin and give the server
// the grace period to exit on its own; then SIGTERM the group, also when the
// leader has already exited, because descendants may outlive it; after the
// kill grace, SIGKILL the group. It returns once the leader has been reaped.
// If ctx ends first, Stop skips straight to SIGKILL and returns ctx's error.
//
// Stop is safe to call more than once and from several goroutines.
func (p *Process) Stop(ctx context.Context) error {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	defer p.stdout.Close() // whatever is left unread has no consumer

	defer p.own.release()

	p.CloseStdin()
	exited := p.wait(ctx, p.grace, func() bool { return p.leaderDone() })
	if !exited || p.own.alive() {
		p.own.terminate()
		p.wait(ctx, p.killGrace, func() bool { return p.leaderDone() && !p.own.alive() })
	}
	if !p.leaderDone() || p.own.alive() {
		p.own.kill()
		// SIGKILL cannot be ignored, but it takes effect asynchronously:
		// wait until the leader is reaped and no member is left running,
		// so a caller told "stopped" finds nothing alive. ctx still bounds
		// it (a process stuck in uninterruptible I/O).
		p.wait(ctx, killSettle, func() bool { return p.leaderDone() && !p.own.alive() })
	}
	select {
	case <-p.done:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// killSettle bounds the wait for SIGKILLed members to be gone.
const killSettle = 2 * time.Second

func (p *Process) leaderDone() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wait polls cond until it holds (true), d passes or ctx ends (false).
// Polling is used because a group has no exit notification; the leader's
// exit wakes the wait at once.
func (p *Process) wait(ctx context.Context, d time.Duration, cond func() bool) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-timer.C:
			return cond()
		case <-p.done:
		case <-tick.C:
		}
	}
	return true
}
