//go:build unix && !linux

package proc

import (
	"os"
	"syscall"
)

// sysProcAttr puts the server in its own process group, so kill(-pgid)
// reaches its descendants. Pdeathsig is Linux-only.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// groupAlive reports whether any process is in the group.
func groupAlive(pgid int) bool { return groupExists(pgid) }

// growPipe is a no-op where pipe sizes are fixed.
func growPipe(*os.File) {}
