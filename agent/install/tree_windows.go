package install

import (
	"io"
	"os"
	"os/exec"
	"strconv"
)

type signal int

// Windows has no SIGTERM for a console tree: both steps kill it.
const (
	sigTerm signal = iota
	sigKill
)

// tree is an installer's process tree on Windows, where there are no
// sessions to signal; taskkill /T walks the parent links instead.
type tree struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// startTree starts cmd with its output on a pipe. creack/pty has no Windows
// support (ConPTY is a later step), so npm and go see a pipe here.
func startTree(cmd *exec.Cmd) (*tree, io.ReadCloser, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stdout = w
	cmd.Stderr = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return &tree{cmd: cmd}, r, nil
}

// signal kills the leader and its descendants.
func (t *tree) signal(signal) {
	pid := strconv.Itoa(t.cmd.Process.Pid)
	// taskkill is part of every Windows install; /T follows the tree.
	_ = exec.Command("taskkill", "/T", "/F", "/PID", pid).Run()
	_ = t.cmd.Process.Kill()
}

// alive cannot see descendants on Windows; the leader's Wait covers the
// leader, and taskkill /T has already been sent to the rest.
func (t *tree) alive() bool { return false }
