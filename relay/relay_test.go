package relay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/internal/bridge"
)

// testClient dials like a browser would. No keep-alive: a refused upgrade
// must not leave an idle connection (and its goroutines) behind.
var testClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// newRelay serves New(cfg) on a loopback httptest server. Cleanup closes
// the relay (stopping agents it started) and then the server.
func newRelay(t testing.TB, cfg Config) (*httptest.Server, *Relay) {
	t.Helper()
	h := New(cfg)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		assert.NoError(t, h.Close(ctx))
	})
	return srv, h
}

// streamURL is the browser-facing stream URL of a relay server.
func streamURL(srv *httptest.Server, session, lang string) string {
	return "ws" + strings.TrimPrefix(srv.URL, "http") + wire.RelayStreamPrefix + session + "?" + wire.ParamLanguage + "=" + lang
}

// dialBrowser opens a browser-side stream; hdr may carry an Origin.
func dialBrowser(ctx context.Context, u string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	return dialBrowserHost(ctx, u, hdr, "")
}

// dialBrowserHost is dialBrowser with the Host header set to host (when
// not empty), as a browser on a rebound name would send it.
func dialBrowserHost(ctx context.Context, u string, hdr http.Header, host string) (*websocket.Conn, *http.Response, error) {
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: testClient, HTTPHeader: hdr, Host: host})
	if err == nil {
		c.SetReadLimit(wire.MaxMessageSize)
	}
	return c, resp, err
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openStream dials the relay for session "s" and checks the ready frame
// arrives byte for byte. It returns both ends of the bridged stream.
func openStream(t testing.TB, srv *httptest.Server, a *fakeAgent) (*websocket.Conn, *agentConn) {
	t.Helper()
	ctx := testCtx(t)
	b, _, err := dialBrowser(ctx, streamURL(srv, "s", "go"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.CloseNow() })
	typ, got, err := b.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, websocket.MessageText, typ)
	require.Equal(t, a.ready, got, "ready frame must pass byte for byte")
	return b, a.next(t)
}

// requireClose reads until the connection ends and checks the close code
// and that the reason is empty.
func requireClose(t testing.TB, c *websocket.Conn, want wire.CloseCode) {
	t.Helper()
	ctx := testCtx(t)
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		require.True(t, errors.As(err, &ce), "want a close frame, got %v", err)
		assert.Equal(t, websocket.StatusCode(want), ce.Code)
		assert.Empty(t, ce.Reason, "close reasons must not reach the browser")
		return
	}
}

// waitIdle waits until the relay has no active stream (the bridge and all
// its goroutines have returned).
func waitIdle(t testing.TB, h *Relay) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for h.streamsBridged() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("relay still has %d active streams", h.streamsBridged())
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, with a deadline
	}
}

func TestFramesPassUnchanged(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	b, ac := openStream(t, srv, a)
	ctx := testCtx(t)

	assert.Equal(t, "go", ac.query.Get(wire.ParamLanguage))
	assert.Equal(t, "false", ac.query.Get(wire.ParamAutoInstall))

	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 200, bridge.ChunkSize - 1, bridge.ChunkSize, bridge.ChunkSize + 1, 3*bridge.ChunkSize + 7, 1 << 20}
	for _, size := range sizes {
		for _, typ := range []websocket.MessageType{websocket.MessageText, websocket.MessageBinary} {
			msg := make([]byte, size)
			if typ == websocket.MessageText {
				const pattern = `{"jsonrpc":"2.0","id":1,"result":"é ü"}`
				for i := 0; i < size; i += len(pattern) {
					copy(msg[i:], pattern)
				}
			} else {
				for i := range msg {
					msg[i] = byte(rng.Uint32())
				}
			}
			require.NoError(t, b.Write(ctx, typ, msg))
			gotTyp, got, err := b.Read(ctx)
			require.NoError(t, err)
			require.Equal(t, typ, gotTyp, "size %d", size)
			require.True(t, bytes.Equal(msg, got), "size %d type %v: message changed", size, typ)
		}
	}

	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(ac.ended(t)))
	waitIdle(t, h)
}

