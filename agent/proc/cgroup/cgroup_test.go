//go:build linux

package cgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/proc/procfs"
)

// available returns the delegated parent group, or skips the test where
// the host delegates none (the fallback, process groups, is tested in
// agent/proc). KANDEV_REQUIRE_CGROUP=1, set where the host is known to
// delegate one (the test task), fails instead: a host that lost its
// delegation cannot pass these tests by skipping them.
func available(t *testing.T) string {
	t.Helper()
	parent, err := Available()
	if err != nil {
		if os.Getenv("KANDEV_REQUIRE_CGROUP") == "1" {
			t.Fatalf("KANDEV_REQUIRE_CGROUP=1 but no delegated cgroup v2: %v", err)
		}
		t.Skipf("no delegated cgroup v2 on this host, process-group reaping applies: %v", err)
	}
	return parent
}

// group returns a fresh group, or skips the test as available does.
func group(t *testing.T) *Group {
	t.Helper()
	g, err := New(available(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = g.Remove() })
	return g
}

func TestMountinfoUnescape(t *testing.T) {
	t.Parallel()
	require.Equal(t, "/sys/fs/cgroup/a b", unescape(`/sys/fs/cgroup/a\040b`))
	require.Equal(t, `/x\y`, unescape(`/x\y`))
}

// A process started into the group stays a member after setsid; Kill ends
// it and every other member, and Remove then deletes the group.
func TestKillReachesSetsid(t *testing.T) {
	t.Parallel()
	g := group(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("/bin/sh", "-c", `setsid sh -c 'trap "" TERM; echo $$ > `+pidFile+`; exec sleep 60' & exec sleep 60`)
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: g.FD()}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var escaped int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil || len(b) == 0 || b[len(b)-1] != '\n' {
			return false
		}
		p, err := procfs.Stat(atoi(b))
		escaped = p.Pid
		return err == nil && p.Session == p.Pid
	}, 10*time.Second, 5*time.Millisecond, "the child left the session")
	require.True(t, slices.Contains(g.Pids(), escaped), "still in the cgroup: %v", g.Pids())

	require.NoError(t, g.Kill())
	_ = cmd.Wait()
	require.Eventually(t, func() bool { return !g.Populated() }, 5*time.Second, 5*time.Millisecond)
	p, err := procfs.Stat(escaped)
	require.True(t, err != nil || !p.Running(), "the setsid child is gone")
	require.NoError(t, g.Remove())
	_, err = os.Stat(g.Dir())
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A member that exited but was not reaped is no longer listed: a zombie
// must not count as alive, or every stop would wait out its grace.
func TestZombieNotListed(t *testing.T) {
	t.Parallel()
	g := group(t)
	// The shell execs sleep, which never reaps the short child: a zombie.
	cmd := exec.Command("/bin/sh", "-c", "sleep 0.01 & exec sleep 60")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: g.FD()}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = g.Kill(); _ = cmd.Wait() })
	require.Eventually(t, func() bool {
		zombie := false
		procfs.Each(func(p procfs.Proc) bool {
			zombie = zombie || (p.PPid == cmd.Process.Pid && p.State == 'Z')
			return true
		})
		return zombie
	}, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []int{cmd.Process.Pid}, g.Pids())
}

func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		if c >= '0' && c <= '9' {
			n = n*10 + int(c-'0')
		}
	}
	return n
}

// Groups an agent left behind (killed between ending a server and removing
// its group) are swept when the next agent starts: empty and older than
// the cutoff. A group with a member, and one made after the cutoff, stay.
func TestSweepRemovesLeftovers(t *testing.T) {
	t.Parallel()
	parent := available(t)
	// A parent of its own, so no other test's (or agent's) groups are
	// swept by this one.
	own, err := os.MkdirTemp(parent, prefix+"sweeptest-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Rmdir(own) })
	stale, err := New(own)
	require.NoError(t, err)
	busy, err := New(own)
	require.NoError(t, err)
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: busy.FD()}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = busy.Kill(); _ = cmd.Wait(); _ = busy.Remove() })
	cutoff := time.Now().Add(time.Second)
	fresh, err := New(own)
	require.NoError(t, err)
	t.Cleanup(func() { _ = fresh.Remove() })
	require.NoError(t, os.Chtimes(fresh.Dir(), cutoff.Add(time.Minute), cutoff.Add(time.Minute)))

	sweep(own, cutoff)
	require.NoDirExists(t, stale.Dir())
	require.DirExists(t, busy.Dir())
	require.DirExists(t, fresh.Dir())
}
