//go:build linux

package stream

import (
	"os"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// Spec: auto-install through npm into the task's managed cache. The peer
// sees installing, installed, ready in that order, then the installed
// server answers initialize through the bridge; a later connection finds
// the launcher in the cache and starts it without installing again.
func TestAutoInstallThenBridge(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "ok")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady)
	resp := initialize(t, c, 1)
	require.Contains(t, resp, "result")
	require.Equal(t, []string{"typescript-language-server"}, k.cacheEntries(t), "published, nothing half-made beside it")
	require.Equal(t, 1, k.npmRuns())
	require.Contains(t, readOrEmpty(k.npmLog), k.cache+"/.staging-typescript-language-server-", "npm ran in a staging directory of the task HOME's cache")

	again := k.dialLang(t, "typescript", true)
	requireStatuses(t, again, "", wire.StatusReady)
	require.Contains(t, initialize(t, again, 1), "result")
	require.Equal(t, 1, k.npmRuns(), "the cache is found on later starts")
}

// Spec: the one pending read during an install becomes the bridge's first
// inbound frame. initialize sent right after "installing", while npm is
// still running, reaches the server first and is answered.
func TestFrameDuringInstallIsFirstBridged(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "gate")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	waitFor(t, func() bool { return k.npmRuns() == 1 })
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": map[string]any{}})
	require.NoError(t, os.WriteFile(k.gate, nil, 0o644))
	requireStatuses(t, c, "typescript", wire.StatusInstalled, wire.StatusReady)
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.Contains(t, string(b), `"id":7`)
	waitFor(t, func() bool { return len(k.records(t)) >= 3 })
	require.Equal(t, []string{"request:initialize", "notification:initialized"}, k.messages(t)[:2])
}

// Spec: installer failure. install_failed carries the installer's own
// diagnosis (the tail of a bounded capture: 2 MB of output arrive as at
// most install.TailSize), then 4003 with no reason; nothing is published.
func TestInstallFailureDetailThen4003(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "fail")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	st := readStatus(t, c)
	require.Equal(t, wire.StatusInstallFailed, st.Status)
	require.Equal(t, "typescript", st.Language)
	require.Contains(t, st.Error, "npm error code E404")
	require.Contains(t, st.Error, "404 Not Found - GET https://registry.example/typescript-language-server")
	require.Less(t, len(st.Error), install.TailSize+1024, "the tail, not 2 MB")
	requireClose(t, c, int(wire.CloseInstallFailed))
	require.Empty(t, k.cacheEntries(t), "no staging directory, no destination")
}

// Spec: unread install status. When "installing" cannot be delivered
// within the write timeout (here one nanosecond, so the write always
// misses it), the stream closes and the installer never starts.
func TestUndeliveredInstallingStartsNothing(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "ok", func(c *Config) { c.WriteTimeout = time.Nanosecond })
	c := k.dialLang(t, "typescript", true)
	_, _, err := c.Read(testCtx(t))
	require.Error(t, err)
	require.Equal(t, websocket.StatusCode(-1), websocket.CloseStatus(err), "dropped, no close frame")
	// The handler has returned once Shutdown does; only then is "never"
	// observable.
	require.NoError(t, k.h.Shutdown(testCtx(t)))
	require.Zero(t, k.npmRuns(), "npm never ran")
	_, err = os.Stat(k.cache)
	require.ErrorIs(t, err, os.ErrNotExist, "no install work was acquired")
}

