package webdemo

import "syscall"

// childAttr makes the agent die with the demo even if the demo is killed
// without a chance to stop it, so no language server outlives a test run.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
