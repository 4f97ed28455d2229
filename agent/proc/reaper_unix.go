//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kandev/lsp/agent/proc/cgroup"
)

// reaperArg0 is the argv[0] under which a binary linking this package acts
// as the reaper shim instead of running its main. The agent starts every
// language server as
//
//	<agent binary> (argv[0]=kandev-lsp-reaper) GRACE CGROUP PATH ARGS...
//
// with the lifeline pipe on fd 3 and the start report on fd 4. CGROUP is
// the directory of the server's own cgroup, which the shim was started in,
// or "-" where there is none. Re-executing
// the agent's own binary means the shim needs no install step and is always
// the version of the agent that started it.
const reaperArg0 = "kandev-lsp-reaper"

// spareArg is the shim's first argument when it is started as a spare
// (see Launcher): ahead of need, told what to start on fd 5.
//
//	<agent binary> (argv[0]=kandev-lsp-reaper) spare CGROUP
const spareArg = "spare"

// init turns the process into the shim before main (or TestMain) runs. It
// does nothing for any other argv[0].
func init() {
	if len(os.Args) < 3 || os.Args[0] != reaperArg0 {
		return
	}
	if os.Args[1] == spareArg {
		os.Exit(runSpare(os.Args[2]))
	}
	if len(os.Args) >= 4 {
		os.Exit(runReaper(os.Args[1], os.Args[2], os.Args[3:]))
	}
}

// runReaper is the shim: it leads the server's process group (the agent set
// Setpgid), starts the server in it and exits with the server's status. On
// Linux it is a child subreaper, so helpers the server orphans stay in its
// tree and are reaped here rather than left as zombies for an init that may
// neglect them. When the lifeline reports the agent gone, it does what the
// agent's Stop would have done: SIGTERM the tree, wait the grace period,
// SIGKILL the tree (itself included). The tree is the group and, where the
// shim runs in a cgroup of its own, every member of that cgroup.
func runReaper(graceArg, cgDir string, argv []string) int {
	grace, err := time.ParseDuration(graceArg)
	if err != nil {
		grace = DefaultKillGrace
	}
	return newShim(cgDir).serve(grace, argv, &os.ProcAttr{})
}

// runSpare is the shim started ahead of need: set up like runReaper's, it
// waits for the agent to say what to start (a spawn on fd 5), then serves
// it in the same way. The server gets exactly the directory and
// environment the spawn names; the spare's own are not the task's. A
// lifeline lost before that — the agent released the spare, or died — ends
// it, its empty cgroup removed.
func runSpare(cgDir string) int {
	sh := newShim(cgDir)
	commands := os.NewFile(5, "command")
	syscall.CloseOnExec(5)
	spawned := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(commands) // the agent closes its end after one spawn
		spawned <- b
	}()
	select {
	case b := <-spawned:
		sp, err := decodeSpawn(b)
		if err == nil {
			return sh.serve(sp.grace, sp.argv, &os.ProcAttr{Dir: sp.dir, Env: sp.env})
		}
		if len(b) > 0 { // a spawn, but not one we can read: say so
			fmt.Fprint(sh.report, err)
		}
	case <-sh.orphaned:
	}
	if sh.tree.cgroup != "" {
		cgroup.EndFromInside(sh.tree.cgroup)
	}
	return 0
}

// shim is the reaper's state from its set-up on.
type shim struct {
	tree             shimTree
	lifeline, report *os.File
	sigs             chan os.Signal
	orphaned         chan struct{} // closed when the lifeline reports the agent gone
}

// newShim takes the lifeline (fd 3) and the start report (fd 4), becomes a
// subreaper and starts watching the lifeline.
func newShim(cgDir string) *shim {
	sh := &shim{tree: shimTree{cgroup: cgDir}, orphaned: make(chan struct{})}
	if cgDir == "-" {
		sh.tree.cgroup = ""
	}
	sh.lifeline, sh.report = os.NewFile(3, "lifeline"), os.NewFile(4, "report")
	// Neither pipe is for the server.
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	becomeSubreaper()
	// A group SIGTERM from the agent is for the server; the shim stays to
	// report the server's exit status. Handled signals reset to their
	// defaults across exec, so the server still gets the default action.
	sh.sigs = make(chan os.Signal, 1)
	signal.Notify(sh.sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		_, _ = io.Copy(io.Discard, sh.lifeline) // never written: returns when the agent's end closes
		close(sh.orphaned)
	}()
	return sh
}