// Messages in flight both ways at once, pipelined rather than lock-step.
func TestPipelinedMessages(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	b, ac := openStream(t, srv, a)
	ctx := testCtx(t)

	const n = 200
	errc := make(chan error, 1)
	go func() {
		for i := range n {
			if err := b.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d}`, i)); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for i := range n {
		_, got, err := b.Read(ctx)
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d}`, i), string(got))
	}
	require.NoError(t, <-errc)
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	waitIdle(t, h)
}

func TestAgentCloseCodeReachesBrowserVerbatim(t *testing.T) {
	t.Parallel()
	codes := []wire.CloseCode{
		wire.CloseBinaryMissing, wire.CloseUnavailable, wire.CloseInstallFailed,
		wire.CloseExecutorUnsupported, wire.CloseCapacity, wire.CloseServerExited,
		wire.CloseNoInstaller, wire.CloseStartFailed, wire.CloseGoingAway,
	}
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	for _, code := range codes {
		t.Run(fmt.Sprint(int(code)), func(t *testing.T) {
			b, ac := openStream(t, srv, a)
			// The reason is prose from the task host: it must not pass.
			go func() { _ = ac.ws.Close(websocket.StatusCode(code), "gopls: exec: not found in $PATH") }()
			requireClose(t, b, code)
			ac.ended(t)
		})
	}
	waitIdle(t, h)
}

