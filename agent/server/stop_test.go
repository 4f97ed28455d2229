//go:build linux

package server

import (
	"context"
	"encoding/json"
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

	"github.com/kandev/lsp/e2e/fakelsp/fakelsptest"
	"github.com/kandev/lsp/e2e/fakelsp/script"
	"github.com/kandev/lsp/internal/wire"
)

func post(t *testing.T, hs *httptest.Server, method, path, tok string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, hs.URL+path, nil)
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && len(b) > i+2 && b[i+2] != 'Z'
}

// TestStopRoute: the relay's stop call closes admission, reaps the whole
// tree (a TERM-ignoring child included), closes the stream with 1001 and
// an empty reason, and answers 200 only when all that is done.
func TestStopRoute(t *testing.T) {
	t.Parallel()
	ws, bin := t.TempDir(), t.TempDir()
	fakelsptest.Install(t, bin, "gopls")
	record := filepath.Join(t.TempDir(), "record.jsonl")
	require.NoError(t, script.Write(ws, script.Script{SpawnChildIgnoringTERM: true, RecordFile: record}))
	s, hs := start(t, map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": ws}, ws)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dial(t, ctx, hs, "go")
	_, _, err := c.Read(ctx) // ready
	require.NoError(t, err)
	var pids []int
	require.Eventually(t, func() bool {
		rs, _ := script.ReadRecords(record)
		pids = pids[:0]
		for _, r := range rs {
			if r.Kind == "event" && (r.Method == "start" || r.Method == "child") {
				pids = append(pids, r.Pid)
			}
		}
		return len(pids) == 2
	}, 20*time.Second, 5*time.Millisecond)

	require.Equal(t, http.StatusUnauthorized, post(t, hs, http.MethodPost, wire.AgentTaskStopPath, "").StatusCode)
	require.Equal(t, http.StatusMethodNotAllowed, post(t, hs, http.MethodGet, wire.AgentTaskStopPath, token).StatusCode)
	select {
	case <-s.Stopped():
		t.Fatal("stopped before the stop call")
	default:
	}

	closed := make(chan error, 1)
	go func() { _, _, err := c.Read(ctx); closed <- err }()
	require.Equal(t, http.StatusOK, post(t, hs, http.MethodPost, wire.AgentTaskStopPath, token).StatusCode)
	for _, pid := range pids {
		require.False(t, alive(pid), "pid %d reaped before the 200", pid)
	}
	err = <-closed
	var ce websocket.CloseError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, websocket.StatusGoingAway, ce.Code)
	require.Empty(t, ce.Reason)
	<-s.Stopped()

	// Admission is closed; a second stop call is still a 200.
	u := "ws" + strings.TrimPrefix(hs.URL, "http") + wire.AgentStreamPath + "?language=go"
	_, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	require.Error(t, err)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	require.Equal(t, http.StatusOK, post(t, hs, http.MethodPost, wire.AgentTaskStopPath, token).StatusCode)
}

// The installers route is wired behind the token, and an injected Windows
// host answers for Windows: rust-analyzer has no installer there (the
// route says why), nor has tombi, and a rust stream closes 4007 rather
// than 4001, with or without autoInstall; so does kotlin, which is never
// installed.
func TestInstallersAndWindowsHost(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	s, err := New(Config{Workspace: ws, Token: token, Env: map[string]string{"USERPROFILE": `C:\Users\dev`}, GOOS: "windows", GOARCH: "amd64"})
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { _ = s.Shutdown(context.Background()); hs.Close() })

	require.Equal(t, http.StatusUnauthorized, post(t, hs, http.MethodGet, wire.AgentInstallersPath, "").StatusCode)
	req, _ := http.NewRequest(http.MethodGet, hs.URL+wire.AgentInstallersPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var got wire.Installers
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	require.Equal(t, "windows", got.GOOS)
	for _, l := range got.Languages {
		switch l.Language {
		case wire.Rust:
			require.False(t, l.Installable)
			require.Equal(t, wire.NotInstallableOS, l.Reason)
			require.Contains(t, l.Guidance, "Windows")
			require.Empty(t, l.Download)
		case "toml": // tombi's native binary is locked for Linux x64 alone
			require.False(t, l.Installable)
			require.Equal(t, wire.NotInstallableOS, l.Reason)
			require.Contains(t, l.Guidance, "Windows")
		case wire.Kotlin, wire.C:
			require.False(t, l.Installable)
			require.Equal(t, wire.NotInstallableManual, l.Reason)
		default:
			require.True(t, l.Installable, l.Language)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for lang, code := range map[string]wire.CloseCode{
		"rust": wire.CloseNoInstaller, "rust&autoInstall=true": wire.CloseNoInstaller,
		"kotlin&autoInstall=true": wire.CloseNoInstaller, "go": wire.CloseBinaryMissing,
		"c&autoInstall=true": wire.CloseNoInstaller, "typescript&server=tsgo": wire.CloseBinaryMissing,
	} {
		c := dial(t, ctx, hs, lang)
		_, _, err := c.Read(ctx)
		var ce websocket.CloseError
		require.ErrorAs(t, err, &ce)
		require.Equal(t, websocket.StatusCode(code), ce.Code, lang)
	}
}
