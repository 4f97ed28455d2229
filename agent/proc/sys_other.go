//go:build !unix

package proc

import (
	"os"
	"syscall"
)

// On non-unix hosts (Windows) a process group of this kind does not exist;
// job objects will replace this file. Until then only the leader is stopped.

type signal = os.Signal

var (
	sigTerm signal = os.Kill
	sigKill signal = os.Kill
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

func signalGroup(pid int, sig signal) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Signal(sig)
	}
}

func groupAlive(int) bool { return false }

func growPipe(*os.File) {}
