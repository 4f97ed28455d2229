//go:build linux

package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/install/lock"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// fakeNPM behaves like `npm ci` as far as the installer can tell,
// offline and fast. FAKE_NPM_MODE picks: ok, fail, hang (writes partial
// files, starts a TERM-ignoring child, never ends), stall (hang after one
// line of output), chatter (hang, printing a line every 20 ms), gate (ok
// once the file FAKE_NPM_GATE exists), nolauncher (succeeds without the
// launcher).
const fakeNPM = `
echo "$PWD $*" >> "$FAKE_NPM_LOG"
[ -f package.json ] && [ -f package-lock.json ] || { echo "no package.json and package-lock.json in $PWD"; exit 9; }
if grep -q '"pyright"' package.json; then L=pyright-langserver; else L=typescript-language-server; fi
case "$FAKE_NPM_MODE" in
fail) echo "npm error code E404"; echo "npm error 404 Not Found - GET https://registry.example/x"; exit 1;;
hang)
  mkdir -p node_modules/.bin; echo partial > node_modules/partial
  sh -c 'trap "" TERM HUP; echo $$ >> "$FAKE_NPM_PIDS"; exec sleep 60' &
  echo $$ >> "$FAKE_NPM_PIDS"
  wait; exit 1;;
stall|chatter)
  mkdir -p node_modules/.bin; echo partial > node_modules/partial
  sh -c 'trap "" TERM HUP; echo $$ >> "$FAKE_NPM_PIDS"; exec sleep 60' &
  echo $$ >> "$FAKE_NPM_PIDS"
  echo "npm http fetch GET 200 https://registry.example/typescript 12ms"
  [ "$FAKE_NPM_MODE" = chatter ] && while :; do echo "npm http fetch GET 200 https://registry.example/more 3ms"; sleep 0.02; done
  wait; exit 1;;
gate) while [ ! -e "$FAKE_NPM_GATE" ]; do sleep 0.01; done;;
nolauncher) exit 0;;
esac
mkdir -p node_modules/.bin
printf '#!/bin/sh\necho %s\n' "$L" > node_modules/.bin/$L
chmod +x node_modules/.bin/$L
echo "added 1 package"
`

// npmTask is a task environment whose PATH holds only the fake npm and the
// basic tools, and whose HOME is a fresh directory.
type npmTask struct {
	env             *taskenv.Env
	home, log, pids string
	gate            string
	root            string
}

func newNPMTask(t *testing.T, mode string) *npmTask {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "task-bin")
	writeScript(t, bin, "npm", fakeNPM)
	k := &npmTask{
		home: filepath.Join(dir, "home"), log: filepath.Join(dir, "npm.log"),
		pids: filepath.Join(dir, "pids"), gate: filepath.Join(dir, "gate"),
	}
	require.NoError(t, os.Mkdir(k.home, 0o755))
	k.env = taskenv.New(map[string]string{
		"PATH": bin + ":" + shPath, "HOME": k.home, "FAKE_NPM_MODE": mode,
		"FAKE_NPM_LOG": k.log, "FAKE_NPM_PIDS": k.pids, "FAKE_NPM_GATE": k.gate,
	}).WithPass("FAKE_NPM_MODE", "FAKE_NPM_LOG", "FAKE_NPM_PIDS", "FAKE_NPM_GATE")
	k.root = filepath.Join(k.home, ".kandev", "lsp-servers")
	return k
}

