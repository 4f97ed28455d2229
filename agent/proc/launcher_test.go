//go:build linux

package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// newLauncher returns a Launcher closed at the end of the test, once its
// first spare is running.
func newLauncher(t *testing.T, stderr io.Writer) *Launcher {
	t.Helper()
	l := NewLauncher(stderr)
	t.Cleanup(l.Close)
	waitSpare(t, l)
	return l
}

// waitSpare waits for l's spare and returns its shim's pid.
func waitSpare(t *testing.T, l *Launcher) int {
	t.Helper()
	var pid int
	waitFor(t, 10*time.Second, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.spare != nil {
			pid = l.spare.cmd.Process.Pid
		}
		return pid != 0
	})
	return pid
}

func launch(t *testing.T, l *Launcher, script string) *Process {
	t.Helper()
	p, err := l.Start(Command{
		Path: "/bin/sh", Args: []string{"-c", script}, Dir: t.TempDir(),
		Env: []string{"PATH=/usr/bin:/bin"}, Grace: time.Second, KillGrace: 100 * time.Millisecond,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Stop(context.Background()) })
	return p
}

// A server is started in the spare shim that was waiting for it: the shim
// started before the request leads the server's group (and cgroup), and a
// new spare takes its place.
func TestLauncherStartsInSpare(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	spare := waitSpare(t, l)
	p := launch(t, l, "echo $$; exec cat")
	require.Equal(t, spare, p.Pid(), "the server's shim is the spare")
	server := readPid(t, p)
	require.Equal(t, p.Pid(), ppid(t, server))
	pgid, err := syscall.Getpgid(server)
	require.NoError(t, err)
	require.Equal(t, p.Pid(), pgid)
	if haveCgroup(t) {
		require.NotNil(t, p.own.cg)
		require.Contains(t, p.own.cg.Pids(), server, "born in the spare's cgroup")
	}
	next := waitSpare(t, l)
	require.NotEqual(t, spare, next)

	_, err = p.Stdin().Write([]byte("ping"))
	require.NoError(t, err)
	buf := make([]byte, 4)
	_, err = io.ReadFull(p.Stdout(), buf)
	require.NoError(t, err)
	require.Equal(t, "ping", string(buf))
	require.NoError(t, p.Stop(context.Background()))
	require.NoError(t, p.Err(), "cat exited by itself on stdin EOF")
}

// The next spare waits for RefillDelay after a use, so its start does not
// take the CPU of the set-up it follows; a server started meanwhile starts
// afresh, and Close drops the wait.
func TestLauncherRefillWaits(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	spare := waitSpare(t, l)
	l.mu.Lock()
	l.delay = time.Hour // a wait that outlasts the test
	l.mu.Unlock()
	p := launch(t, l, "exec cat")
	require.Equal(t, spare, p.Pid())
	l.mu.Lock()
	require.Nil(t, l.spare)
	require.False(t, l.filling, "no spare is started at once")
	require.NotNil(t, l.later)
	l.mu.Unlock()
	q := launch(t, l, "exec cat")
	require.NotEqual(t, spare, q.Pid(), "started afresh")
	l.Close()
	l.mu.Lock()
	require.Nil(t, l.later, "Close drops the wait")
	require.Nil(t, l.spare)
	l.mu.Unlock()
}

// The server gets exactly the spawn's directory, arguments and
// environment, not the spare's own.
func TestLauncherDirArgsEnv(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	dir := t.TempDir()
	p, err := l.Start(Command{
		Path: "/bin/sh", Args: []string{"-c", `printf '%s|%s|%s|%s' "$PWD" "$ONLY" "$HOME" "$1"`, "sh", "two words"},
		Dir: dir, Env: []string{"ONLY=task"},
	})
	require.NoError(t, err)
	out, err := io.ReadAll(p.Stdout())
	require.NoError(t, err)
	require.Equal(t, dir+"|task||two words", string(out))
	<-p.Done()
	require.NoError(t, p.Stop(context.Background()))

	// No environment at all stays none.
	p, err = l.Start(Command{Path: "/usr/bin/env", Dir: dir})
	require.NoError(t, err)
	out, err = io.ReadAll(p.Stdout())
	require.NoError(t, err)
	require.Empty(t, string(out))
	require.NoError(t, p.Stop(context.Background()))
}

// The spare's servers write their stderr where the Launcher says.
func TestLauncherStderr(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	l := newLauncher(t, w)
	w.Close() // the spare holds its own copy
	p := launch(t, l, "echo oops >&2")
	<-p.Done()
	require.NoError(t, p.Stop(context.Background()))
	l.Close() // the spare started after p holds the pipe too
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "oops\n", string(b))
}

