package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/executor"
	"github.com/kandev/lsp/relay/settings"
)

// countingStarter counts every start or resume the relay asks for; start
// decides its result (nil: fail, for cases that must start nothing).
type countingStarter struct {
	n     atomic.Int32
	start func(ctx context.Context, t executor.Task) (executor.Execution, error)
}

func (c *countingStarter) Start(ctx context.Context, t executor.Task) (executor.Execution, error) {
	c.n.Add(1)
	if c.start == nil {
		return executor.Execution{}, errors.New("test: nothing may be started")
	}
	return c.start(ctx, t)
}

// startsFake "starts" the fake agent a: for a relay-owned session it
// behaves like a process (Done, Stop), for a container like a resume.
func startsFake(a *fakeAgent) func(context.Context, executor.Task) (executor.Execution, error) {
	return func(_ context.Context, t executor.Task) (executor.Execution, error) {
		e := executor.Execution{Agent: AgentRef{URL: a.url(), Token: a.token}}
		if t.Owned() {
			done := make(chan struct{})
			var once sync.Once
			e.Done = done
			e.Stop = func(context.Context) error { once.Do(func() { close(done) }); return nil }
		}
		return e, nil
	}
}

// Sessions of each kind, all served by the fake agent a when they need it.
func testSessions(a *fakeAgent, extra ...Session) Sessions {
	ws := a.workspace
	all := append([]Session{
		a.session("pc"), // local_pc with its own agent URL
		{ID: "restore", Executor: ExecutorLocalPC, Workspace: ws},
		{ID: "docker", Executor: ExecutorLocalDocker, Workspace: "/workspace", Container: "task-1",
			Agent: AgentRef{URL: a.url(), Token: a.token}},
		{ID: "ssh", Executor: ExecutorSSH, Workspace: ws},
		{ID: "sprites", Executor: ExecutorSprites, Workspace: ws},
		{ID: "remote_docker", Executor: ExecutorRemoteDocker, Workspace: ws},
		{ID: "no-executor", Workspace: ws},
	}, extra...)
	return StaticSessions(all...)
}

// connect dials session id and returns the browser end, its first frame
// already read when the stream opened (nil error), or the close code.
func connect(t testing.TB, srv string, id string) (*websocket.Conn, wire.CloseCode) {
	t.Helper()
	ctx := testCtx(t)
	b, _, err := dialBrowser(ctx, "ws"+srv[len("http"):]+wire.RelayStreamPrefix+id+"?language=go", nil)
	require.NoError(t, err, "the browser's WebSocket is accepted first")
	t.Cleanup(func() { _ = b.CloseNow() })
	_, _, err = b.Read(ctx)
	if err == nil {
		return b, 0
	}
	var ce websocket.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Empty(t, ce.Reason, "close reasons must not reach the browser")
	return b, wire.CloseCode(ce.Code)
}

