package relay

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/promtext"
	"github.com/kandev/lsp/internal/wire"
)

// scrape reads the relay's /metrics: "name{labels}" → value.
func scrape(t testing.TB, srv *httptest.Server) map[string]float64 {
	t.Helper()
	resp, err := testClient.Get(srv.URL + MetricsPath)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, resp.Header.Get("Content-Type"), "text/plain")
	out, err := promtext.Parse(resp.Body)
	require.NoError(t, err)
	return out
}

// A stream that opens, relays a message and is closed by the agent with
// 4001 moves the counters a scrape of /metrics shows; a refused one counts
// as a refusal. Every log line of the stream names its session, language
// and connection id, and the agent got the same id.
func TestMetricsCountStreamsAndLogsNameThem(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	var logs syncBuffer
	srv, h := newRelay(t, Config{
		Sessions: StaticSessions(a.session("s"), Session{ID: "ssh", Executor: ExecutorSSH}),
		Logger:   slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	before := scrape(t, srv)
	require.Zero(t, before[`kandev_relay_streams_active{language="go"}`])
	require.Contains(t, before, "kandev_relay_agents_running")
	require.Contains(t, before, "go_goroutines", "the relay's own registry has the runtime's collectors")

	b, ac := openStream(t, srv, a)
	ctx := testCtx(t)
	require.NoError(t, b.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0"}`)))
	_, echo, err := b.Read(ctx)
	require.NoError(t, err)
	mid := scrape(t, srv)
	require.Equal(t, 1.0, mid[`kandev_relay_streams_active{language="go"}`])
	require.Equal(t, 1.0, mid["kandev_relay_capacity_in_use_global"], "the stream holds a slot")
	require.Equal(t, 1.0, mid[`kandev_relay_capacity_in_use{replica="local"}`])
	require.Equal(t, float64(DefaultMaxConnections), mid["kandev_relay_capacity_max"])

	go func() { _ = ac.ws.Close(websocket.StatusCode(wire.CloseBinaryMissing), "") }()
	requireClose(t, b, wire.CloseBinaryMissing)
	ac.ended(t)
	waitIdle(t, h)

	c, _, err := dialBrowser(ctx, streamURL(srv, "ssh", "go"), nil)
	require.NoError(t, err)
	requireClose(t, c, wire.CloseExecutorUnsupported)

	after := scrape(t, srv)
	require.Zero(t, after[`kandev_relay_streams_active{language="go"}`])
	require.Equal(t, 1.0, after[`kandev_relay_stream_closes_total{code="4001"}`])
	require.Equal(t, 1.0, after[`kandev_relay_stream_refusals_total{code="4004"}`])
	require.Equal(t, float64(len(echo)), after[`kandev_relay_relayed_bytes_total{direction="browser_to_agent"}`])
	require.Equal(t, float64(len(a.ready)+len(echo)), after[`kandev_relay_relayed_bytes_total{direction="agent_to_browser"}`])

	connID := ac.header.Get(wire.HeaderConnection)
	require.Regexp(t, `^[0-9a-f]{16}$`, connID)
	require.Equal(t, "s", ac.header.Get(wire.HeaderSession))
	streamLines := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		if !strings.HasPrefix(rec["msg"].(string), "lsp stream") {
			continue
		}
		streamLines++
		require.Equal(t, "go", rec["language"], line)
		require.NotEmpty(t, rec["conn"], line)
		if rec["session"] == "s" {
			require.Equal(t, connID, rec["conn"], line)
		} else {
			require.Equal(t, "ssh", rec["session"], line)
		}
	}
	require.GreaterOrEqual(t, streamLines, 3, logs.String())
}

// A backend with its own registry gets the collectors there, and the relay
// serves no /metrics of its own.
func TestMetricsInTheEmbeddersRegistry(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	srv, _ := newRelay(t, Config{Metrics: reg})
	resp, err := testClient.Get(srv.URL + MetricsPath)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	c, _, err := dialBrowser(context.Background(), streamURL(srv, "nobody", "go"), nil)
	require.NoError(t, err)
	requireClose(t, c, wire.CloseUnavailable)
	families, err := reg.Gather()
	require.NoError(t, err)
	names := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if m.GetCounter() != nil && len(m.GetLabel()) > 0 {
				names[f.GetName()+"/"+m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
			}
		}
	}
	require.Equal(t, 1.0, names["kandev_relay_stream_refusals_total/4002"])
}

// /metrics is behind the guard like every route.
func TestMetricsBehindTheGuard(t *testing.T) {
	t.Parallel()
	srv, _ := newRelay(t, Config{Authenticate: func(r *http.Request) (string, error) {
		if r.Header.Get("Authorization") == "Bearer scraper" {
			return "scraper", nil
		}
		return "", io.EOF
	}})
	resp, err := testClient.Get(srv.URL + MetricsPath)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+MetricsPath, nil)
	req.Header.Set("Authorization", "Bearer scraper")
	resp, err = testClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// Streams lsp.wasm opens by itself after losing one are counted by kind:
// a resume token is a resume, reconnect=1 a fresh server for the same
// editor, and a first stream neither. The agent never sees the marker.
func TestReconnectsAreCountedByKind(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, _ := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	ctx := testCtx(t)
	for _, q := range []string{"", "&" + wire.ParamReconnect + "=1", "&resume=0a1b&received=3"} {
		b, _, err := dialBrowser(ctx, streamURL(srv, "s", "go")+q, nil)
		require.NoError(t, err, q)
		t.Cleanup(func() { _ = b.CloseNow() })
		_, _, err = b.Read(ctx)
		require.NoError(t, err, q)
		ac := a.next(t)
		require.False(t, ac.query.Has(wire.ParamReconnect), "the agent never sees the marker: %v", ac.query)
	}
	got := scrape(t, srv)
	require.Equal(t, 1.0, got[`kandev_relay_reconnects_total{kind="fresh"}`])
	require.Equal(t, 1.0, got[`kandev_relay_reconnects_total{kind="resume"}`])
}
