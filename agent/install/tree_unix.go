//go:build unix

package install

import (
	"io"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

var (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// tree is an installer's process tree: the session its leader created.
type tree struct {
	sid int // the leader's pid, which is also its session and group id
}

// startTree starts cmd as the leader of a new session whose controlling
// terminal is a fresh pty. The session is what makes the tree reapable:
// npm and go spawn helpers that stay in it, and a pty (rather than pipes)
// gives installers the terminal they expect while capturing stdout and
// stderr interleaved as a user would have seen them.
func startTree(cmd *exec.Cmd) (*tree, io.ReadCloser, error) {
	// Wide enough that npm and go do not wrap their error lines.
	size := &pty.Winsize{Rows: 40, Cols: 200}
	master, err := pty.StartWithAttrs(cmd, size, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		return nil, nil, err
	}
	return &tree{sid: cmd.Process.Pid}, master, nil
}

// signal sends sig to the leader's group and to every other member of its
// session: a helper that moved to a group of its own (setpgid) is still in
// the session.
func (t *tree) signal(sig syscall.Signal) {
	_ = syscall.Kill(-t.sid, sig)
	for _, pid := range sessionMembers(t.sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// alive reports whether any process of the session is still running.
func (t *tree) alive() bool {
	return len(sessionMembers(t.sid)) > 0 || groupRunning(t.sid)
}
