//go:build linux

package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

const token = "secret-token"

type fixture struct {
	h   *Handler
	srv *httptest.Server
	ws  string // workspace directory
	bin string // the task PATH's own directory
}

// newFixture serves a Handler whose task PATH holds one directory with an
// executable named gopls running script (no gopls at all when script is
// ""). `exec cat` is the honest echo server: it returns every
// Content-Length frame byte for byte.
func newFixture(t testing.TB, script string, mod ...func(*Config)) *fixture {
	t.Helper()
	ws, bin := t.TempDir(), t.TempDir()
	if script != "" {
		body := script
		if !strings.HasPrefix(script, "#!") {
			body = "#!/bin/sh\n" + script + "\n"
		}
		require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte(body), 0o755))
	}
	root, err := workspace.Open(ws)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	cfg := Config{
		Workspace: root, Token: token,
		Env:       taskenv.New(map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": ws}),
		StopGrace: 200 * time.Millisecond, KillGrace: 200 * time.Millisecond,
		// No holds unless a test asks for them (resume_test.go): the
		// other tests read a lost socket as the end of its server.
		ResumeGrace: -1,
	}
	for _, m := range mod {
		m(&cfg)
	}
	f := &fixture{h: New(cfg), ws: ws, bin: bin}
	f.srv = httptest.NewServer(f.h)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = f.h.Shutdown(ctx)
		f.srv.Close()
	})
	return f
}

func (f *fixture) url(lang string) string {
	return "ws" + strings.TrimPrefix(f.srv.URL, "http") + wire.AgentStreamPath + "?" + wire.ParamLanguage + "=" + lang
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func dial(t testing.TB, f *fixture, lang, tok string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if tok != "" {
		h.Set("Authorization", "Bearer "+tok)
	}
	c, resp, err := websocket.Dial(testCtx(t), f.url(lang), &websocket.DialOptions{HTTPHeader: h})
	if c != nil {
		c.SetReadLimit(wire.MaxMessageSize + 1)
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// readReady dials and returns the connection after its ready frame.
func readReady(t testing.TB, f *fixture) (*websocket.Conn, wire.Status) {
	t.Helper()
	c, _, err := dial(t, f, "go", token)
	require.NoError(t, err)
	typ, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.Equal(t, websocket.MessageText, typ)
	var st wire.Status
	require.NoError(t, json.Unmarshal(b, &st))
	require.Equal(t, wire.StatusReady, st.Status)
	return c, st
}

// closeStatus reads until the connection closes and returns the close error.
func closeStatus(t testing.TB, c *websocket.Conn) websocket.CloseError {
	t.Helper()
	for {
		_, _, err := c.Read(testCtx(t))
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		require.True(t, errors.As(err, &ce), "want a close frame, got %v", err)
		return ce
	}
}

func requireClose(t testing.TB, c *websocket.Conn, code int) {
	t.Helper()
	ce := closeStatus(t, c)
	require.Equal(t, websocket.StatusCode(code), ce.Code)
	require.Empty(t, ce.Reason, "no transport prose reaches the peer")
}

// pidFrom waits for the server to write a pid file in the workspace.
func pidFrom(t testing.TB, f *fixture, name string) int {
	t.Helper()
	var pid int
	waitFor(t, func() bool {
		b, err := os.ReadFile(filepath.Join(f.ws, name))
		if err != nil || !bytes.HasSuffix(b, []byte("\n")) {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return pid
}

// alive reports whether pid runs; a zombie counts as gone.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && len(stat) > i+2 && stat[i+2] != 'Z'
}

// waitFor polls cond until it holds or the test deadline passes.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	ctx := testCtx(t)
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal("condition not met before deadline")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestReadyFrame(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "exec cat")
	require.NoError(t, os.Mkdir(filepath.Join(f.ws, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(f.ws, "svc", ".git"), 0o755))
	_, st := readReady(t, f)
	require.Equal(t, f.ws, st.WorkspacePath)
	require.Equal(t, wire.FileURI(f.ws), st.WorkspaceURI)
	require.Equal(t, []string{".", "svc"}, st.RepoSubpaths)
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "exec cat")
	c, _ := readReady(t, f)
	ctx := testCtx(t)
	for _, size := range []int{0, 200, 70 << 10, 1 << 20} {
		msg := bytes.Repeat([]byte("x"), size)
		copy(msg, `{"jsonrpc":"2.0"}`)
		for range 3 {
			require.NoError(t, c.Write(ctx, websocket.MessageText, msg))
		}
		for range 3 {
			typ, got, err := c.Read(ctx)
			require.NoError(t, err)
			require.Equal(t, websocket.MessageText, typ)
			require.Equal(t, len(msg), len(got))
			require.True(t, bytes.Equal(msg, got), "size %d echoed unchanged", size)
		}
	}
}

func TestUnauthorized(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "touch started; exec cat")
	for _, tok := range []string{"", "wrong", token + "x"} {
		_, resp, err := dial(t, f, "go", tok)
		require.Error(t, err)
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	_, err := os.Stat(filepath.Join(f.ws, "started"))
	require.ErrorIs(t, err, os.ErrNotExist, "no process started")
}

func TestBadRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "touch started; exec cat")
	for _, lang := range []string{"cobol", "", "go&autoInstall=maybe"} {
		_, resp, err := dial(t, f, lang, token)
		require.Error(t, err)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, lang)
	}
	// The token comes before the language: without it, an unknown
	// language is 401 like a known one.
	_, resp, err := dial(t, f, "cobol", "")
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	_, err = os.Stat(filepath.Join(f.ws, "started"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestMissingServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	for lang, code := range map[string]int{
		"go":                  int(wire.CloseBinaryMissing),
		"go&autoInstall=true": int(wire.CloseNoInstaller), // a handler without installers (Config.Installs nil)
		"kotlin":              int(wire.CloseNoInstaller),
	} {
		c, _, err := dial(t, f, lang, token)
		require.NoError(t, err)
		requireClose(t, c, code)
	}
}

func TestServerExits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "exit 3")
	c, _ := readReady(t, f)
	requireClose(t, c, int(wire.CloseServerExited))
}

// The server's last words before it exits still reach the peer.
func TestServerExitDrainsStdout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `printf 'Content-Length: 2\r\n\r\n{}'; exit 0`)
	c, _ := readReady(t, f)
	_, b, err := c.Read(testCtx(t))
	require.NoError(t, err)
	require.Equal(t, "{}", string(b))
	requireClose(t, c, int(wire.CloseServerExited))
}

func TestStartFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "#!/nonexistent/interpreter\n")
	c, _, err := dial(t, f, "go", token)
	require.NoError(t, err)
	requireClose(t, c, int(wire.CloseStartFailed))
}

func TestSocketCloseStopsTree(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "sleep 1000 & echo $! > child.pid; echo $$ > server.pid; exec cat")
	c, _ := readReady(t, f)
	child, server := pidFrom(t, f, "child.pid"), pidFrom(t, f, "server.pid")
	require.True(t, alive(child))
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
	waitFor(t, func() bool { return !alive(child) && !alive(server) })
}

func TestShutdown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "sleep 1000 & echo $! > child.pid; echo $$ > server.pid; exec cat")
	c, _ := readReady(t, f)
	child, server := pidFrom(t, f, "child.pid"), pidFrom(t, f, "server.pid")

	done := make(chan error, 1)
	go func() { done <- f.h.Shutdown(testCtx(t)) }()
	requireClose(t, c, int(wire.CloseGoingAway))
	require.NoError(t, <-done)
	require.False(t, alive(child), "Shutdown returns after the tree is reaped")
	require.False(t, alive(server))

	_, resp, err := dial(t, f, "go", token)
	require.Error(t, err)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "admission closed")
}

func TestOversizedStdoutFrame(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `echo $$ > server.pid; printf 'Content-Length: 999999999\r\n\r\n'; exec sleep 1000`)
	c, _ := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	requireClose(t, c, int(wire.CloseServerExited))
	waitFor(t, func() bool { return !alive(server) })
}

func TestOversizedSocketMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "echo $$ > server.pid; exec cat")
	c, _ := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	// The write may fail once the agent closes mid-message; the close
	// status is what counts.
	_ = c.Write(testCtx(t), websocket.MessageText, make([]byte, wire.MaxMessageSize+1))
	ce := closeStatus(t, c)
	require.Equal(t, websocket.StatusMessageTooBig, ce.Code)
	require.Empty(t, ce.Reason)
	waitFor(t, func() bool { return !alive(server) })
}

// A server that never reads stdin must not pin the session: the stdin write
// times out, and the process is stopped.
func TestStalledStdin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "echo $$ > server.pid; exec sleep 1000", func(c *Config) { c.StdinWriteTimeout = 100 * time.Millisecond })
	c, _ := readReady(t, f)
	server := pidFrom(t, f, "server.pid")
	require.NoError(t, c.Write(testCtx(t), websocket.MessageText, make([]byte, 1<<20)))
	requireClose(t, c, int(wire.CloseServerExited))
	waitFor(t, func() bool { return !alive(server) })
}

// A peer that stops reading must not pin the session either: the bounded
// socket write fails and the process is stopped.
func TestStalledPeer(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 1<<16)
	script := "echo $$ > server.pid\nwhile :; do printf 'Content-Length: 65536\\r\\n\\r\\n" + body + "'; done"
	f := newFixture(t, script, func(c *Config) { c.WriteTimeout = 100 * time.Millisecond })
	readReady(t, f) // and never read again
	server := pidFrom(t, f, "server.pid")
	waitFor(t, func() bool { return !alive(server) })
}

// A heartbeat is answered by the agent itself, at once, and never reaches
// the server: the echo server (cat) sees only the JSON-RPC message sent
// after it, so the second frame read is that message, not a second
// heartbeat. The ready frame says heartbeats are answered.
func TestHeartbeatAnsweredByTheAgent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "exec cat")
	c, st := readReady(t, f)
	require.True(t, st.Heartbeat)
	ctx := testCtx(t)
	msg := []byte(`{"jsonrpc":"2.0","method":"after"}`)
	require.NoError(t, c.Write(ctx, websocket.MessageText, wire.AppendHeartbeat(nil, 7)))
	require.NoError(t, c.Write(ctx, websocket.MessageText, msg))
	_, got, err := c.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, `{"heartbeat":7}`, string(got))
	_, got, err = c.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, string(msg), string(got), "the heartbeat never went to the server")
}
