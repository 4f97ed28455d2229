//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/pgdb"
	"github.com/kandev/lsp/tools/pgtest"
	"github.com/kandev/lsp/tools/soak"
)

// A stream survives what happens to the path while its language server
// runs on: the relay killed and started again on its port, the relay
// stopped as a deploy stops it (SIGTERM: 1012), the relay in use killed
// while another replica on the same PostgreSQL is up. Each time the
// browser's side resumes with the token of its last ready or resumed
// frame and gets the same server process (a second initialize is refused
// as already started), the frames in flight are neither lost nor doubled,
// and nothing is started again. When the agent itself is killed and comes
// back, the token means nothing to it: the resume is refused with 4009 and
// a fresh stream starts a new server.
//
// The agent runs apart from the relays, as on a task host, so that a
// relay's death does not take it along.
func TestStreamsSurviveTheRelay(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs the relay, the agent and the fake server")
	}
	dsn := pgtest.Database(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bins, err := soak.Build(ctx, filepath.Join(dir, "bin"))
	require.NoError(t, err)
	fakeDir := rustFake(t, dir, bins.Fake)
	ws := filepath.Join(dir, "ws")
	require.NoError(t, os.Mkdir(ws, 0o755))

	marker := randomHex()
	agentToken := randomHex()
	agentAddr := freeAddr(t)
	startAgent := func() *soak.Proc {
		return startProc(t, "agent", bins.Agent, []string{"-addr", agentAddr, "-workspace", ws, "-pass-env", "KANDEV_TEST_RUN"},
			soak.Env([]string{"PATH"}, "PATH="+fakeDir+string(os.PathListSeparator)+os.Getenv("PATH"),
				"KANDEV_AGENT_TOKEN="+agentToken, "KANDEV_TEST_RUN="+marker))
	}
	agent := startAgent()

	sessionsFile := filepath.Join(dir, "sessions.json")
	b, err := json.Marshal(map[string]any{"sessions": []relay.Session{{ID: "s1", Executor: relay.ExecutorLocalPC, Workspace: ws,
		Agent: relay.AgentRef{URL: "http://" + agentAddr, Token: agentToken}}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sessionsFile, b, 0o600))
	env := soak.Env([]string{envMaxConnections, envBrowserToken})
	startRelay := func(name, addr string) *soak.Proc {
		return startProc(t, name, bins.Relay, []string{"-addr", addr, "-sessions", sessionsFile, "-db", dsn,
			"-insecure-no-browser-auth", "-replica-id", name}, env)
	}
	t.Cleanup(func() { assert.Empty(t, waitGone(marker, ""), "processes of the test left behind") })

	addrA, addrB := freeAddr(t), freeAddr(t)
	a := startRelay("a", addrA)
	c := openResuming(t, ctx, a.URL)
	c.call(t, ctx, "initialize", `{"processId":null,"rootUri":null,"capabilities":{}}`)
	server := serverPid(t, marker)

	// check resumes c through base — one request was sent before the
	// fault, its answer is read only on the new socket — and checks that
	// the same server answers.
	check := func(label string, base string, cameBack time.Time) {
		t.Helper()
		st := c.resume(t, ctx, base)
		t.Logf("%s: resumed %v after the path came back; %d of the browser's frames sent again, the agent had taken %d",
			label, time.Since(cameBack).Round(time.Millisecond), c.replayed, st.Received)
		answer := c.read(t, ctx)
		assert.Contains(t, answer, `"id":`+strconv.Itoa(c.next-1), "%s: the answer in flight arrives once, on the new socket", label)
		assert.Contains(t, c.call(t, ctx, "initialize", `{"processId":null,"rootUri":null,"capabilities":{}}`), `"error"`,
			"%s: the server is initialized already: no second initialize reached a new one", label)
		assert.Equal(t, server, serverPid(t, marker), "%s: the same server process", label)
	}

	// 1. SIGKILL, and a new relay on the same port once the agent holds the
	// server.
	c.send(t, ctx, "kandev/unknown", `{}`)
	a.Kill()
	waitHeld(t, ctx, agent.URL, agentToken) // the relay stays down until the agent holds the server
	a = startRelay("a2", addrA)
	check("relay killed and restarted", a.URL, time.Now())

	// 2. SIGTERM, as a deploy: the browser is told 1012, and the new
	// relay is up 0.1 s later.
	c.send(t, ctx, "kandev/unknown", `{}`)
	require.NoError(t, a.Stop(20*time.Second))
	assert.Equal(t, wire.CloseServiceRestart, c.closeCode(ctx), "a draining relay says it restarts")
	assert.Equal(t, map[string]string{"a2": "held"}, leasesOf(t, ctx, dsn, "a2", "a3"),
		"the drained stream's lease outlives its relay, held for the resume")
	a = startRelay("a3", addrA)
	check("relay stopped (SIGTERM) and started again", a.URL, time.Now())
	assert.Equal(t, map[string]string{"a3": "live"}, leasesOf(t, ctx, dsn, "a2", "a3"),
		"the resume took the held lease over: the stream is counted once, by the relay that carries it")

	// 3. Two replicas; the one in use is killed, the other is up all along.
	bb := startRelay("b", addrB)
	c.send(t, ctx, "kandev/unknown", `{}`)
	a.Kill()
	check("replica in use killed, the other one up", bb.URL, time.Now())

	// 4. The agent killed and started again: its servers are gone, and the
	// token with them.
	agent.Kill()
	assert.Empty(t, waitGone(marker, "rust-analyzer"), "the killed agent's server went with it")
	startAgent()
	cameBack := time.Now()
	code := c.resumeRefused(t, ctx, bb.URL)
	assert.Equal(t, wire.CloseResumeRefused, code, "the new agent holds nothing for the token")
	fresh := openResuming(t, ctx, bb.URL)
	fresh.call(t, ctx, "initialize", `{"processId":null,"rootUri":null,"capabilities":{}}`)
	t.Logf("agent killed and restarted: ready on a fresh server %v after the agent came back", time.Since(cameBack).Round(time.Millisecond))
	assert.NotEqual(t, server, serverPid(t, marker), "a new server")
	fresh.c.Close(websocket.StatusNormalClosure, "")
}

// leasesOf returns the live slot leases of the named replicas: replica →
// "live" or "held" (one stream each here).
func leasesOf(t *testing.T, ctx context.Context, dsn string, replicas ...string) map[string]string {
	t.Helper()
	pool, err := pgdb.Open(ctx, dsn)
	require.NoError(t, err)
	defer pool.Close()
	rows, err := pool.Query(ctx, `SELECT replica, held FROM kandev_lsp_slot_leases
		WHERE replica = ANY($1) AND expires_at > clock_timestamp()`, replicas)
	require.NoError(t, err)
	out := map[string]string{}
	for rows.Next() {
		var (
			replica string
			held    bool
		)
		require.NoError(t, rows.Scan(&replica, &held))
		out[replica] = map[bool]string{false: "live", true: "held"}[held]
	}
	require.NoError(t, rows.Err())
	return out
}

// resumingClient speaks the browser's side of the resume protocol: it
// keeps every data frame it sent and counts those it received, and after a
// fault dials again with the token and sends what the agent did not take.
type resumingClient struct {
	c        *websocket.Conn
	token    string
	sent     []string
	received uint64
	next     int // the next request id
	replayed int // frames sent again by the last resume
}

func openResuming(t *testing.T, ctx context.Context, base string) *resumingClient {
	t.Helper()
	c, _, err := websocket.Dial(ctx, streamURL(base), nil)
	require.NoError(t, err)
	c.SetReadLimit(wire.MaxMessageSize)
	rc := &resumingClient{c: c, next: 1}
	for {
		st, ok := rc.status(t, ctx)
		if ok && st.Status == wire.StatusReady {
			require.NotEmpty(t, st.Resume, "the ready frame carries a resume token")
			rc.token = st.Resume
			return rc
		}
	}
}

func streamURL(base string) string {
	return "ws" + strings.TrimPrefix(base, "http") + wire.RelayStreamPrefix + "s1?" + wire.ParamLanguage + "=" + string(wire.Rust)
}

// status reads one frame as a status frame.
func (rc *resumingClient) status(t *testing.T, ctx context.Context) (wire.Status, bool) {
	t.Helper()
	_, b, err := rc.c.Read(ctx)
	require.NoError(t, err)
	var st wire.Status
	return st, json.Unmarshal(b, &st) == nil && st.Status != ""
}

// send writes a request and keeps it for a resume.
func (rc *resumingClient) send(t *testing.T, ctx context.Context, method, params string) {
	t.Helper()
	f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, rc.next, method, params)
	rc.next++
	rc.sent = append(rc.sent, f)
	require.NoError(t, rc.c.Write(ctx, websocket.MessageText, []byte(f)))
}

