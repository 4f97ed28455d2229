package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
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

// groupAlive reports whether the group has a member that is not a zombie.
// kill(-pgid, 0) alone counts zombies, and orphaned descendants stay zombies
// for as long as the container's init neglects to reap them; waiting on
// those would make every Stop last its whole kill grace.
func groupAlive(pgid int) bool {
	if !groupExists(pgid) {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after "(comm)": state ppid pgrp ...; comm may hold spaces
		// and parentheses, so split after the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) >= 3 && bytes.Equal(f[2], want) && f[0][0] != 'Z' {
			return true
		}
	}
	return false
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
