package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/tools/pgtest"
)

// TestMain stops the PostgreSQL server the tests of -db postgres:// start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestMaxConnections(t *testing.T) {
	for v, want := range map[string]int{"": 8, " ": 8, "1": 1, "64": 64, " 3 ": 3} {
		got, err := maxConnections(envMaxConnections, v, 8)
		require.NoError(t, err, v)
		assert.Equal(t, want, got, v)
	}
	for _, v := range []string{"0", "-1", "eight", "8.5"} {
		_, err := maxConnections(envMaxConnections, v, 8)
		assert.ErrorContains(t, err, envMaxConnections, v)
		_, err = maxConnections(envMaxPerUser, v, 0)
		assert.ErrorContains(t, err, envMaxPerUser, v)
	}
	got, err := maxConnections(envMaxPerUser, "", 0)
	require.NoError(t, err)
	assert.Zero(t, got, "no per-user share unless one is set")
}

func TestOriginPatterns(t *testing.T) {
	got, err := originPatterns(" app.example.com, *.kandev.dev ,")
	require.NoError(t, err)
	assert.Equal(t, []string{"app.example.com", "*.kandev.dev"}, got)
	for _, bad := range []string{"*", "a.com,*", "*.*", "https://*", "*://*", "http*://*:*", "a.com,["} {
		_, err := originPatterns(bad)
		assert.ErrorIs(t, err, access.ErrOriginPattern, bad)
	}
}

// started is a kandev-relay run by start.
type started struct {
	base string
	// lines delivers stdout after the listening line.
	lines chan string
	// log is the relay's stderr.
	log  *syncBuffer
	stop func()
}