// read returns the next data frame, skipping the agent's acks.
func (rc *resumingClient) read(t *testing.T, ctx context.Context) string {
	t.Helper()
	for {
		_, b, err := rc.c.Read(ctx)
		require.NoError(t, err)
		if wire.IsAckFrame(b) {
			continue
		}
		rc.received++
		return string(b)
	}
}

func (rc *resumingClient) call(t *testing.T, ctx context.Context, method, params string) string {
	t.Helper()
	rc.send(t, ctx, method, params)
	return rc.read(t, ctx)
}

// closeCode reads the current socket until it ends.
func (rc *resumingClient) closeCode(ctx context.Context) wire.CloseCode {
	return soak.CloseCode(ctx, rc.c)
}

func (rc *resumingClient) resumeURL(base string) string {
	return streamURL(base) + "&" + wire.ParamResume + "=" + rc.token + "&" + wire.ParamReceived + "=" + strconv.FormatUint(rc.received, 10)
}

// resume dials with the token until the relay answers (the path may still
// be coming back), reads the resumed frame and sends again what the agent
// had not taken.
func (rc *resumingClient) resume(t *testing.T, ctx context.Context, base string) wire.Status {
	t.Helper()
	_ = rc.c.CloseNow()
	c, _, err := websocket.Dial(ctx, rc.resumeURL(base), nil)
	require.NoError(t, err)
	c.SetReadLimit(wire.MaxMessageSize)
	rc.c = c
	st, ok := rc.status(t, ctx)
	require.True(t, ok)
	require.Equal(t, wire.StatusResumed, st.Status)
	require.NotEmpty(t, st.Resume)
	require.LessOrEqual(t, st.Received, uint64(len(rc.sent)))
	rc.token = st.Resume
	missed := rc.sent[st.Received:]
	rc.replayed = len(missed)
	for _, f := range missed {
		require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(f)))
	}
	return st
}

