//go:build linux

package stream

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/e2e/fakelsp/fakelsptest"
	"github.com/kandev/lsp/e2e/fakelsp/script"
	"github.com/kandev/lsp/internal/wire"
)

// fakeNPM stands in for `npm ci` on the task PATH, offline and fast.
// Every run appends a line to $FAKE_NPM_LOG first, so a test can tell
// whether (and how often) an install ran. The mode is read from the file
// $FAKE_NPM_MODE at each run, so a test can change it between connections:
//
//	ok    publish node_modules/.bin/<launcher> -> the fake language server
//	gate  the same, once the file $FAKE_NPM_GATE exists
//	fail  print 2 MB of noise, then npm's diagnosis, and exit 1
//	hang  write a partial node_modules, start a TERM-ignoring child, record
//	      both pids in $FAKE_NPM_PIDS and never finish
//	stall hang after printing one line
//	chatter hang, printing a line every 20 ms
const fakeNPM = `#!/bin/sh
echo "$PWD $*" >> "$FAKE_NPM_LOG"
if grep -q '"pyright"' package.json; then L=pyright-langserver; else L=typescript-language-server; fi
case "$(cat "$FAKE_NPM_MODE")" in
fail)
  head -c 2000000 /dev/zero | tr '\0' 'n'; echo
  echo "npm error code E404"; echo "npm error 404 Not Found - GET https://registry.example/typescript-language-server"
  exit 1;;
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
  [ "$(cat "$FAKE_NPM_MODE")" = chatter ] && while :; do echo "npm http fetch GET 200 https://registry.example/more 3ms"; sleep 0.02; done
  wait; exit 1;;
gate) while [ ! -e "$FAKE_NPM_GATE" ]; do sleep 0.01; done;;
esac
mkdir -p node_modules/.bin
ln -s "$FAKELSP_BIN" node_modules/.bin/$L
echo "added 2 packages"
`

// installFixture is a fake-server fixture with no server installed, an
// install Manager, and the fake npm on the task PATH. The task HOME (and
// so the managed cache) is outside the workspace.
type installFixture struct {
	*fakeFixture
	home, cache          string
	npmLog, pids, gate   string
	modeFile, installDir string // installDir: the published TypeScript install
}

func newInstallFixture(t *testing.T, mode string, mod ...func(*Config)) *installFixture {
	t.Helper()
	dir := t.TempDir()
	k := &installFixture{
		home: filepath.Join(dir, "home"), npmLog: filepath.Join(dir, "npm.log"),
		pids: filepath.Join(dir, "pids"), gate: filepath.Join(dir, "gate"), modeFile: filepath.Join(dir, "mode"),
	}
	k.cache = filepath.Join(k.home, ".kandev", "lsp-servers")
	k.installDir = filepath.Join(k.cache, "typescript-language-server")
	tbin := filepath.Join(dir, "task-bin")
	require.NoError(t, os.MkdirAll(tbin, 0o755))
	require.NoError(t, os.Mkdir(k.home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(tbin, "npm"), []byte(fakeNPM), 0o755))
	k.mode(t, mode)
	setup := func(c *Config) {
		c.Env = taskenv.New(map[string]string{
			"PATH": tbin + ":/usr/bin:/bin", "HOME": k.home,
			"FAKE_NPM_LOG": k.npmLog, "FAKE_NPM_PIDS": k.pids, "FAKE_NPM_GATE": k.gate,
			"FAKE_NPM_MODE": k.modeFile, "FAKELSP_BIN": fakelsptest.Binary(t),
		}).WithPass("FAKE_NPM_LOG", "FAKE_NPM_PIDS", "FAKE_NPM_GATE", "FAKE_NPM_MODE", "FAKELSP_BIN")
		c.Installs = install.New(install.Config{Runner: &install.Runner{KillGrace: 200 * time.Millisecond}, LockPoll: 10 * time.Millisecond})
	}
	k.fakeFixture = newFakeFixture(t, script.Script{}, append([]func(*Config){setup}, mod...)...)
	return k
}

// mode sets what the next fake npm run does.
func (k *installFixture) mode(t *testing.T, mode string) {
	t.Helper()
	require.NoError(t, os.WriteFile(k.modeFile, []byte(mode+"\n"), 0o644))
}

// npmRuns is how many times the fake npm has started.
func (k *installFixture) npmRuns() int {
	b, _ := os.ReadFile(k.npmLog)
	return strings.Count(string(b), "\n")
}

// cacheEntries lists the cache's entries besides the lock directory: the
// published installs and anything left half-made.
func (k *installFixture) cacheEntries(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(k.cache)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.Name() != ".locks" {
			out = append(out, e.Name())
		}
	}
	return out
}

// installerPids waits for the hanging fake npm and its child to record
// their pids, and returns them.
func (k *installFixture) installerPids(t *testing.T) []int {
	t.Helper()
	var pids []int
	waitFor(t, func() bool {
		b, _ := os.ReadFile(k.pids)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		return len(pids) == 2
	})
	return pids
}

// dialLang dials the stream for a language with autoInstall set.
func (k *installFixture) dialLang(t *testing.T, lang string, autoInstall bool) *websocket.Conn {
	t.Helper()
	c, _, err := dial(t, k.fixture, lang+"&"+wire.ParamAutoInstall+"="+strconv.FormatBool(autoInstall), token)
	require.NoError(t, err)
	return c
}

// readStatus reads the next frame, which must be a status frame.
func readStatus(t *testing.T, c *websocket.Conn) wire.Status {
	t.Helper()
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.True(t, wire.IsStatusFrame(b), "want a status frame, got %.200s", b)
	var st wire.Status
	require.NoError(t, json.Unmarshal(b, &st))
	return st
}

// requireStatuses reads status frames and checks their sequence.
func requireStatuses(t *testing.T, c *websocket.Conn, lang string, want ...string) {
	t.Helper()
	for _, w := range want {
		st := readStatus(t, c)
		require.Equal(t, w, st.Status)
		if w != wire.StatusReady {
			require.Equal(t, lang, st.Language)
		}
	}
}

// initialize sends an initialize request and returns its answer.
func initialize(t *testing.T, c *websocket.Conn, id int) map[string]any {
	t.Helper()
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": id, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}})
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	var resp map[string]any
	require.NoError(t, json.Unmarshal(b, &resp), string(b))
	require.EqualValues(t, id, resp["id"], string(b))
	return resp
}