// The spec's check order — session, executor, capacity, execution, dial —
// with every rejection made before anything is started or resumed.
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	closedURL := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		require.NoError(t, ln.Close())
		return "http://" + ln.Addr().String()
	}()
	failing := func(context.Context, executor.Task) (executor.Execution, error) {
		return executor.Execution{}, errors.New("boom")
	}

	cases := []struct {
		name    string
		session string
		// fill occupies the only capacity slot first (cap 1)
		fill       bool
		startFails bool
		want       wire.CloseCode // 0: the stream opens
		wantStarts int32
		// wantAgent is the number of requests the fake agent must see
		wantAgent int32
	}{
		{name: "1 unknown session", session: "nope", want: wire.CloseUnavailable},
		{name: "2 ssh", session: "ssh", want: wire.CloseExecutorUnsupported},
		{name: "2 sprites", session: "sprites", want: wire.CloseExecutorUnsupported},
		{name: "2 remote_docker", session: "remote_docker", want: wire.CloseExecutorUnsupported},
		{name: "2 no executor", session: "no-executor", want: wire.CloseExecutorUnsupported},
		{name: "3 capacity before restoring local_pc", session: "restore", fill: true, want: wire.CloseCapacity},
		{name: "3 capacity before resuming docker", session: "docker", fill: true, want: wire.CloseCapacity},
		{name: "3 capacity with a running agent", session: "pc", fill: true, want: wire.CloseCapacity},
		{name: "4 restore fails", session: "restore", startFails: true, want: wire.CloseUnavailable, wantStarts: 1},
		{name: "4 resume fails", session: "docker", startFails: true, want: wire.CloseUnavailable, wantStarts: 1},
		{name: "4 restore", session: "restore", wantStarts: 1, wantAgent: 1},
		{name: "4 resume docker", session: "docker", wantStarts: 1, wantAgent: 1},
		{name: "4 local_pc with agent URL starts nothing", session: "pc", wantAgent: 1},
		{name: "5 wrong token", session: "bad-token", want: wire.CloseUnavailable, wantAgent: 1},
		{name: "5 no token", session: "no-token", want: wire.CloseUnavailable, wantAgent: 1},
		{name: "5 agent unreachable", session: "unreachable", want: wire.CloseUnavailable},
		{name: "5 bad agent url", session: "bad-url", want: wire.CloseUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newFakeAgent(t)
			st := &countingStarter{start: startsFake(a)}
			if tc.startFails {
				st.start = failing
			}
			max := 0
			if tc.fill {
				max = 1
			}
			busy := newFakeAgent(t)
			srv, rl := newRelay(t, Config{
				Sessions: testSessions(a,
					busy.session("busy"),
					Session{ID: "bad-token", Executor: ExecutorLocalPC, Agent: AgentRef{URL: a.url(), Token: "wrong"}},
					Session{ID: "no-token", Executor: ExecutorLocalPC, Agent: AgentRef{URL: a.url()}},
					Session{ID: "unreachable", Executor: ExecutorLocalPC, Agent: AgentRef{URL: closedURL, Token: testToken}},
					Session{ID: "bad-url", Executor: ExecutorLocalPC, Agent: AgentRef{URL: "ftp://x", Token: testToken}},
				),
				MaxConnections: max,
				Starter:        st,
			})
			if tc.fill {
				b, code := connect(t, srv.URL, "busy")
				require.Zero(t, code)
				defer func() {
					require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
					busy.next(t).ended(t)
				}()
			}

			b, code := connect(t, srv.URL, tc.session)
			assert.Equal(t, tc.want, code)
			if tc.want == 0 {
				require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
				a.next(t).ended(t)
			} else {
				assert.Empty(t, a.conns, "no agent stream may open")
			}
			assert.Equal(t, tc.wantStarts, st.n.Load(), "starts and resumes")
			assert.Equal(t, tc.wantAgent, a.requests.Load(), "agent requests")
			if !tc.fill {
				waitIdle(t, rl) // the slot is released on this path too
			}
		})
	}
}

// A relay-owned agent is started once and reused by later streams, also
// when several streams ask for it at the same time.
func TestRestoreStartsOnceAndReuses(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st})

	const n = 5
	var wg sync.WaitGroup
	conns := make(chan *websocket.Conn, n)
	for range n {
		wg.Go(func() {
			b, code := connect(t, srv.URL, "restore")
			assert.Zero(t, code)
			conns <- b
		})
	}
	wg.Wait()
	close(conns)
	assert.Equal(t, int32(1), st.n.Load(), "one start for concurrent streams")
	for b := range conns {
		require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	}
	for range n {
		a.next(t).ended(t)
	}
	waitIdle(t, rl)

	// Task stop forgets the agent; the next stream starts a new one.
	resp, err := testClient.Post(srv.URL+"/api/v1/sessions/restore/stop", "", nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	_ = resp.Body.Close()
	b, code := connect(t, srv.URL, "restore")
	require.Zero(t, code)
	assert.Equal(t, int32(2), st.n.Load(), "a stopped agent is started again")
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	a.next(t).ended(t)
	waitIdle(t, rl)
}

