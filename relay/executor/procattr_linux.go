package executor

import "syscall"

// agentProcAttr puts a started agent in its own process group — a Ctrl-C
// meant for the relay must not reach agents directly; the relay stops them
// with Close — and makes it die with the relay if the relay is killed
// without running Close, so no agent or language server outlives it.
func agentProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