// start runs the relay on a free port with db, the environment env and
// the extra flags args, and returns once it listens. stop waits for run to
// return.
func start(t *testing.T, db string, env []string, args ...string) *started {
	t.Helper()
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions.json")
	require.NoError(t, os.WriteFile(sessions, []byte(`{"sessions":[]}`), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	s := &started{lines: make(chan string, 8), log: &syncBuffer{}}
	go func() {
		errc <- run(ctx, append([]string{"-addr", "127.0.0.1:0", "-sessions", sessions, "-db", db, "-agent-binary", "/nonexistent"}, args...),
			env, pw, s.log)
		_ = pw.Close()
	}()
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	go func() {
		defer close(s.lines)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				return
			}
			s.lines <- strings.TrimSpace(l)
		}
	}()
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	require.True(t, ok, line)
	s.base = base
	s.stop = func() {
		cancel()
		select {
		case err := <-errc:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("run did not return")
		}
	}
	return s
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var client = &http.Client{
	Transport:     &http.Transport{DisableKeepAlives: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// req sends one request with hdr and returns the status and the body.
func req(t *testing.T, method, u, body string, hdr http.Header) (int, string) {
	t.Helper()
	r, err := http.NewRequest(method, u, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range hdr {
		r.Header[k] = v
	}
	resp, err := client.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func bearer(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

// Settings saved through one relay process are there after a restart on
// the same -db, a file or a PostgreSQL URL; the browser token from the
// environment gates every route and is never printed.
func TestRestartKeepsSettings(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { restartKeepsSettings(t, filepath.Join(t.TempDir(), "nested", "settings.db")) })
	t.Run("postgres", func(t *testing.T) { restartKeepsSettings(t, pgtest.Database(t)) })
}

func restartKeepsSettings(t *testing.T, db string) {
	env := []string{envBrowserToken + "=old", envBrowserToken + "=tok"}

	r := start(t, db, env)
	status, _ := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	status, _ = req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", bearer("old"))
	assert.Equal(t, http.StatusUnauthorized, status, "the last one wins, as for os.Getenv")
	status, _ = req(t, http.MethodPut, r.base+wire.RelaySettingsPath, `{"lsp_auto_start_languages":["rust"]}`, bearer("tok"))
	require.Equal(t, http.StatusOK, status)
	r.stop()
	for l := range r.lines {
		assert.NotContains(t, l, "tok", "a given token is not printed")
	}

	r = start(t, db, env)
	defer r.stop()
	status, body := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", bearer("tok"))
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"lsp_auto_start_languages":["rust"]`)
}

// Without a token, the relay makes one and prints it once, in the sign-in
// URL; opening that URL gives the browser its cookie, and the cookie (or
// the token as a bearer) is what every route then asks for.
func TestGeneratedTokenAndSignIn(t *testing.T) {
	r := start(t, filepath.Join(t.TempDir(), "settings.db"), nil)
	defer r.stop()
	var line string
	select {
	case line = <-r.lines:
	case <-time.After(10 * time.Second):
		t.Fatal("no sign-in line")
	}
	signIn, ok := strings.CutPrefix(line, "sign in at ")
	require.True(t, ok, line)
	u, err := url.Parse(signIn)
	require.NoError(t, err)
	assert.Equal(t, access.SignInPath, u.Path)
	token := u.Query().Get("token")
	require.NotEmpty(t, token)
	assert.NotContains(t, r.log.String(), token, "the token is not logged")

	status, _ := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", nil)
	assert.Equal(t, http.StatusUnauthorized, status)

	resp, err := client.Get(signIn)
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, resp.Cookies(), 1)
	c := resp.Cookies()[0]
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)

	status, _ = req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", http.Header{"Cookie": {c.Name + "=" + c.Value}})
	assert.Equal(t, http.StatusOK, status, "the cookie")
	status, _ = req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", bearer(token))
	assert.Equal(t, http.StatusOK, status, "the bearer token")
}

// -insecure-no-browser-auth serves without a token and says so in the log;
// combined with a token it is refused.
func TestInsecureNoBrowserAuth(t *testing.T) {
	r := start(t, filepath.Join(t.TempDir(), "settings.db"), nil, "-insecure-no-browser-auth")
	status, _ := req(t, http.MethodGet, r.base+wire.RelaySettingsPath, "", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, r.log.String(), "browser authentication is OFF")
	r.stop()
	for l := range r.lines {
		assert.NotContains(t, l, "sign in", "no token, no sign-in URL")
	}

	err := run(context.Background(), []string{"-sessions", "x.json", "-insecure-no-browser-auth"},
		[]string{envBrowserToken + "=t"}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, "exclude each other")
}

// Requests for a name the relay does not serve are refused whatever
// credential they carry; -hosts adds names.
func TestHostsFlag(t *testing.T) {
	r := start(t, filepath.Join(t.TempDir(), "settings.db"), []string{envBrowserToken + "=tok"}, "-hosts", "kandev.example.com, relay.lan")
	defer r.stop()
	get := func(host string) int {
		hr, err := http.NewRequest(http.MethodGet, r.base+wire.RelaySettingsPath, nil)
		require.NoError(t, err)
		hr.Host = host
		hr.Header = bearer("tok")
		resp, err := client.Do(hr)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusForbidden, get("attacker.example"))
	assert.Equal(t, http.StatusOK, get("kandev.example.com"))
	assert.Equal(t, http.StatusOK, get("relay.lan:8080"))
	assert.Equal(t, http.StatusOK, get(strings.TrimPrefix(r.base, "http://")))
}

// -log-format json writes one JSON object per line, and /metrics answers
// the browser token as a bearer token, like every route, and nothing
// without it.
func TestJSONLogsAndMetrics(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "s.db"), []string{"KANDEV_RELAY_BROWSER_TOKEN=tok"}, "-log-format", "json")
	get := func(auth string) int {
		req, _ := http.NewRequest(http.MethodGet, s.base+"/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			assert.Contains(t, string(b), "kandev_relay_agents_running 0")
		}
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, get(""))
	assert.Equal(t, http.StatusOK, get("tok"))
	s.stop()
	lines := strings.Split(strings.TrimSpace(s.log.String()), "\n")
	require.NotEmpty(t, lines)
	for _, l := range lines {
		assert.True(t, strings.HasPrefix(l, `{"time":`), l)
	}

	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions.json")
	require.NoError(t, os.WriteFile(sessions, []byte(`{"sessions":[]}`), 0o600))
	err := run(context.Background(), []string{"-sessions", sessions, "-log-format", "xml"}, nil, io.Discard, io.Discard)
	assert.ErrorContains(t, err, `-log-format "xml"`)
}