// A burst of 50 against a cap of 8: exactly 8 bridged, 42 refused with
// 4005 before any start, and the count back at 0 once all close.
func TestCapacityBurst(t *testing.T) {
	t.Parallel()
	const total, limit = 50, 8
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st, MaxConnections: limit})

	type result struct {
		b    *websocket.Conn
		code wire.CloseCode
	}
	results := make(chan result, total)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range total {
		id := "docker" // each admitted stream is one resume
		if i%2 == 1 {
			id = "pc"
		}
		wg.Go(func() {
			<-start
			b, code := connect(t, srv.URL, id)
			results <- result{b, code}
		})
	}
	close(start)
	wg.Wait()
	close(results)

	var open []*websocket.Conn
	refused := 0
	for r := range results {
		switch r.code {
		case 0:
			open = append(open, r.b)
		case wire.CloseCapacity:
			refused++
		default:
			t.Errorf("unexpected close code %d", r.code)
		}
	}
	assert.Len(t, open, limit, "bridged")
	assert.Equal(t, total-limit, refused, "closed with 4005")
	assert.Equal(t, int64(limit), rl.slotsInUse())
	assert.Equal(t, int32(limit), a.requests.Load(), "only admitted streams reach the agent")
	assert.LessOrEqual(t, st.n.Load(), int32(limit), "no start or resume for a refused stream")

	for _, b := range open {
		require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	}
	for range open {
		a.next(t).ended(t)
	}
	waitIdle(t, rl)
	assert.Zero(t, rl.slotsInUse())
}

// The slot is given back on every path: with a cap of 1, a stream after
// each failure still gets the slot.
func TestCapacitySlotReleasedOnEveryPath(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	failFirst := true
	var mu sync.Mutex
	st := &countingStarter{start: func(ctx context.Context, t executor.Task) (executor.Execution, error) {
		mu.Lock()
		defer mu.Unlock()
		if failFirst {
			failFirst = false
			return executor.Execution{}, errors.New("boom")
		}
		return startsFake(a)(ctx, t)
	}}
	srv, rl := newRelay(t, Config{
		Sessions: testSessions(a,
			Session{ID: "bad-token", Executor: ExecutorLocalPC, Agent: AgentRef{URL: a.url(), Token: "wrong"}}),
		Starter: st, MaxConnections: 1,
	})
	steps := []struct {
		id   string
		want wire.CloseCode
	}{
		{"nope", wire.CloseUnavailable},
		{"ssh", wire.CloseExecutorUnsupported},
		{"docker", wire.CloseUnavailable}, // the resume fails
		{"bad-token", wire.CloseUnavailable},
		{"pc", 0}, // opens, then the browser closes
		{"pc", 0}, // opens, then the agent closes
		{"docker", 0},
	}
	for i, s := range steps {
		b, code := connect(t, srv.URL, s.id)
		require.Equal(t, s.want, code, "step %d (%s)", i, s.id)
		if code == 0 {
			ac := a.next(t)
			if i == 5 {
				go func() { _ = ac.ws.Close(websocket.StatusCode(wire.CloseServerExited), "") }()
				requireClose(t, b, wire.CloseServerExited)
			} else {
				require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
			}
			ac.ended(t)
		}
		waitIdle(t, rl)
	}
}

// The browser never chooses auto-install: the relay asks the agent for it
// exactly when the user's lsp_auto_install_languages names the language,
// for a Local PC and a Local Docker task host alike. Rust is passed on as
// enabled to both: whether it can be installed is the task host's answer
// (a Windows Local PC agent closes 4007, a Linux container's installs),
// never the relay's. TestRelayBuildNeverReadsItsOS shows no relay code
// could answer it differently on another OS.
func TestAutoInstallComesFromSettings(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	store := settings.NewMemory()
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Settings: store,
		Starter: &countingStarter{start: startsFake(a)}})

	open := func(session, lang string) string {
		t.Helper()
		// The browser tries to force it; it must be ignored.
		return autoInstallAsked(t, a, streamURL(srv, session, lang)+"&"+wire.ParamAutoInstall+"=true", nil)
	}
	for _, session := range []string{"pc", "docker"} {
		assert.Equal(t, "false", open(session, "go"), "%s: nothing enabled", session)
		assert.Equal(t, "false", open(session, "rust"), "%s: nothing enabled", session)
	}

	langs := []string{"go", "rust"}
	_, err := store.Update(context.Background(), settings.LocalUser, settings.Patch{AutoInstallLanguages: &langs})
	require.NoError(t, err)
	for _, session := range []string{"pc", "docker"} {
		assert.Equal(t, "true", open(session, "go"), session)
		assert.Equal(t, "true", open(session, "rust"), "%s: never filtered by the relay's OS", session)
		assert.Equal(t, "false", open(session, "python"), session)
	}
	waitIdle(t, rl)
}

