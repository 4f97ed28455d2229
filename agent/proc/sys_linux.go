package proc

import (
	"os"
	"syscall"

	"github.com/kandev/lsp/agent/proc/procfs"
)

// shimPath is the executable the reaper shim runs from: the agent's own
// binary, through /proc so an upgrade that replaces the file on disk does
// not break servers started afterwards.
func shimPath() (string, error) { return "/proc/self/exe", nil }

// becomeSubreaper makes orphaned descendants of the shim re-parent to it
// (PR_SET_CHILD_SUBREAPER) instead of to init, so they stay in the agent's
// tree and the shim reaps them.
func becomeSubreaper() {
	const prSetChildSubreaper = 36
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// intoCgroup makes the process start inside the cgroup open at fd
// (clone3 with CLONE_INTO_CGROUP).
func intoCgroup(attr *syscall.SysProcAttr, fd int) {
	attr.UseCgroupFD = true
	attr.CgroupFD = fd
}

// groupAlive reports whether the group has a member that is not a zombie.
// kill(-pgid, 0) alone counts zombies, and orphaned descendants stay zombies
// for as long as the container's init neglects to reap them; waiting on
// those would make every Stop last its whole kill grace.
func groupAlive(pgid int) bool {
	if !groupExists(pgid) {
		return false
	}
	alive := false
	if !procfs.Each(func(p procfs.Proc) bool {
		alive = p.Pgrp == pgid && p.Running()
		return !alive
	}) {
		return true // no process table: kill(-pgid, 0) is all we know
	}
	return alive
}

// pipeSize is the buffer the agent asks for on a server's stdin and stdout.
// The 64 KiB default makes a 1 MiB message cost sixteen writer/reader
// handoffs; 1 MiB (the unprivileged maximum, fs.pipe-max-size) lets most
// messages cross in one. The kernel allocates pipe pages lazily, so an idle
// pipe does not cost the full size.
const pipeSize = 1 << 20

// fSetPipeSz is F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7); package syscall
// does not name it.
const fSetPipeSz = 1031

// growPipe enlarges a pipe's buffer, best effort: a refusal (a lowered
// pipe-max-size, or the per-user pipe budget) leaves the default size.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// Control, unlike Fd, leaves the file in non-blocking mode, so
	// deadlines keep working.
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSz, pipeSize)
	})
}
