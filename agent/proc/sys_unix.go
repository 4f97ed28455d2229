//go:build unix && !linux

package proc

import (
	"os"
	"syscall"
)

// shimPath is the agent's own binary, which acts as the reaper shim.
func shimPath() (string, error) { return os.Executable() }

// becomeSubreaper is Linux-only; elsewhere orphans go to init, and the
// process group still reaches them.
func becomeSubreaper() {}

// intoCgroup is never called here: there are no cgroups to start in.
func intoCgroup(*syscall.SysProcAttr, int) {}

// groupAlive reports whether any process is in the group.
func groupAlive(pgid int) bool { return groupExists(pgid) }

// growPipe is a no-op where pipe sizes are fixed.
func growPipe(*os.File) {}