// With an authentication hook, a request it refuses gets HTTP 401 before
// any upgrade, dial, start or store; an accepted one (cookie or bearer) is
// served.
func TestBrowserCredential(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{start: startsFake(a)}
	tok := access.NewToken("s3cret", settings.LocalUser, "")
	store := settings.NewMemory()
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Starter: st, Settings: store,
		Authenticate: tok.Authenticate, SignIn: tok})

	for name, hdr := range map[string]http.Header{
		"none":         nil,
		"wrong cookie": {"Cookie": {tok.CookieName() + "=nope"}},
		"wrong bearer": {"Authorization": {"Bearer nope"}},
		"query only":   nil, // ?token= is not accepted on purpose
	} {
		u := streamURL(srv, "restore", "go")
		if name == "query only" {
			u += "&token=s3cret"
		}
		_, resp, err := dialBrowser(testCtx(t), u, hdr)
		require.Error(t, err, name)
		require.NotNil(t, resp, name)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, name)

		for _, method := range []string{http.MethodGet, http.MethodPut} {
			req, _ := http.NewRequest(method, srv.URL+wire.RelaySettingsPath, strings.NewReader(`{"lsp_auto_install_languages":["go"]}`))
			req.Header = hdr.Clone()
			if req.Header == nil {
				req.Header = http.Header{}
			}
			r, err := testClient.Do(req)
			require.NoError(t, err)
			_ = r.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, r.StatusCode, "settings %s, %s", method, name)
		}
		assert.Equal(t, http.StatusUnauthorized, postStopWith(t, srv.URL, "pc", hdr), "stop, %s", name)
	}
	assert.Zero(t, st.n.Load(), "nothing started without the credential")
	assert.Zero(t, a.requests.Load())
	assert.Zero(t, a.stopCalls.Load())
	stored, err := store.Load(context.Background(), settings.LocalUser)
	require.NoError(t, err)
	assert.Equal(t, settings.Default(), stored, "nothing stored without the credential")

	// The sign-in route is served without a credential and hands it out.
	resp, err := testClient.Get(tok.SignInURL(srv.URL))
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, resp.Cookies(), 1)
	cookie := resp.Cookies()[0]

	for name, hdr := range map[string]http.Header{
		"cookie": {"Cookie": {cookie.Name + "=" + cookie.Value}},
		"bearer": {"Authorization": {"Bearer s3cret"}},
	} {
		b, _, err := dialBrowser(testCtx(t), streamURL(srv, "restore", "go"), hdr)
		require.NoError(t, err, name)
		_, _, err = b.Read(testCtx(t))
		require.NoError(t, err, name)
		require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
		a.next(t).ended(t)
	}
	waitIdle(t, rl)
}

// postStopWith posts task stop for session id with hdr and returns the
// status.
func postStopWith(t *testing.T, srvURL, id string, hdr http.Header) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srvURL+"/api/v1/sessions/"+id+"/stop", nil)
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := testClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// Two users' settings stay apart, in the API and in what the relay asks
// of the agent: alice's auto-install is not bob's.
func TestSettingsPerUser(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	users := map[string]string{"Bearer alice-token": "alice", "Bearer bob-token": "bob"}
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Authenticate: func(r *http.Request) (string, error) {
		if u, ok := users[r.Header.Get("Authorization")]; ok {
			return u, nil
		}
		return "", errors.New("who are you")
	}})
	as := func(who string) http.Header { return http.Header{"Authorization": {"Bearer " + who + "-token"}} }
	call := func(who, method, body string) map[string]any {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+wire.RelaySettingsPath, strings.NewReader(body))
		require.NoError(t, err)
		req.Header = as(who)
		resp, err := testClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var v map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
		return v
	}
	call("alice", http.MethodPut, `{"lsp_auto_install_languages":["go"],"lsp_status_location":"status_bar"}`)
	bob := call("bob", http.MethodGet, "")
	assert.Equal(t, []any{}, bob[wire.SettingAutoInstallLanguages], "alice's save is not bob's")
	assert.Equal(t, "toolbar", bob[wire.SettingStatusLocation])
	call("bob", http.MethodPut, `{"lsp_auto_start_languages":["python"]}`)
	alice := call("alice", http.MethodGet, "")
	assert.Equal(t, []any{"go"}, alice[wire.SettingAutoInstallLanguages])
	assert.Equal(t, []any{}, alice[wire.SettingAutoStartLanguages], "bob's save is not alice's")

	assert.Equal(t, "true", autoInstallAsked(t, a, streamURL(srv, "pc", "go"), as("alice")))
	assert.Equal(t, "false", autoInstallAsked(t, a, streamURL(srv, "pc", "go"), as("bob")))
	waitIdle(t, rl)
}

