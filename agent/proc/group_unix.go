//go:build unix

package proc

import (
	"errors"
	"syscall"
)

var (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// signalGroup sends sig to every process in the group led by pgid. ESRCH
// (an empty group) is the expected end state and not an error.
func signalGroup(pgid int, sig syscall.Signal) {
	_ = syscall.Kill(-pgid, sig)
}

// groupExists reports whether any process, zombies included, is in the group.
func groupExists(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
