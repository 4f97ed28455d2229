//go:build unix && !linux

package install

import (
	"errors"
	"syscall"
)

// sessionMembers has no portable source without /proc; the group signal
// reaches what stays in the leader's group, which npm and go helpers do.
func sessionMembers(int) []int { return nil }

// groupRunning reports whether any process is in the group led by pgid.
// launchd reaps orphans promptly, so zombies do not linger here.
func groupRunning(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