// autoInstallAsked opens the browser stream u with hdr, closes it once the
// agent has it, and returns the autoInstall value the relay asked the
// agent a for.
func autoInstallAsked(t *testing.T, a *fakeAgent, u string, hdr http.Header) string {
	t.Helper()
	b, _, err := dialBrowser(testCtx(t), u, hdr)
	require.NoError(t, err)
	_, _, err = b.Read(testCtx(t))
	require.NoError(t, err)
	ac := a.next(t)
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	return ac.query.Get(wire.ParamAutoInstall)
}

// ExampleNew mounts the relay; Close stops the agents it started.
func ExampleNew() {
	rl := New(Config{Sessions: StaticSessions(Session{
		ID: "demo", Executor: ExecutorLocalPC, Workspace: "/abs/dir",
		Agent: AgentRef{URL: "http://127.0.0.1:7070", Token: "agent-token"},
	})})
	defer rl.Close(context.Background())
	mux := http.NewServeMux()
	mux.Handle("/", rl)
	fmt.Println("mounted")
	// Output: mounted
}

// brokenStore fails every call.
type brokenStore struct{}

func (brokenStore) Load(context.Context, string) (settings.Settings, error) {
	return settings.Settings{}, errors.New("disk on fire")
}
func (brokenStore) Update(context.Context, string, settings.Patch) (settings.Settings, error) {
	return settings.Settings{}, errors.New("disk on fire")
}
func (brokenStore) Close() error { return nil }

// A settings store that cannot be read costs auto-install, not the stream;
// the settings API answers 500 without detail.
func TestBrokenSettingsStore(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	srv, rl := newRelay(t, Config{Sessions: testSessions(a), Settings: brokenStore{}})
	b, code := connect(t, srv.URL, "pc")
	require.Zero(t, code)
	ac := a.next(t)
	assert.Equal(t, "false", ac.query.Get(wire.ParamAutoInstall))
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
	ac.ended(t)
	waitIdle(t, rl)

	for _, method := range []string{http.MethodGet, http.MethodPut} {
		req, _ := http.NewRequest(method, srv.URL+wire.RelaySettingsPath, strings.NewReader(`{}`))
		resp, err := testClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusInternalServerError, resp.StatusCode, method)
		assert.NotContains(t, string(body), "disk on fire", method)
	}
}

// unreachableCap is a shared cap whose database cannot be reached.
type unreachableCap struct{}

func (unreachableCap) Acquire(context.Context, capacity.Holder) (*capacity.Slot, int, bool, error) {
	return nil, 0, false, errors.New("test: connection refused")
}

func (unreachableCap) Usage(context.Context) (capacity.Usage, error) {
	return capacity.Usage{}, errors.New("test: connection refused")
}

// A cap that cannot be asked admits nothing and starts nothing, and says
// 4002 (the backend is unavailable), not 4005 (the cap is not reached);
// /metrics still answers, without the cap's figures.
func TestCapacityUnreachableClosesUnavailable(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	st := &countingStarter{}
	srv, _ := newRelay(t, Config{Sessions: testSessions(a), Starter: st, Capacity: unreachableCap{}})
	for _, id := range []string{"pc", "restore"} {
		_, code := connect(t, srv.URL, id)
		assert.Equal(t, wire.CloseUnavailable, code, id)
	}
	assert.Zero(t, st.n.Load(), "nothing started or resumed")
	assert.Zero(t, a.requests.Load(), "nothing dialled")
	m := scrape(t, srv)
	assert.Equal(t, 2.0, m[`kandev_relay_stream_refusals_total{code="4002"}`])
	assert.NotContains(t, m, "kandev_relay_capacity_in_use_global")
}