func (k *npmTask) npmCalls() []string {
	s := strings.TrimSpace(readOr(k.log))
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// leftovers lists what is in the cache besides lock files and published
// destinations.
func leftovers(t *testing.T, root string, published ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.Name() == ".locks" || contains(published, e.Name()) {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func testRunner() *Runner { return &Runner{KillGrace: 200 * time.Millisecond} }

func TestNPMInstall(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "ok")
	m := New(Config{Runner: testRunner()})
	for _, c := range []struct {
		lang     wire.Language
		dir, bin string
	}{
		{wire.TypeScript, "typescript-language-server", "typescript-language-server"},
		{wire.Python, "pyright", "pyright-langserver"},
	} {
		job, err := m.Prepare(k.env, def(c.lang))
		require.NoError(t, err)
		res, err := job.Run(context.Background())
		require.NoError(t, err)
		want := filepath.Join(k.root, c.dir, "node_modules", ".bin", c.bin)
		require.Equal(t, Result{Path: want}, res, "the concrete launcher right after install")

		got, err := ManagedLauncher(k.env, def(c.lang))
		require.NoError(t, err)
		require.Equal(t, want, got, "and on later starts")

		lock := def(c.lang).Install.Lock
		for name, want := range map[string][]byte{"package.json": lock.PackageJSON, "package-lock.json": lock.PackageLock} {
			b, err := os.ReadFile(filepath.Join(k.root, c.dir, name))
			require.NoError(t, err)
			require.Equal(t, string(want), string(b), "npm ci ran on the embedded %s", name)
		}

		calls := k.npmCalls()
		last := calls[len(calls)-1]
		cwd, args, _ := strings.Cut(last, " ")
		require.Equal(t, k.root, filepath.Dir(cwd), "npm runs in a staging dir inside the cache")
		require.True(t, strings.HasPrefix(filepath.Base(cwd), ".staging-"+c.dir+"-"), cwd)
		require.Equal(t, "ci --ignore-scripts --no-audit --no-fund --update-notifier=false --no-progress --color=false --loglevel=http", args)
		require.NotContains(t, args, "--prefix", "--prefix would replace the machine's global npmrc")
	}
	require.Empty(t, leftovers(t, k.root, "typescript-language-server", "pyright"))

	// Installed: a later Run reuses it without running npm.
	job, err := m.Prepare(k.env, def(wire.Python))
	require.NoError(t, err)
	res, err := job.Run(context.Background())
	require.NoError(t, err)
	require.True(t, res.Reused)
	require.Len(t, k.npmCalls(), 2)
}

// Spec: Installer failure — the installer's own output reaches the user.
func TestNPMFailureKeepsOutputAndNothingElse(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "fail")
	job, err := New(Config{Runner: testRunner()}).Prepare(k.env, def(wire.Python))
	require.NoError(t, err)
	_, err = job.Run(context.Background())
	var ie *Error
	require.ErrorAs(t, err, &ie)
	require.Contains(t, ie.Output, "npm error 404 Not Found")
	require.Contains(t, Detail(err), "install pyright: ")
	require.Contains(t, Detail(err), "npm error code E404")
	require.Empty(t, leftovers(t, k.root))
	_, err = ManagedLauncher(k.env, def(wire.Python))
	require.ErrorIs(t, err, ErrNotInstalled)
}

func TestNPMWithoutLauncherFails(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "nolauncher")
	job, err := New(Config{Runner: testRunner()}).Prepare(k.env, def(wire.TypeScript))
	require.NoError(t, err)
	_, err = job.Run(context.Background())
	require.ErrorContains(t, err, "did not create typescript-language-server")
	require.Empty(t, leftovers(t, k.root))
}

// Spec: Task-only toolchain — npm comes from the task PATH; without it the
// install fails with the prerequisite named, and nothing is created.
func TestNPMMissingFromTaskPath(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := taskenv.New(map[string]string{"PATH": shPath + ":" + t.TempDir(), "HOME": home})
	if _, err := env.LookPath("npm"); err == nil {
		env = taskenv.New(map[string]string{"PATH": t.TempDir(), "HOME": home})
	}
	job, err := New(Config{Runner: testRunner()}).Prepare(env, def(wire.TypeScript))
	require.NoError(t, err)
	_, err = job.Run(context.Background())
	require.ErrorContains(t, err, "npm is required")
	require.ErrorIs(t, err, taskenv.ErrNotFound)
}

// A directory already at the destination without a launcher (a broken
// earlier install) is replaced as a whole.
func TestNPMReplacesBrokenDestination(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "ok")
	broken := filepath.Join(k.root, "pyright", "node_modules")
	require.NoError(t, os.MkdirAll(broken, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "junk"), nil, 0o644))
	// And a staging dir a killed agent left behind.
	require.NoError(t, os.MkdirAll(filepath.Join(k.root, ".staging-pyright-123"), 0o755))

	job, err := New(Config{Runner: testRunner()}).Prepare(k.env, def(wire.Python))
	require.NoError(t, err)
	_, err = job.Run(context.Background())
	require.NoError(t, err)
	require.NoFileExists(t, filepath.Join(broken, "junk"))
	require.Empty(t, leftovers(t, k.root, "pyright"))
}

// Spec: Browser disconnect during auto-install, and Instance teardown
// during auto-install — npm's tree is killed, the staging dir removed, the
// locks released, nothing published.
func TestNPMCancelMidInstall(t *testing.T) {
	t.Parallel()
	for _, teardown := range []bool{false, true} {
		k := newNPMTask(t, "hang")
		m := New(Config{Runner: testRunner()})
		job, err := m.Prepare(k.env, def(wire.TypeScript))
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		errc := make(chan error, 1)
		go func() { _, err := job.Run(ctx); errc <- err }()
		require.Eventually(t, func() bool { return strings.Count(readOr(k.pids), "\n") == 2 }, 10*time.Second, 5*time.Millisecond)
		staging := strings.Fields(k.npmCalls()[0])[0]
		require.FileExists(t, filepath.Join(staging, "node_modules", "partial"))

		if teardown {
			require.NoError(t, m.Close(context.Background()), "Close drains the install")
		} else {
			cancel()
		}
		err = <-errc
		require.ErrorIs(t, err, context.Canceled)
		if teardown {
			require.ErrorIs(t, err, ErrClosed)
		}
		requireGone(t, readOr(k.pids))
		require.NoDirExists(t, staging)
		require.Empty(t, leftovers(t, k.root))
		_, err = ManagedLauncher(k.env, def(wire.TypeScript))
		require.ErrorIs(t, err, ErrNotInstalled)
		require.Zero(t, m.keyed.Len())
		l, err := lock.Acquire(context.Background(), filepath.Join(k.root, ".locks", "typescript-language-server.lock"), time.Millisecond)
		require.NoError(t, err, "the lock file is free again")
		require.NoError(t, l.Release())
	}
}

