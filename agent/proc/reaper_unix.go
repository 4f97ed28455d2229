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
)

// reaperArg0 is the argv[0] under which a binary linking this package acts
// as the reaper shim instead of running its main. The agent starts every
// language server as
//
//	<agent binary> (argv[0]=kandev-lsp-reaper) GRACE PATH ARGS...
//
// with the lifeline pipe on fd 3 and the start report on fd 4. Re-executing
// the agent's own binary means the shim needs no install step and is always
// the version of the agent that started it.
const reaperArg0 = "kandev-lsp-reaper"

// init turns the process into the shim before main (or TestMain) runs. It
// does nothing for any other argv[0].
func init() {
	if len(os.Args) >= 3 && os.Args[0] == reaperArg0 {
		os.Exit(runReaper(os.Args[1], os.Args[2:]))
	}
}

// runReaper is the shim: it leads the server's process group (the agent set
// Setpgid), starts the server in it and exits with the server's status. On
// Linux it is a child subreaper, so helpers the server orphans stay in its
// tree and are reaped here rather than left as zombies for an init that may
// neglect them. When the lifeline reports the agent gone, it does what the
// agent's Stop would have done: SIGTERM the group, wait the grace period,
// SIGKILL the group (itself included).
func runReaper(graceArg string, argv []string) int {
	grace, err := time.ParseDuration(graceArg)
	if err != nil {
		grace = DefaultKillGrace
	}
	lifeline, report := os.NewFile(3, "lifeline"), os.NewFile(4, "report")
	// Neither pipe is for the server.
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	becomeSubreaper()
	// A group SIGTERM from the agent is for the server; the shim stays to
	// report the server's exit status. Handled signals reset to their
	// defaults across exec, so the server still gets the default action.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	server, err := os.StartProcess(argv[0], argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprint(report, err)
		return 127
	}
	report.Close()
	// Only the server may hold its stdio: our copy of stdout would delay
	// the EOF the agent takes for the server's end.
	os.Stdin.Close()
	os.Stdout.Close()

	exited := make(chan syscall.WaitStatus, 1)
	drained := make(chan struct{})
	go reapChildren(server.Pid, exited, drained)
	orphaned := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, lifeline) // never written: returns when the agent's end closes
		close(orphaned)
	}()
	for {
		select {
		case ws := <-exited:
			// Whatever the server left behind is ours now (we are its
			// subreaper): end it before reporting, or a child that
			// ignores TERM would outlive the server — and, if the agent
			// is dying too, everything.
			endLeftovers(grace, drained)
			return exitLike(ws)
		case <-sigs:
		case <-orphaned:
			return killGroup(grace, exited)
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

// killGroup ends the whole group after the agent died: TERM, the grace
// period (cut short if the server exits), then KILL, which ends the shim
// too.
func killGroup(grace time.Duration, exited <-chan syscall.WaitStatus) int {
	pgrp := syscall.Getpgrp()
	_ = syscall.Kill(-pgrp, syscall.SIGTERM)
	t := time.NewTimer(grace)
	select {
	case <-exited:
	case <-t.C:
	}
	_ = syscall.Kill(-pgrp, syscall.SIGKILL)
	return 137 // not reached: SIGKILL cannot be caught
}

// endLeftovers runs after the server exited: TERM the group (the shim
// itself handles TERM), give the leftovers the grace period to go, then
// KILL the group. With nothing left, drained closes at once and this costs
// nothing. If KILL is needed it ends the shim too, so the agent sees 137
// instead of the server's own status — the server had exited either way.
func endLeftovers(grace time.Duration, drained <-chan struct{}) {
	pgrp := syscall.Getpgrp()
	_ = syscall.Kill(-pgrp, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-drained:
	case <-t.C:
		_ = syscall.Kill(-pgrp, syscall.SIGKILL)
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