// Spec: browser disconnect during auto-install. Dropping the socket
// cancels that connection's install: npm and its TERM-ignoring child are
// gone, the partial node_modules is removed, and the lock is released, so
// the next connection installs at once. The same holds for a peer that
// sent a message (initialize, kept for the bridge) while npm ran and then
// left: the install still notices.
func TestDisconnectCancelsInstall(t *testing.T) {
	t.Parallel()
	early := func(c *websocket.Conn) {
		sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	}
	for name, leave := range map[string]func(*websocket.Conn){
		"drop":  func(c *websocket.Conn) { c.CloseNow() },
		"close": func(c *websocket.Conn) { _ = c.Close(websocket.StatusNormalClosure, "") },
		"frame then drop": func(c *websocket.Conn) {
			early(c)
			c.CloseNow()
		},
		"frames then close": func(c *websocket.Conn) {
			early(c)
			early(c)
			_ = c.Close(websocket.StatusNormalClosure, "")
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k := newInstallFixture(t, "hang")
			c := k.dialLang(t, "typescript", true)
			requireStatuses(t, c, "typescript", wire.StatusInstalling)
			pids := k.installerPids(t)
			leave(c)
			waitFor(t, func() bool { return !alive(pids[0]) && !alive(pids[1]) })
			waitFor(t, func() bool { return len(k.cacheEntries(t)) == 0 })

			k.mode(t, "ok")
			again := k.dialLang(t, "typescript", true)
			requireStatuses(t, again, "typescript", wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady)
			require.Equal(t, 2, k.npmRuns())
		})
	}
}

// Spec: instance teardown during auto-install. Shutdown cancels the
// install and waits for it: the stream closes 1001 with no prose, the
// installer tree is gone and nothing was published by the time Shutdown
// returns.
func TestShutdownDuringInstall(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "hang")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	pids := k.installerPids(t)
	done := make(chan error, 1)
	go func() { done <- k.h.Shutdown(testCtx(t)) }()
	requireClose(t, c, int(wire.CloseGoingAway))
	require.NoError(t, <-done)
	require.False(t, alive(pids[0]) || alive(pids[1]), "tree reaped before Shutdown returns")
	require.Empty(t, k.cacheEntries(t), "nothing published, no partial files")
}

// Spec: installs of one destination are serialised. Two connections ask
// for the same missing server at once: npm runs once, both get ready.
func TestRacingConnectionsInstallOnce(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "gate")
	a := k.dialLang(t, "typescript", true)
	b := k.dialLang(t, "typescript", true)
	requireStatuses(t, a, "typescript", wire.StatusInstalling)
	requireStatuses(t, b, "typescript", wire.StatusInstalling)
	waitFor(t, func() bool { return k.npmRuns() == 1 })
	require.NoError(t, os.WriteFile(k.gate, nil, 0o644))
	for _, c := range []*websocket.Conn{a, b} {
		requireStatuses(t, c, "typescript", wire.StatusInstalled, wire.StatusReady)
		require.Contains(t, initialize(t, c, 1), "result")
	}
	require.Equal(t, 1, k.npmRuns())
}

// Spec: close codes for a missing server with installers present. Kotlin
// is never installed (4007, even when asked); a request without
// autoInstall closes 4001 and runs nothing; an injected Windows host has
// no rust-analyzer installer (4007).
func TestMissingServerWithInstallers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		goos, lang string
		auto       bool
		code       wire.CloseCode
	}{
		{"linux", "kotlin", true, wire.CloseNoInstaller},
		{"linux", "typescript", false, wire.CloseBinaryMissing},
		{"linux", "rust", false, wire.CloseBinaryMissing},
		{"windows", "rust", true, wire.CloseNoInstaller},
		{"windows", "rust", false, wire.CloseNoInstaller},
		{"windows", "kotlin", true, wire.CloseNoInstaller},
	} {
		k := newInstallFixture(t, "ok", func(cfg *Config) { cfg.Env.GOOS = c.goos })
		conn := k.dialLang(t, c.lang, c.auto)
		requireClose(t, conn, int(c.code))
		require.Zero(t, k.npmRuns(), "%s/%s", c.goos, c.lang)
	}
}

// A task without an absolute HOME has nowhere to install to: the request
// fails as an install (install_failed saying why, then 4003).
func TestNoHomeIsInstallFailure(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "ok", func(c *Config) { c.Env = withVar(c.Env, "HOME", "relative") })
	c := k.dialLang(t, "typescript", true)
	st := readStatus(t, c)
	require.Equal(t, wire.StatusInstallFailed, st.Status)
	require.Contains(t, st.Error, "HOME")
	requireClose(t, c, int(wire.CloseInstallFailed))
	require.Zero(t, k.npmRuns())
}