func TestAgentDropBecomes4002(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	b, ac := openStream(t, srv, a)
	ctx := testCtx(t)

	// Mid-stream: one round trip first.
	require.NoError(t, b.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"initialized"}`)))
	_, _, err := b.Read(ctx)
	require.NoError(t, err)

	// The TCP connection goes away without a close frame: the hop failed.
	require.NoError(t, ac.ws.CloseNow())
	requireClose(t, b, wire.CloseUnavailable)
	waitIdle(t, h)
}

func TestBrowserCloseClosesAgent(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})

	t.Run("close frame passes its code", func(t *testing.T) {
		b, ac := openStream(t, srv, a)
		require.NoError(t, b.Close(websocket.StatusNormalClosure, "tab closed"))
		var ce websocket.CloseError
		require.ErrorAs(t, ac.ended(t), &ce)
		assert.Equal(t, websocket.StatusNormalClosure, ce.Code)
		assert.Empty(t, ce.Reason)
	})
	t.Run("going away", func(t *testing.T) {
		b, ac := openStream(t, srv, a)
		require.NoError(t, b.Close(websocket.StatusGoingAway, ""))
		assert.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(ac.ended(t)))
	})
	t.Run("dropped connection becomes 4010", func(t *testing.T) {
		b, ac := openStream(t, srv, a)
		require.NoError(t, b.CloseNow())
		assert.Equal(t, websocket.StatusCode(wire.ClosePathLost), websocket.CloseStatus(ac.ended(t)),
			"lost, not closed: the agent holds the server for a resume")
	})
	waitIdle(t, h)
}

func TestUnknownLanguageIsHTTP400(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, _ := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	for _, lang := range []string{"cobol", "", "Go"} {
		_, resp, err := dialBrowser(testCtx(t), streamURL(srv, "s", lang), nil)
		require.Error(t, err, "language %q", lang)
		require.NotNil(t, resp)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "language %q", lang)
	}
	assert.Zero(t, a.requests.Load())
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, h := newRelay(t, Config{
		Sessions:       StaticSessions(a.session("s")),
		OriginPatterns: []string{"app.example.com"},
	})
	u := streamURL(srv, "s", "go")

	_, resp, err := dialBrowser(testCtx(t), u, http.Header{"Origin": {"https://evil.example.net"}})
	require.Error(t, err, "a foreign origin must be refused")
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Zero(t, a.requests.Load(), "nothing dialled for a refused origin")

	for _, origin := range []string{srv.URL, "https://app.example.com"} {
		b, _, err := dialBrowser(testCtx(t), u, http.Header{"Origin": {origin}})
		require.NoError(t, err, "origin %s", origin)
		_, got, err := b.Read(testCtx(t))
		require.NoError(t, err)
		assert.Equal(t, a.ready, got)
		require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
		a.next(t).ended(t)
	}
	waitIdle(t, h)
}

func TestShutdownClosesBothWith1001(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	h := New(Config{Sessions: StaticSessions(a.session("s"))})
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.BaseContext = func(net.Listener) context.Context { return base }
	srv.Start()
	t.Cleanup(srv.Close)

	b, ac := openStream(t, srv, a)
	cancel()
	requireClose(t, b, wire.CloseGoingAway)
	assert.Equal(t, websocket.StatusCode(wire.CloseGoingAway), websocket.CloseStatus(ac.ended(t)))
	waitIdle(t, h)
}

// Only the paths the relay serves exist.
func TestRoutes(t *testing.T) {
	t.Parallel()
	srv, _ := newRelay(t, Config{})
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{http.MethodPost, "/lsp/s?language=go", http.StatusMethodNotAllowed},
		{http.MethodGet, "/lsp/?language=go", http.StatusNotFound},
		{http.MethodGet, "/other", http.StatusNotFound},
		{http.MethodGet, "/lsp/s?language=go", http.StatusUpgradeRequired}, // not a WebSocket request
		{http.MethodDelete, "/api/v1/user/settings", http.StatusMethodNotAllowed},
		{http.MethodPost, "/api/v1/lsp/runtime", http.StatusMethodNotAllowed},
		{http.MethodGet, "/api/v1/sessions/s/stop", http.StatusMethodNotAllowed},
		{http.MethodPost, "/api/v1/sessions/s/stop", http.StatusNotFound}, // unknown session
	} {
		req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		require.NoError(t, err)
		resp, err := testClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		assert.Equal(t, tc.want, resp.StatusCode, "%s %s", tc.method, tc.path)
	}
}

func TestAgentStreamURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ base, want string }{
		{"http://127.0.0.1:7070", "ws://127.0.0.1:7070/api/v1/lsp/stream?autoInstall=false&language=go"},
		{"https://agent.internal/", "wss://agent.internal/api/v1/lsp/stream?autoInstall=false&language=go"},
		{"http://h:1/prefix/", "ws://h:1/prefix/api/v1/lsp/stream?autoInstall=false&language=go"},
		{"ws://h:1?x=1#f", "ws://h:1/api/v1/lsp/stream?autoInstall=false&language=go"},
	} {
		got, err := agentStreamURL(tc.base, streamParams{language: "go"})
		require.NoError(t, err, tc.base)
		assert.Equal(t, tc.want, got)
	}
	got, err := agentStreamURL("http://h:1", streamParams{language: "typescript", server: "tsgo", autoInstall: true})
	require.NoError(t, err)
	assert.Equal(t, "ws://h:1/api/v1/lsp/stream?autoInstall=true&language=typescript&server=tsgo", got)
	for _, bad := range []string{"", "ftp://h", "http://", "127.0.0.1:7070", "://x"} {
		_, err := agentStreamURL(bad, streamParams{language: "go"})
		assert.Error(t, err, "%q", bad)
	}
}

// A resume request's token and count reach the agent as the browser sent
// them (the agent decides); malformed ones are refused before anything.
func TestResumeParametersPassToTheAgent(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, _ := newRelay(t, Config{Sessions: StaticSessions(a.session("s"))})
	ctx := testCtx(t)
	b, _, err := dialBrowser(ctx, streamURL(srv, "s", "go")+"&resume=0a1b&received=42", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.CloseNow() })
	_, _, err = b.Read(ctx)
	require.NoError(t, err)
	ac := a.next(t)
	assert.Equal(t, "0a1b", ac.query.Get(wire.ParamResume))
	assert.Equal(t, "42", ac.query.Get(wire.ParamReceived))

	n := a.requests.Load()
	for _, q := range []string{"&resume=0a1b", "&received=1", "&resume=XY&received=1", "&resume=0a&received=-1",
		"&resume=0a&received=1&resume=0b&received=2", "&resume=&received=1"} {
		_, resp, err := dialBrowser(ctx, streamURL(srv, "s", "go")+q, nil)
		require.Error(t, err, q)
		require.NotNil(t, resp, q)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, q)
	}
	assert.Equal(t, n, a.requests.Load(), "no malformed resume reached the agent")
}

// A resume keeps its place under the cap: with every slot taken (here by
// a stream standing for one whose replica died, its lease still counted),
// a request presenting a resume token reaches the agent, and a new stream
// is refused with 4005.
func TestResumeIsAdmittedAtTheCap(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, _ := newRelay(t, Config{Sessions: StaticSessions(a.session("s")), MaxConnections: 1})
	ctx := testCtx(t)
	first, _, err := dialBrowser(ctx, streamURL(srv, "s", "go"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = first.CloseNow() })
	_, _, err = first.Read(ctx)
	require.NoError(t, err)
	a.next(t)

	fresh, _, err := dialBrowser(ctx, streamURL(srv, "s", "go"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = fresh.CloseNow() })
	_, _, err = fresh.Read(ctx)
	assert.Equal(t, websocket.StatusCode(wire.CloseCapacity), websocket.CloseStatus(err), "a new stream over the cap")

	resumed, _, err := dialBrowser(ctx, streamURL(srv, "s", "go")+"&resume=0a1b&received=3", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resumed.CloseNow() })
	_, _, err = resumed.Read(ctx)
	require.NoError(t, err, "the resume is admitted")
	assert.Equal(t, "0a1b", a.next(t).query.Get(wire.ParamResume))
}

// A lost browser's slot stays counted while the agent holds its server:
// a new stream at the cap is refused, the resume takes the slot over
// (admitted, counted once), and a browser that closes gives it back.
func TestLostStreamHoldsItsSlotForItsResume(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("s")), MaxConnections: 1})
	ctx := testCtx(t)
	usage := func() capacity.Usage {
		u, err := rl.capacity.Usage(ctx)
		require.NoError(t, err)
		return u
	}
	first, _, err := dialBrowser(ctx, streamURL(srv, "s", "go"), nil)
	require.NoError(t, err)
	_, _, err = first.Read(ctx)
	require.NoError(t, err)
	ac := a.next(t)
	_ = first.CloseNow() // lost: no close frame
	assert.Equal(t, websocket.StatusCode(wire.ClosePathLost), websocket.CloseStatus(ac.ended(t)))
	require.Eventually(t, func() bool { return usage().Held == 1 }, 10*time.Second, 10*time.Millisecond)
	m := scrape(t, srv)
	assert.Equal(t, 1.0, m["kandev_relay_capacity_held"])
	assert.Equal(t, 1.0, m["kandev_relay_capacity_in_use_global"])

	fresh, _, err := dialBrowser(ctx, streamURL(srv, "s", "go"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = fresh.CloseNow() })
	_, _, err = fresh.Read(ctx)
	assert.Equal(t, websocket.StatusCode(wire.CloseCapacity), websocket.CloseStatus(err), "the held server counts")

	resumed, _, err := dialBrowser(ctx, streamURL(srv, "s", "go")+"&resume=0a1b&received=3", nil)
	require.NoError(t, err)
	_, _, err = resumed.Read(ctx)
	require.NoError(t, err, "the resume is admitted")
	ac = a.next(t)
	assert.Equal(t, capacity.Usage{Max: 1, Global: 1, Replicas: map[string]int{"local": 1}}, usage(), "in the slot it held")

	require.NoError(t, resumed.Close(websocket.StatusNormalClosure, ""))
	assert.Equal(t, websocket.StatusNormalClosure, websocket.CloseStatus(ac.ended(t)))
	require.Eventually(t, func() bool { return usage().Global == 0 }, 10*time.Second, 10*time.Millisecond, "a closed stream gives its slot back at once")
	assert.Zero(t, usage().Held)
	assert.Zero(t, scrape(t, srv)["kandev_relay_capacity_held"])
}
