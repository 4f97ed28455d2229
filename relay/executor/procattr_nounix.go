//go:build !unix

package executor

import "syscall"

// agentProcAttr: no process-group handling off Unix.
func agentProcAttr() *syscall.SysProcAttr { return nil }