// The server's exit status passes through the spare as through any shim.
func TestLauncherExitStatus(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	p := launch(t, l, "exit 3")
	<-p.Done()
	var ee *exec.ExitError
	require.True(t, errors.As(p.Err(), &ee))
	require.Equal(t, 3, ee.ExitCode())
}

// An executable that cannot be run fails Start with its error, as Start
// does, and the next Start still works.
func TestLauncherStartFailure(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	spare := waitSpare(t, l)
	dir := t.TempDir()
	_, err := l.Start(Command{Path: "/nonexistent/server", Dir: dir})
	require.ErrorContains(t, err, "no such file")
	waitFor(t, 5*time.Second, func() bool { return !alive(spare) })
	_, err = l.Start(Command{Path: "/bin/true", Dir: dir + "/missing"})
	require.Error(t, err, "a missing directory fails too")
	p := launch(t, l, "exec cat")
	require.NoError(t, p.Stop(context.Background()))
}

// A spare that died (killed by someone else) is not a failure: the server
// is started afresh.
func TestLauncherDeadSpare(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	spare := waitSpare(t, l)
	require.NoError(t, syscall.Kill(spare, syscall.SIGKILL))
	waitFor(t, 5*time.Second, func() bool { return !alive(spare) })
	p := launch(t, l, "echo $$; exec cat")
	require.NotEqual(t, spare, p.Pid())
	require.Equal(t, p.Pid(), ppid(t, readPid(t, p)))
}

// The agent dying with a spare waiting (its lifeline closed by the
// kernel) ends the spare, which removes its own cgroup; so does Close.
func TestSpareEndsWithLifeline(t *testing.T) {
	t.Parallel()
	s, err := newSpare(nil)
	require.NoError(t, err)
	dir := ""
	if s.own.cg != nil {
		dir = s.own.cg.Dir()
	}
	s.own.lifeline.Close() // what the kernel does when the agent dies
	err = s.cmd.Wait()
	require.NoError(t, err, "the spare exits cleanly")
	if dir != "" {
		_, err := os.Stat(dir)
		require.ErrorIs(t, err, os.ErrNotExist, "the spare removed the group nobody else would")
	}
	closeAll(s.stdin, s.stdout, s.commands)
	s.own.release()

	l := NewLauncher(nil)
	pid := waitSpare(t, l)
	var cg string
	l.mu.Lock()
	if l.spare.own.cg != nil {
		cg = l.spare.own.cg.Dir()
	}
	l.mu.Unlock()
	l.Close()
	require.False(t, alive(pid))
	if cg != "" {
		_, err := os.Stat(cg)
		require.ErrorIs(t, err, os.ErrNotExist)
	}
	p, err := l.Start(Command{Path: "/bin/true", Dir: t.TempDir()})
	require.NoError(t, err, "a closed Launcher starts afresh")
	require.NoError(t, p.Stop(context.Background()))
	l.mu.Lock()
	require.Nil(t, l.spare, "and keeps no spare")
	l.mu.Unlock()
}

// The agent dying after a server started in a spare: the shim kills the
// whole group, as for any shim.
func TestLauncherLifelineLossKillsGroup(t *testing.T) {
	t.Parallel()
	l := newLauncher(t, nil)
	p := launch(t, l, `trap "" TERM; sleep 1000 & echo $!; exec sleep 1000`)
	child := readPid(t, p)
	members := groupPids(p.Pid())
	require.Len(t, members, 3)
	p.own.lifeline.Close()
	<-p.Done()
	for _, pid := range append(members, child) {
		waitFor(t, 5*time.Second, func() bool { return !alive(pid) })
	}
}

func TestSpawnRoundTrip(t *testing.T) {
	t.Parallel()
	for _, sp := range []spawn{
		{grace: time.Second, dir: "/w", argv: []string{"/bin/gopls"}, env: []string{}},
		{grace: 2 * time.Millisecond, dir: "/a b", argv: []string{"/x", "", "c d"}, env: []string{"A=1", "B="}},
	} {
		b, err := sp.encode()
		require.NoError(t, err)
		got, err := decodeSpawn(b)
		require.NoError(t, err)
		require.Equal(t, sp, got)
	}
	_, err := spawn{argv: []string{"a\x00b"}}.encode()
	require.Error(t, err)
	for _, bad := range []string{"", "1s", "1s\x00/\x00x\x00/bin/a", "1s\x00/\x002\x00/bin/a", "nope\x00/\x001\x00/bin/a"} {
		_, err := decodeSpawn([]byte(bad))
		require.Error(t, err, strconv.Quote(bad))
	}
}