// resumeRefused dials with the token and returns the close code.
func (rc *resumingClient) resumeRefused(t *testing.T, ctx context.Context, base string) wire.CloseCode {
	t.Helper()
	_ = rc.c.CloseNow()
	c, _, err := websocket.Dial(ctx, rc.resumeURL(base), nil)
	require.NoError(t, err)
	defer c.CloseNow()
	return soak.CloseCode(ctx, c)
}

// serverPid is the one marked fake server's process id.
func serverPid(t *testing.T, marker string) int {
	t.Helper()
	var pids []int
	for _, pid := range soak.Marked("KANDEV_TEST_RUN", marker) {
		if strings.Contains(soak.Cmdline(pid), "rust-analyzer") {
			pids = append(pids, pid)
		}
	}
	require.Len(t, pids, 1, "one server runs")
	return pids[0]
}

// freeAddr is a loopback address nothing listens on now, for a process
// that must come back on the same one.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// waitHeld waits until the agent at base holds a server for a resume: it
// has seen its relay's socket lost.
func waitHeld(t *testing.T, ctx context.Context, base, token string) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		m, err := soak.Metrics(ctx, base, "/metrics", token)
		require.NoError(t, err)
		if m[`kandev_agent_servers_held{language="rust"}`] >= 1 {
			return
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("the agent never held the server")
		}
	}
}
