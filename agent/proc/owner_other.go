//go:build !unix && !windows

package proc

import (
	"os"
	"os/exec"
)

// On hosts with neither process groups nor job objects (js, wasip1, plan9)
// only the leader can be stopped. The agent does not run there; this file
// keeps the package building.
type owner struct{ p *os.Process }

func command(c Command) (*exec.Cmd, *owner, error) {
	return exec.Command(c.Path, c.Args...), &owner{}, nil
}

func (o *owner) started(cmd *exec.Cmd) error { o.p = cmd.Process; return nil }
func (o *owner) terminate()                  { o.kill() }
func (o *owner) kill() {
	if o.p != nil {
		_ = o.p.Kill()
	}
}
func (o *owner) alive() bool { return false }

func (o *owner) withoutCgroup(Command) *exec.Cmd { return nil }
func (o *owner) release()                        {}

func growPipe(*os.File) {}
