//go:build unix && !linux

package executor

import "syscall"

// agentProcAttr puts a started agent in its own process group: a Ctrl-C
// meant for the relay must not reach agents directly; the relay stops them
// with Close.
func agentProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