// serve starts the server (argv, with attr's directory and environment)
// on the shim's stdio and reaps it and its tree; it returns the exit code
// the shim should end with.
func (sh *shim) serve(grace time.Duration, argv []string, attr *os.ProcAttr) int {
	attr.Files = []*os.File{os.Stdin, os.Stdout, os.Stderr}
	server, err := os.StartProcess(argv[0], argv, attr)
	if err != nil {
		fmt.Fprint(sh.report, err)
		return 127
	}
	sh.report.Close()
	// Only the server may hold its stdio: our copy of stdout would delay
	// the EOF the agent takes for the server's end.
	os.Stdin.Close()
	os.Stdout.Close()

	exited := make(chan syscall.WaitStatus, 1)
	drained := make(chan struct{})
	go reapChildren(server.Pid, exited, drained)
	for {
		select {
		case ws := <-exited:
			// Whatever the server left behind is ours now (we are its
			// subreaper): end it before reporting, or a child that
			// ignores TERM would outlive the server — and, if the agent
			// is dying too, everything.
			sh.tree.endLeftovers(grace, drained)
			return exitLike(ws)
		case <-sh.sigs:
		case <-sh.orphaned:
			return sh.tree.killAll(grace, exited)
		}
	}
}

// reapChildren waits for every child (the server and, as a subreaper, any
// orphan adopted), reports the server's status, and closes drained when no
// child is left.
func reapChildren(server int, exited chan<- syscall.WaitStatus, drained chan<- struct{}) {
	defer close(drained)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return // ECHILD: nothing left to wait for
		case pid == server:
			exited <- ws
		}
	}
}

// shimTree is what the shim ends: its own process group and, when set,
// its cgroup.
type shimTree struct {
	cgroup string // directory, "" for none
}

// signal sends sig to the group and to every cgroup member, a descendant
// that left the group with setsid included. The shim handles TERM, so a
// TERM to itself is harmless.
func (t shimTree) signal(sig syscall.Signal) {
	_ = syscall.Kill(-syscall.Getpgrp(), sig)
	if t.cgroup != "" {
		cgroup.Signal(t.cgroup, sig)
	}
}

// kill SIGKILLs the whole tree, the shim included.
func (t shimTree) kill() {
	if t.cgroup != "" {
		_ = cgroup.Kill(t.cgroup)
	}
	_ = syscall.Kill(-syscall.Getpgrp(), syscall.SIGKILL)
}

// killAll ends the whole tree after the agent died: TERM, the grace period
// (cut short if the server exits), then KILL, which ends the shim too. The
// agent that would remove the cgroup is gone, so the shim steps out of it
// first, kills what is left and removes it.
func (t shimTree) killAll(grace time.Duration, exited <-chan syscall.WaitStatus) int {
	t.signal(syscall.SIGTERM)
	timer := time.NewTimer(grace)
	select {
	case <-exited:
	case <-timer.C:
	}
	if t.cgroup != "" {
		cgroup.EndFromInside(t.cgroup)
	}
	t.kill()
	return 137 // not reached: SIGKILL cannot be caught
}

// endLeftovers runs after the server exited: TERM the tree (the shim
// itself handles TERM), give the leftovers the grace period to go, then
// KILL the tree. With nothing left, drained closes at once and this costs
// nothing. If KILL is needed it ends the shim too, so the agent sees 137
// instead of the server's own status — the server had exited either way.
// As a subreaper the shim adopts every orphan, setsid or not, so drained
// waits for those too.
func (t shimTree) endLeftovers(grace time.Duration, drained <-chan struct{}) {
	t.signal(syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		t.kill()
	}
}

// exitLike ends the shim the way the server ended, so the agent's Wait sees
// the server's exit code, or its signal for the signals the Go runtime
// itself dies from once they are reset (TERM, INT, HUP). Other signals
// exit with the shell's convention, 128+signal: the runtime would drop them
// or dump its own stack.
func exitLike(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	sig := ws.Signal()
	switch sig {
	case syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		// Delivery to a multi-threaded process is asynchronous: wait for
		// it rather than exit first.
		time.Sleep(time.Second)
	}
	return 128 + int(sig)
}
