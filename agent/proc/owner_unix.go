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
}

// command prepares the shim that will start c in a new process group.
func command(c Command) (*exec.Cmd, *owner, error) {
	exe, err := shimPath()
	if err != nil {
		return nil, nil, fmt.Errorf("reaper shim: %w", err)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		closeAll(lifeR, lifeW)
		return nil, nil, err
	}
	cmd := exec.Command(exe)
	grace := orDefault(c.KillGrace, DefaultKillGrace)
	cmd.Args = append([]string{reaperArg0, grace.String(), c.Path}, c.Args...)
	cmd.ExtraFiles = []*os.File{lifeR, repW} // fds 3 and 4 in the shim
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, &owner{lifeline: lifeW, report: repR, childEnds: []*os.File{lifeR, repW}}, nil
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

// terminate sends SIGTERM to the whole group. The shim ignores it and stays
// to report the server's exit status.
func (o *owner) terminate() { o.signal(syscall.SIGTERM) }

// kill sends SIGKILL to the whole group, shim included.
func (o *owner) kill() { o.signal(syscall.SIGKILL) }

// signal delivers sig to the group; ESRCH (an empty group) is the expected
// end state, not an error.
func (o *owner) signal(sig syscall.Signal) {
	if o.pgid > 0 {
		_ = syscall.Kill(-o.pgid, sig)
	}
}

// alive reports whether the group has a member that is not a zombie.
func (o *owner) alive() bool { return o.pgid > 0 && groupAlive(o.pgid) }

// release closes the agent's pipe ends. Closing the lifeline tells a shim
// that is still running to kill its group; Stop calls release last, when
// the group is already gone.
func (o *owner) release() {
	closeAll(o.childEnds...)
	o.childEnds = nil
	o.report.Close()
	o.lifeline.Close()
}

// groupExists reports whether any process, zombies included, is in the group.
func groupExists(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
