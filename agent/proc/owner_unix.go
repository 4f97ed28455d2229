//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/kandev/lsp/agent/proc/cgroup"
)

// startReportTimeout bounds how long Start waits for the reaper shim to say
// whether the server itself could be executed.
const startReportTimeout = 10 * time.Second

// owner is a server's process group, led by the reaper shim.
type owner struct {
	pgid int
	// lifeline is the write end of a pipe whose read end the shim holds.
	// It is never written: when it closes — in release, or because the
	// agent died and the kernel closed every descriptor — the shim sees
	// EOF and kills the group. Unlike Pdeathsig (bound to the forking
	// thread, Linux only) this works on every Unix and for any death.
	lifeline *os.File
	// report is the read end of the shim's start report: EOF with no
	// bytes means the server was executed; otherwise the bytes are the
	// exec error.
	report *os.File
	// childEnds are the shim's ends of both pipes, closed once it has them.
	childEnds []*os.File
	// cg is the server's own cgroup, nil where the host delegates none
	// (see package cgroup): then the group is the whole unit, and a
	// descendant that calls setsid leaves it. With a cgroup, signals go to
	// the group and to every cgroup member, and kill is cgroup.kill, which
	// no descendant escapes.
	cg *cgroup.Group
	// exe is the shim's executable.
	exe string
}

// command prepares the shim that will start c in a new process group, and
// in a cgroup of its own where the host delegates one.
func command(c Command) (*exec.Cmd, *owner, error) {
	o, err := newOwner()
	if err != nil {
		return nil, nil, err
	}
	return o.command(c), o, nil
}

// newOwner makes what a shim is started with: its lifeline and start
// report pipes, and its cgroup where the host delegates one.
func newOwner() (*owner, error) {
	exe, err := shimPath()
	if err != nil {
		return nil, fmt.Errorf("reaper shim: %w", err)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		closeAll(lifeR, lifeW)
		return nil, err
	}
	o := &owner{lifeline: lifeW, report: repR, childEnds: []*os.File{lifeR, repW}, exe: exe}
	if parent, err := cgroup.Available(); err == nil {
		// A group that cannot be made (a full hierarchy, a quota on
		// descendants) leaves this server with process-group reaping.
		o.cg, _ = cgroup.New(parent)
	}
	return o, nil
}

// command is the shim's command line:
//
//	kandev-lsp-reaper GRACE CGROUP PATH ARGS...
//
// with CGROUP the group's directory or "-" for none, the lifeline on fd 3
// and the start report on fd 4.
func (o *owner) command(c Command) *exec.Cmd {
	grace := orDefault(c.KillGrace, DefaultKillGrace)
	return o.shim(append([]string{grace.String(), o.cgroupArg(), c.Path}, c.Args...)...)
}

// shim is the command that starts the shim with args, in a new process
// group and, with a cgroup, inside it; childEnds become fds 3 and on.
func (o *owner) shim(args ...string) *exec.Cmd {
	cmd := exec.Command(o.exe)
	cmd.Args = append([]string{reaperArg0}, args...)
	cmd.ExtraFiles = o.childEnds
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if o.cg != nil {
		// Born inside, so nothing it forks is ever outside.
		intoCgroup(cmd.SysProcAttr, o.cg.FD())
	}
	return cmd
}

// cgroupArg is the shim's CGROUP argument: the group's directory, or "-".
func (o *owner) cgroupArg() string {
	if o.cg == nil {
		return "-"
	}
	return o.cg.Dir()
}

// withoutCgroup gives up the cgroup after the shim could not be started in
// it (an old kernel without clone3, a policy refusing the move) and
// returns the command to start instead: process-group reaping still holds.
// It returns nil when there was no cgroup to give up.
func (o *owner) withoutCgroup(c Command) *exec.Cmd {
	if !o.dropCgroup() {
		return nil
	}
	return o.command(c)
}

// dropCgroup removes the cgroup, if there is one, and reports whether
// there was.
func (o *owner) dropCgroup() bool {
	if o.cg == nil {
		return false
	}
	_ = o.cg.Remove()
	o.cg = nil
	return true
}

// started waits for the shim's start report, so an executable that cannot
// be run fails Start (close 4008) rather than looking like a server exit.
func (o *owner) started(cmd *exec.Cmd) error {
	o.pgid = cmd.Process.Pid
	closeAll(o.childEnds...)
	o.childEnds = nil
	_ = o.report.SetReadDeadline(time.Now().Add(startReportTimeout))
	msg, err := io.ReadAll(o.report)
	if err != nil {
		return fmt.Errorf("reaper shim report: %w", err)
	}
	if len(msg) > 0 {
		return errors.New(string(msg))
	}
	return nil
}

// terminate sends SIGTERM to the whole tree. The shim ignores it and stays
// to report the server's exit status.
func (o *owner) terminate() { o.signal(syscall.SIGTERM) }

// kill sends SIGKILL to the whole tree, shim included: cgroup.kill where
// there is a cgroup, and the group signal in any case.
func (o *owner) kill() {
	if o.cg != nil {
		_ = o.cg.Kill()
	}
	o.signal(syscall.SIGKILL)
}

// signal delivers sig to the group and to every cgroup member (a
// descendant that left the group with setsid); ESRCH (an empty group) is
// the expected end state, not an error.
func (o *owner) signal(sig syscall.Signal) {
	if o.pgid > 0 {
		_ = syscall.Kill(-o.pgid, sig)
	}
	if o.cg != nil {
		o.cg.Signal(sig)
	}
}

// alive reports whether the tree has a member that is not a zombie: in the
// group, or anywhere in the cgroup.
func (o *owner) alive() bool {
	return o.pgid > 0 && groupAlive(o.pgid) || o.cg != nil && o.cg.Populated()
}

// release closes the agent's pipe ends and removes the cgroup. Closing the
// lifeline tells a shim that is still running to kill its tree; Stop calls
// release last, when the tree is already gone.
func (o *owner) release() {
	closeAll(o.childEnds...)
	o.childEnds = nil
	o.report.Close()
	o.lifeline.Close()
	if o.cg != nil {
		_ = o.cg.Remove()
		o.cg = nil
	}
}

// groupExists reports whether any process, zombies included, is in the group.
func groupExists(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
