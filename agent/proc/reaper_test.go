//go:build linux

package proc

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// readPid reads one line holding a pid from the server's stdout.
func readPid(t *testing.T, p *Process) int {
	t.Helper()
	line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err)
	return pid
}

func ppid(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "PPid:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			require.NoError(t, err)
			return n
		}
	}
	t.Fatal("no PPid")
	return 0
}

// The leader is the shim; the server runs under it in the same group.
func TestServerRunsUnderShim(t *testing.T) {
	t.Parallel()
	p := start(t, "echo $$; exec cat", time.Second, time.Second)
	server := readPid(t, p)
	require.NotEqual(t, p.Pid(), server)
	require.Equal(t, p.Pid(), ppid(t, server))
	pgid, err := syscall.Getpgid(server)
	require.NoError(t, err)
	require.Equal(t, p.Pid(), pgid)
}

// The shim exits the way the server did, so Err reports the server.
func TestExitStatusPassesThrough(t *testing.T) {
	t.Parallel()
	p := start(t, "exit 3", time.Second, time.Second)
	<-p.Done()
	var ee *exec.ExitError
	require.True(t, errors.As(p.Err(), &ee))
	require.Equal(t, 3, ee.ExitCode())

	p = start(t, "kill -TERM $$", time.Second, time.Second)
	<-p.Done()
	require.True(t, errors.As(p.Err(), &ee))
	ws := ee.Sys().(syscall.WaitStatus)
	require.True(t, ws.Signaled())
	require.Equal(t, syscall.SIGTERM, ws.Signal())

	p = start(t, "kill -USR1 $$", time.Second, time.Second)
	<-p.Done()
	require.True(t, errors.As(p.Err(), &ee))
	require.Equal(t, 128+int(syscall.SIGUSR1), ee.ExitCode(), "other signals: the shell's convention")
}

// A helper orphaned while the server runs is adopted by the shim (a child
// subreaper), not by init: it stays in the agent's tree.
func TestShimAdoptsOrphans(t *testing.T) {
	t.Parallel()
	p := start(t, "(sleep 1000 & echo $!); exec cat", time.Second, time.Second)
	orphan := readPid(t, p)
	waitFor(t, 5*time.Second, func() bool { return ppid(t, orphan) == p.Pid() })
	require.NoError(t, p.Stop(context.Background()))
	waitFor(t, 5*time.Second, func() bool { return !alive(orphan) })
}

// When the agent's end of the lifeline closes without Stop — what the
// kernel does when the agent dies — the shim kills the whole group, a
// TERM-ignoring member included, within its grace.
func TestLifelineLossKillsGroup(t *testing.T) {
	t.Parallel()
	p := start(t, `trap "" TERM; sleep 1000 & echo $!; exec sleep 1000`, time.Hour, 100*time.Millisecond)
	child := readPid(t, p)
	members := groupPids(p.Pid())
	require.Len(t, members, 3)

	p.own.lifeline.Close() // as if the agent had died
	<-p.Done()
	for _, pid := range append(members, child) {
		waitFor(t, 5*time.Second, func() bool { return !alive(pid) })
	}
}
