//go:build linux

package install

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRunCapturesOutputAndEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := NewOutput(MaxOutput)
	err := (&Runner{}).Run(context.Background(), Command{
		Path: "/bin/sh",
		Args: []string{"-c", `echo "out $KANDEV_X $(pwd)"; echo err >&2; [ -t 1 ] && echo tty; env | grep -c . `},
		Dir:  dir,
		Env:  []string{"KANDEV_X=task", "PATH=" + shPath},
	}, out)
	require.NoError(t, err)
	got := out.Tail(TailSize)
	require.Contains(t, got, "out task "+dir)
	require.Contains(t, got, "err\n", "stderr is captured with stdout")
	require.Contains(t, got, "tty\n", "the installer runs on a terminal")
	// Only the given variables (and PWD, which sh sets): nothing from the
	// agent's environment.
	require.Regexp(t, `\n[2-4]\n$`, got)
}

func TestRunExitError(t *testing.T) {
	t.Parallel()
	out := NewOutput(MaxOutput)
	err := (&Runner{}).Run(context.Background(), Command{Path: "/bin/sh", Args: []string{"-c", "echo boom; exit 3"}}, out)
	var ee *ExitError
	require.ErrorAs(t, err, &ee)
	var xe *exec.ExitError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, 3, xe.ExitCode())
	require.Equal(t, "boom\n", out.Tail(TailSize))
}

func TestRunStartError(t *testing.T) {
	t.Parallel()
	err := (&Runner{}).Run(context.Background(), Command{Path: filepath.Join(t.TempDir(), "missing")}, NewOutput(10))
	require.Error(t, err)
	require.NotErrorAs(t, err, new(*ExitError))
}

// stubbornTree is a leader that starts a TERM- and HUP-ignoring child in its
// own process group (so only the session reaches it), records both pids and
// waits.
const stubbornTree = `
set -m
sh -c 'trap "" TERM HUP; echo $$ >> "$PIDS"; while :; do sleep 1; done' &
echo $$ >> "$PIDS"
echo started
wait
`

func TestRunCancelKillsWholeTree(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	out := NewOutput(MaxOutput)
	go func() {
		errc <- (&Runner{KillGrace: 200 * time.Millisecond}).Run(ctx, Command{
			Path: "/bin/sh", Args: []string{"-c", stubbornTree}, Env: []string{"PIDS=" + pids, "PATH=" + shPath},
		}, out)
	}()
	require.Eventually(t, func() bool { return strings.Count(readOr(pids), "\n") == 2 }, 10*time.Second, 5*time.Millisecond)
	start := time.Now()
	cancel()
	err := <-errc
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 5*time.Second)
	requireGone(t, readOr(pids))
}

// A helper the installer leaves running after it exits successfully is
// killed too: a finished install leaves no process behind.
func TestRunReapsLeftoverDescendants(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	err := (&Runner{KillGrace: 200 * time.Millisecond}).Run(context.Background(), Command{
		Path: "/bin/sh",
		Args: []string{"-c", `sh -c 'trap "" TERM HUP; echo $$ >> "$PIDS"; exec sleep 60' </dev/null >/dev/null 2>&1 & while [ ! -s "$PIDS" ]; do :; done; echo done`},
		Env:  []string{"PIDS=" + pids, "PATH=" + shPath},
	}, NewOutput(MaxOutput))
	require.NoError(t, err)
	requireGone(t, readOr(pids))
}

func TestRunCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := (&Runner{}).Run(ctx, Command{Path: "/bin/true"}, NewOutput(10))
	require.True(t, errors.Is(err, context.Canceled))
}

// Install deadlines, stall: a command that goes silent is ended like a
// cancelled one (its whole tree, the TERM-ignoring child included), and
// Run says it stalled; what it printed before is kept.
func TestRunStallKillsWholeTree(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	out := NewOutput(MaxOutput)
	start := time.Now()
	err := (&Runner{KillGrace: 200 * time.Millisecond, StallTimeout: 300 * time.Millisecond}).Run(context.Background(), Command{
		Path: "/bin/sh", Args: []string{"-c", stubbornTree}, Env: []string{"PIDS=" + pids, "PATH=" + shPath},
	}, out)
	require.ErrorIs(t, err, ErrStalled)
	require.ErrorContains(t, err, "sh: install stalled: no output for 300ms")
	require.NotErrorIs(t, err, context.Canceled, "a failure, not a cancellation")
	require.Less(t, time.Since(start), 5*time.Second)
	require.Contains(t, out.Tail(TailSize), "started")
	requireGone(t, readOr(pids))
}

// Output resets the stall timer: a command that keeps printing runs to
// its end however long that takes. It prints every 0.1 s for 3 s against
// a 1 s stall timeout: three timeouts in all, each with ten times the gap
// between lines to spare (300 ms was too little on a loaded machine,
// where starting sleep and echo can take that long).
func TestRunOutputKeepsStallAway(t *testing.T) {
	t.Parallel()
	out := NewOutput(MaxOutput)
	err := (&Runner{StallTimeout: time.Second}).Run(context.Background(), Command{
		Path: "/bin/sh", Args: []string{"-c", "i=0; while [ $i -lt 30 ]; do i=$((i+1)); echo $i; sleep 0.1; done"},
		Env: []string{"PATH=" + shPath},
	}, out)
	require.NoError(t, err)
	require.Contains(t, out.Tail(TailSize), "30\n")
}
