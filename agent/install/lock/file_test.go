//go:build unix

package lock

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMain doubles as a lock holder in another process: with
// KANDEV_LOCK_HOLD set it takes that lock, says so, and holds it until its
// stdin closes.
func TestMain(m *testing.M) {
	if p := os.Getenv("KANDEV_LOCK_HOLD"); p != "" {
		l, err := Acquire(context.Background(), p, time.Millisecond)
		if err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("locked\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		_ = l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestFileExcludesOtherProcess(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "locks", "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "KANDEV_LOCK_HOLD="+p)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	// Held elsewhere: a bounded attempt gives up with the context's error.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = Acquire(ctx, p, 5*time.Millisecond)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	// Released by the other process: a waiter gets it.
	got := make(chan error, 1)
	go func() {
		l, err := Acquire(context.Background(), p, 5*time.Millisecond)
		if err == nil {
			err = l.Release()
		}
		got <- err
	}()
	stdin.Close()
	require.NoError(t, <-got)
	require.NoError(t, cmd.Wait())
}

// A holder that dies without releasing does not leave a stale lock.
func TestFileReleasedWhenHolderDies(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "KANDEV_LOCK_HOLD="+p)
	_, err := cmd.StdinPipe() // kept open: the holder never releases
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	_, err = bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := Acquire(ctx, p, 5*time.Millisecond)
	require.NoError(t, err)
	require.NoError(t, l.Release())
}

func TestFileTwoOpensInOneProcessExclude(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "x.lock")
	a, err := Acquire(context.Background(), p, 0)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = Acquire(ctx, p, 5*time.Millisecond)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, a.Release())
	b, err := Acquire(context.Background(), p, 0)
	require.NoError(t, err)
	require.NoError(t, b.Release())
}
