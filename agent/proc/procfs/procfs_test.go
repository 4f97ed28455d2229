//go:build linux

package procfs

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestParseStat(t *testing.T) {
	t.Parallel()
	p, err := parseStat(42, []byte("42 (a) b (c)) S 7 40 39 0 -1 4194560 91 0 0 0\n"))
	require.NoError(t, err)
	require.Equal(t, Proc{Pid: 42, PPid: 7, Pgrp: 40, Session: 39, State: 'S'}, p)
	require.True(t, p.Running())
	p, err = parseStat(9, []byte("9 (x) Z 1 9 9 0"))
	require.NoError(t, err)
	require.False(t, p.Running(), "a zombie has exited")
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S a b c"} {
		_, err := parseStat(1, []byte(bad))
		require.Error(t, err, "%q", bad)
	}
}

// The walker sees this process with the group and session the kernel
// reports, and a child in a session of its own (setsid) by that session.
func TestMembers(t *testing.T) {
	t.Parallel()
	self, err := Stat(os.Getpid())
	require.NoError(t, err)
	pgid, err := syscall.Getpgid(os.Getpid())
	require.NoError(t, err)
	sid, err := unix.Getsid(os.Getpid())
	require.NoError(t, err)
	require.Equal(t, Proc{Pid: os.Getpid(), PPid: os.Getppid(), Pgrp: pgid, Session: sid, State: self.State}, self)

	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	got := Members(InSession(cmd.Process.Pid))
	require.Len(t, got, 1)
	require.Equal(t, cmd.Process.Pid, got[0].Pid)
	require.Equal(t, cmd.Process.Pid, got[0].Pgrp)
	require.Len(t, Members(InGroup(cmd.Process.Pid)), 1)

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	require.Empty(t, Members(InSession(cmd.Process.Pid)), "gone once reaped")
}