// Two connections racing for the same install: the second waits, then
// finds the first one's result; npm runs once. Run across two Managers too,
// which is what two agent processes sharing a home look like.
func TestNPMRaceInstallsOnce(t *testing.T) {
	t.Parallel()
	for _, sameAgent := range []bool{true, false} {
		k := newNPMTask(t, "gate")
		a := New(Config{Runner: testRunner(), LockPoll: 5 * time.Millisecond})
		b := a
		if !sameAgent {
			b = New(Config{Runner: testRunner(), LockPoll: 5 * time.Millisecond})
		}
		jobA, err := a.Prepare(k.env, def(wire.Python))
		require.NoError(t, err)
		jobB, err := b.Prepare(k.env, def(wire.Python))
		require.NoError(t, err)

		var wg sync.WaitGroup
		results := make([]Result, 2)
		errs := make([]error, 2)
		wg.Add(1)
		go func() { defer wg.Done(); results[0], errs[0] = jobA.Run(context.Background()) }()
		require.Eventually(t, func() bool { return len(k.npmCalls()) == 1 }, 10*time.Second, 5*time.Millisecond)
		wg.Add(1)
		go func() { defer wg.Done(); results[1], errs[1] = jobB.Run(context.Background()) }()
		if sameAgent {
			lockPath := filepath.Join(k.root, ".locks", "pyright.lock")
			require.Eventually(t, func() bool { return a.keyed.Refs(lockPath) == 2 }, 10*time.Second, time.Millisecond, "the second connection queues")
		}
		require.NoError(t, os.WriteFile(k.gate, nil, 0o644))
		wg.Wait()
		require.NoError(t, errs[0])
		require.NoError(t, errs[1])
		require.False(t, results[0].Reused)
		require.True(t, results[1].Reused, "the second waited and found the result")
		require.Equal(t, results[0].Path, results[1].Path)
		require.Len(t, k.npmCalls(), 1, "npm ran once")
	}
}

// A waiter that gives up (its browser left) stops waiting at once and does
// not disturb the running install.
func TestWaiterCancelLeavesHolder(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "gate")
	m := New(Config{Runner: testRunner()})
	job, err := m.Prepare(k.env, def(wire.Python))
	require.NoError(t, err)
	first := make(chan error, 1)
	go func() { _, err := job.Run(context.Background()); first <- err }()
	require.Eventually(t, func() bool { return len(k.npmCalls()) == 1 }, 10*time.Second, 5*time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	second := make(chan error, 1)
	go func() { _, err := job.Run(ctx); second <- err }()
	lockPath := filepath.Join(k.root, ".locks", "pyright.lock")
	require.Eventually(t, func() bool { return m.keyed.Refs(lockPath) == 2 }, 10*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-second, context.Canceled)

	require.NoError(t, os.WriteFile(k.gate, nil, 0o644))
	require.NoError(t, <-first)
}

func TestRunAfterClose(t *testing.T) {
	t.Parallel()
	k := newNPMTask(t, "ok")
	m := New(Config{Runner: testRunner()})
	job, err := m.Prepare(k.env, def(wire.Python))
	require.NoError(t, err)
	require.NoError(t, m.Close(context.Background()))
	_, err = job.Run(context.Background())
	require.ErrorIs(t, err, ErrClosed)
	require.Empty(t, k.npmCalls(), "nothing starts after task stop")
}

// Install deadlines: npm that goes silent (stall) or keeps printing but
// never finishes (overall limit) fails the install — an *Error with npm's
// output so far, not a cancellation — after its tree is killed, its
// staging directory removed and both locks released.
func TestNPMDeadlines(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		mode string
		cfg  Config
		want error
		text string
	}{
		"stall":   {"stall", Config{StallTimeout: 300 * time.Millisecond}, ErrStalled, "npm: install stalled: no output for 300ms"},
		"overall": {"chatter", Config{StallTimeout: time.Minute, InstallTimeout: 500 * time.Millisecond}, ErrTimeout, "install timed out: not finished after 500ms"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k := newNPMTask(t, c.mode)
			c.cfg.Runner = testRunner()
			m := New(c.cfg)
			job, err := m.Prepare(k.env, def(wire.TypeScript))
			require.NoError(t, err)
			_, err = job.Run(context.Background())
			require.ErrorIs(t, err, c.want)
			require.NotErrorIs(t, err, context.Canceled)
			var ie *Error
			require.ErrorAs(t, err, &ie)
			require.Contains(t, Detail(err), c.text)
			require.Contains(t, Detail(err), "npm http fetch GET 200 https://registry.example/typescript", "npm's output so far")
			requireGone(t, readOr(k.pids))
			require.Empty(t, leftovers(t, k.root))
			require.Zero(t, m.keyed.Len())
			l, err := lock.Acquire(context.Background(), filepath.Join(k.root, ".locks", "typescript-language-server.lock"), time.Millisecond)
			require.NoError(t, err, "the lock file is free again")
			require.NoError(t, l.Release())
		})
	}
}
