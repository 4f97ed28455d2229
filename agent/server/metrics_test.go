//go:build linux

package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/logging"
	"github.com/kandev/lsp/internal/promtext"
	"github.com/kandev/lsp/internal/wire"
)

// scrape reads /metrics with token ("" for none): status and
// "name{labels}" → value.
func scrape(t *testing.T, hs *httptest.Server, tok string) (int, map[string]float64) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, hs.URL+"/metrics", nil)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	out, err := promtext.Parse(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, out
}

type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A scrape of /metrics (with the token; 401 without) sees a stream open,
// its server run and its bytes pass, and a stream closed with 4001 for a
// missing server; the stream's JSON log lines carry the session and
// connection id the relay sent.
func TestMetricsAndStreamLogs(t *testing.T) {
	t.Parallel()
	ws, home, bin := t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte("#!/bin/sh\nexec cat\n"), 0o755))
	var logs lockedLog
	logger, err := logging.New(logging.JSON, &logs, -4)
	require.NoError(t, err)
	s, err := New(Config{
		Workspace: ws, Token: token, Env: map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": home},
		Logger: logger, StopGrace: time.Second, KillGrace: time.Second,
	})
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { _ = s.Shutdown(context.Background()); hs.Close() })

	code, _ := scrape(t, hs, "")
	require.Equal(t, http.StatusUnauthorized, code)
	code, before := scrape(t, hs, token)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, before, "go_goroutines")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dialAs := func(lang, session, conn string) *websocket.Conn {
		u := "ws" + strings.TrimPrefix(hs.URL, "http") + wire.AgentStreamPath + "?" + wire.ParamLanguage + "=" + lang
		c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{
			"Authorization": {"Bearer " + token}, wire.HeaderSession: {session}, wire.HeaderConnection: {conn},
		}})
		require.NoError(t, err)
		t.Cleanup(func() { c.CloseNow() })
		return c
	}

	// A server that runs: the echo stands in for gopls.
	c := dialAs("go", "task-7", "c0ffee")
	_, _, err = c.Read(ctx) // ready
	require.NoError(t, err)
	msg := []byte(`{"jsonrpc":"2.0","method":"x"}`)
	require.NoError(t, c.Write(ctx, websocket.MessageText, msg))
	_, echo, err := c.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, msg, echo)
	_, mid := scrape(t, hs, token)
	require.Equal(t, 1.0, mid[`kandev_agent_streams_active{language="go"}`])
	require.Equal(t, 1.0, mid[`kandev_agent_servers_running{language="go"}`])
	require.Equal(t, float64(len(msg)), mid[`kandev_agent_relayed_bytes_total{direction="to_server"}`])
	require.Equal(t, float64(len(msg)), mid[`kandev_agent_relayed_bytes_total{direction="from_server"}`])
	require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))

	// rust-analyzer is installable here but not asked for: 4001.
	r := dialAs("rust", "task-7", "beef")
	_, _, err = r.Read(ctx)
	require.Equal(t, websocket.StatusCode(wire.CloseBinaryMissing), websocket.CloseStatus(err))

	require.Eventually(t, func() bool {
		_, after := scrape(t, hs, token)
		return after[`kandev_agent_stream_closes_total{code="4001"}`] == 1 &&
			after[`kandev_agent_streams_active{language="go"}`] == 0 &&
			after[`kandev_agent_streams_active{language="rust"}`] == 0 &&
			after[`kandev_agent_servers_running{language="go"}`] == 0
	}, 15*time.Second, 20*time.Millisecond)
	// A stream request without the token is a refusal (a scrape without
	// it was not).
	_, after := scrape(t, hs, token)
	require.Zero(t, after[`kandev_agent_stream_refusals_total{code="401"}`])
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+wire.AgentStreamPath+"?language=go", nil)
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	_, after = scrape(t, hs, token)
	require.Equal(t, 1.0, after[`kandev_agent_stream_refusals_total{code="401"}`])
	require.Equal(t, 1.0, after[`kandev_agent_stream_closes_total{code="1000"}`], "the browser's own close")

	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		if lang, ok := rec["language"]; ok {
			require.Equal(t, "task-7", rec["session"], line)
			seen[lang.(string)+"/"+rec["conn"].(string)] = true
		}
	}
	require.True(t, seen["go/c0ffee"] && seen["rust/beef"], logs.String())
}
