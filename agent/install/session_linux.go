package install

import (
	"bytes"
	"os"
	"strconv"
)

// sessionMembers lists the running (non-zombie) processes whose session is
// sid. Zombies are left out on purpose: orphans are reparented to the
// container's init, which may never reap them, and they hold nothing.
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(strconv.Itoa(sid))
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after "(comm)": state ppid pgrp session ...; comm may hold
		// spaces and parentheses, so split after the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) >= 4 && bytes.Equal(f[3], want) && f[0][0] != 'Z' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// groupRunning is covered by the session scan on Linux, which sees every
// group of the session and skips zombies.
func groupRunning(int) bool { return false }