func readOrEmpty(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// withVar returns env with one variable set.
func withVar(env *taskenv.Env, name, value string) *taskenv.Env {
	vars := taskenv.Parse(env.List())
	vars[name] = value
	out := taskenv.New(vars)
	out.GOOS, out.GOARCH = env.GOOS, env.GOARCH
	return out
}

// Every message sent while the server installs is kept and reaches the
// server in order, the first one first, once the bridge starts.
func TestFramesDuringInstallKeepOrder(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "gate")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	waitFor(t, func() bool { return k.npmRuns() == 1 })
	sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": map[string]any{}})
	for i := range 3 {
		sendJSON(t, c, map[string]any{"jsonrpc": "2.0", "method": "$/early", "params": map[string]any{"n": i}})
	}
	require.NoError(t, os.WriteFile(k.gate, nil, 0o644))
	requireStatuses(t, c, "typescript", wire.StatusInstalled, wire.StatusReady)
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.Contains(t, string(b), `"id":7`)
	waitFor(t, func() bool { return len(k.records(t)) >= 5 })
	require.Equal(t, []string{"request:initialize", "notification:$/early", "notification:$/early", "notification:$/early"}, k.messages(t)[:4])
}

// What a peer may leave waiting during an install is bounded: past
// maxBacklogMessages the stream closes with 1009 (empty reason) and the
// install is cancelled, its tree reaped.
func TestBacklogDuringInstallIsBounded(t *testing.T) {
	t.Parallel()
	k := newInstallFixture(t, "hang")
	c := k.dialLang(t, "typescript", true)
	requireStatuses(t, c, "typescript", wire.StatusInstalling)
	pids := k.installerPids(t)
	for range maxBacklogMessages + 1 {
		if c.Write(testCtx(t), websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"$/x"}`)) != nil {
			break // the agent may close before the last one is sent
		}
	}
	requireClose(t, c, int(websocket.StatusMessageTooBig))
	waitFor(t, func() bool { return !alive(pids[0]) && !alive(pids[1]) })
	waitFor(t, func() bool { return len(k.cacheEntries(t)) == 0 })
}

// Install deadlines: npm that goes silent (stall) or never finishes
// (overall limit) ends as a failed install — install_failed carrying why
// and npm's output so far, then 4003 — with its tree reaped, nothing
// left in the cache and the lock released, so the next connection
// installs at once.
func TestInstallDeadlinesFail4003(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		mode string
		cfg  install.Config
		why  string
	}{
		"stall":   {"stall", install.Config{StallTimeout: 300 * time.Millisecond}, "install stalled: no output for 300ms"},
		"overall": {"chatter", install.Config{InstallTimeout: 500 * time.Millisecond}, "install timed out: not finished after 500ms"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k := newInstallFixture(t, c.mode, func(cfg *Config) {
				c.cfg.Runner, c.cfg.LockPoll = &install.Runner{KillGrace: 200 * time.Millisecond}, 10*time.Millisecond
				cfg.Installs = install.New(c.cfg)
			})
			conn := k.dialLang(t, "typescript", true)
			requireStatuses(t, conn, "typescript", wire.StatusInstalling)
			pids := k.installerPids(t)
			st := readStatus(t, conn)
			require.Equal(t, wire.StatusInstallFailed, st.Status)
			require.Contains(t, st.Error, c.why)
			require.Contains(t, st.Error, "npm http fetch GET 200 https://registry.example/typescript", "npm's own output")
			requireClose(t, conn, int(wire.CloseInstallFailed))
			require.False(t, alive(pids[0]) || alive(pids[1]), "the tree is reaped before the failure is reported")
			require.Empty(t, k.cacheEntries(t))

			k.mode(t, "ok")
			again := k.dialLang(t, "typescript", true)
			requireStatuses(t, again, "typescript", wire.StatusInstalling, wire.StatusInstalled, wire.StatusReady)
		})
	}
}
