//go:build !unix

package relay

import "syscall"

// agentProcAttr: no process-group handling off Unix.
func agentProcAttr() *syscall.SysProcAttr { return nil }
