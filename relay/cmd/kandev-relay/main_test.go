package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

func TestMaxConnections(t *testing.T) {
	for v, want := range map[string]int{"": 8, " ": 8, "1": 1, "64": 64, " 3 ": 3} {
		got, err := maxConnections(v)
		require.NoError(t, err, v)
		assert.Equal(t, want, got, v)
	}
	for _, v := range []string{"0", "-1", "eight", "8.5"} {
		_, err := maxConnections(v)
		assert.ErrorContains(t, err, envMaxConnections, v)
	}
}

func TestOriginPatterns(t *testing.T) {
	got, err := originPatterns(" app.example.com, *.kandev.dev ,")
	require.NoError(t, err)
	assert.Equal(t, []string{"app.example.com", "*.kandev.dev"}, got)
	for _, bad := range []string{"*", "a.com,*", "*.*"} {
		_, err := originPatterns(bad)
		assert.Error(t, err, bad)
	}
}

// start runs the relay on a free port with db and returns its base URL and
// a stop function that waits for run to return.
func start(t *testing.T, db string, env []string) (string, func()) {
	t.Helper()
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions.json")
	require.NoError(t, os.WriteFile(sessions, []byte(`{"sessions":[]}`), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"-addr", "127.0.0.1:0", "-sessions", sessions, "-db", db, "-agent-binary", "/nonexistent"},
			env, pw, io.Discard)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	require.True(t, ok, line)
	return base, func() {
		cancel()
		select {
		case err := <-errc:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("run did not return")
		}
	}
}

// Settings saved through one relay process are there after a restart on
// the same -db file; the browser token gates every route.
func TestRestartKeepsSettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "nested", "settings.db")
	env := []string{envBrowserToken + "=old", envBrowserToken + "=tok"}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req := func(method, u, body, token string) (int, string) {
		r, err := http.NewRequest(method, u, strings.NewReader(body))
		require.NoError(t, err)
		if token != "" {
			r.AddCookie(&http.Cookie{Name: "kandev_relay_token", Value: token})
		}
		resp, err := client.Do(r)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	base, stop := start(t, db, env)
	status, _ := req(http.MethodGet, base+wire.RelaySettingsPath, "", "")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = req(http.MethodPut, base+wire.RelaySettingsPath, `{"lsp_auto_start_languages":["rust"]}`, "tok")
	require.Equal(t, http.StatusOK, status)
	stop()

	base, stop = start(t, db, env)
	defer stop()
	status, body := req(http.MethodGet, base+wire.RelaySettingsPath, "", "tok")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"lsp_auto_start_languages":["rust"]`)
}

func TestWithoutEnv(t *testing.T) {
	got := withoutEnv([]string{"A=1", "KANDEV_RELAY_TOKEN=x", "B=2=3", "KANDEV_RELAY_TOKEN_X=y"}, envBrowserToken)
	assert.Equal(t, []string{"A=1", "B=2=3", "KANDEV_RELAY_TOKEN_X=y"}, got)
}
