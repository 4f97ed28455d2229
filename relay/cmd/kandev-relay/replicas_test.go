//go:build linux

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/tools/pgtest"
	"github.com/kandev/lsp/tools/soak"
)

// The lease bound of the replica test: short, so that a killed replica's
// slots come back within a test's patience.
const (
	testLeaseTTL  = 3 * time.Second
	testHeartbeat = 500 * time.Millisecond
)

// Two kandev-relay processes on one PostgreSQL, with a cap of 3 between
// them: four streams give exactly one 4005, and nothing is started for
// it; after the replica holding two slots is killed with SIGKILL, its
// agents die with it and two new streams are admitted within the lease
// bound. At the end no process of the test is left.
func TestGlobalCapAcrossReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs the relay, the agent and the fake server")
	}
	dsn := pgtest.Database(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bins, err := soak.Build(ctx, filepath.Join(dir, "bin"))
	require.NoError(t, err)

	// The fake language server stands in for rust-analyzer on the agents'
	// PATH; each session is a local_pc task whose agent the relay starts.
	fakeDir := rustFake(t, dir, bins.Fake)
	var sessions []relay.Session
	for i := 1; i <= 6; i++ {
		ws := filepath.Join(dir, fmt.Sprintf("ws-%d", i))
		require.NoError(t, os.Mkdir(ws, 0o755))
		sessions = append(sessions, relay.Session{ID: fmt.Sprintf("s%d", i), Executor: relay.ExecutorLocalPC, Workspace: ws})
	}
	sessionsFile := filepath.Join(dir, "sessions.json")
	b, err := json.Marshal(map[string]any{"sessions": sessions})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sessionsFile, b, 0o600))

	// The marker finds the test's processes: the relays pass it to the
	// agents they start, and those to their servers (-agent-pass-env).
	marker := randomHex()
	env := soak.Env([]string{"PATH", envMaxConnections, envBrowserToken},
		"PATH="+fakeDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		envMaxConnections+"=3", "KANDEV_TEST_RUN="+marker)
	startRelay := func(name string) *soak.Proc {
		return startProc(t, name, bins.Relay, []string{"-addr", "127.0.0.1:0", "-sessions", sessionsFile, "-db", dsn,
			"-agent-binary", bins.Agent, "-agent-pass-env", "KANDEV_TEST_RUN", "-insecure-no-browser-auth", "-replica-id", name,
			"-lease-ttl", testLeaseTTL.String(), "-lease-heartbeat", testHeartbeat.String()}, env)
	}
	// Registered first, so it runs after the relays are stopped.
	t.Cleanup(func() { assert.Empty(t, waitGone(marker, ""), "processes of the test left behind") })
	a, bb := startRelay("a"), startRelay("b")

	open := func(p *soak.Proc, session string) (*websocket.Conn, wire.CloseCode) {
		t.Helper()
		c, code, err := soak.Open(ctx, p.URL, session, wire.Rust)
		require.NoError(t, err, session)
		if c != nil {
			t.Cleanup(func() { _ = c.CloseNow() })
		}
		return c, code
	}
	for _, o := range []struct {
		p *soak.Proc
		s string
	}{{a, "s1"}, {a, "s2"}, {bb, "s3"}} {
		_, code := open(o.p, o.s)
		require.Zero(t, code, "%s on %s admitted", o.s, o.p.Name)
	}
	_, code := open(bb, "s4")
	assert.Equal(t, wire.CloseCapacity, code, "the fourth stream, on the other replica, is over the global cap")

	mb := scrape(t, ctx, bb)
	assert.Equal(t, 1.0, mb[`kandev_relay_stream_refusals_total{code="4005"}`])
	assert.Equal(t, 1.0, mb["kandev_relay_agents_running"], "b started s3's agent only")
	assert.Equal(t, 3.0, mb["kandev_relay_capacity_in_use_global"])
	assert.Equal(t, 2.0, mb[`kandev_relay_capacity_in_use{replica="a"}`])
	assert.Equal(t, 1.0, mb[`kandev_relay_capacity_in_use{replica="b"}`])
	assert.Equal(t, 3.0, mb["kandev_relay_capacity_max"])
	assert.Empty(t, agentsOf(marker, "ws-4"), "nothing started for the refused stream")
	require.NotEmpty(t, agentsOf(marker, "ws-1"))

	// SIGKILL: no shutdown, no lease released. The agents a started die
	// with it (their parent-death signal) and reap their servers.
	a.Kill()
	killed := time.Now()
	assert.Empty(t, waitGone(marker, "ws-1"), "a's agent for s1 outlived it")
	assert.Empty(t, waitGone(marker, "ws-2"), "a's agent for s2 outlived it")

	// a's two slots come back when its leases expire: until then b
	// refuses with 4005, within the bound it admits both.
	var freed time.Duration
	for _, s := range []string{"s5", "s6"} {
		for {
			_, code := open(bb, s)
			if code == 0 {
				break
			}
			require.Equal(t, wire.CloseCapacity, code)
			require.Less(t, time.Since(killed), testLeaseTTL+5*time.Second, "%s never admitted", s)
			time.Sleep(100 * time.Millisecond) // polling the cap, with a deadline
		}
		freed = time.Since(killed)
	}
	t.Logf("a's slots free %v after SIGKILL (lease TTL %v)", freed.Round(time.Millisecond), testLeaseTTL)
	assert.LessOrEqual(t, freed, testLeaseTTL+time.Second, "within the lease bound")
	mb = scrape(t, ctx, bb)
	assert.Equal(t, 3.0, mb["kandev_relay_capacity_in_use_global"])
	assert.Equal(t, 3.0, mb[`kandev_relay_capacity_in_use{replica="b"}`])
	assert.NotContains(t, mb, `kandev_relay_capacity_in_use{replica="a"}`)
}

// rustFake puts the fake language server in a folder of dir as
// rust-analyzer, for the agents' PATH, and returns the folder.
func rustFake(t *testing.T, dir, fake string) string {
	t.Helper()
	d := filepath.Join(dir, "servers")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Symlink(fake, filepath.Join(d, "rust-analyzer")))
	return d
}

// startProc starts one of the test's programs; cleanup stops it (SIGTERM)
// unless it has exited, and shows its output when the test failed.
func startProc(t *testing.T, name, bin string, args, env []string) *soak.Proc {
	t.Helper()
	p, err := soak.Start(name, bin, args, env)
	require.NoError(t, err)
	t.Cleanup(func() {
		if !p.Exited() {
			assert.NoError(t, p.Stop(20*time.Second))
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.Output())
		}
	})
	return p
}

func scrape(t *testing.T, ctx context.Context, p *soak.Proc) map[string]float64 {
	t.Helper()
	m, err := soak.Metrics(ctx, p.URL, relay.MetricsPath, "")
	require.NoError(t, err)
	return m
}

// agentsOf returns the marked processes whose command line names the
// workspace ws (its agent, and servers started in it with it in their
// arguments).
func agentsOf(marker, ws string) []string {
	var out []string
	for _, pid := range soak.Marked("KANDEV_TEST_RUN", marker) {
		if cmd := soak.Cmdline(pid); strings.Contains(cmd, ws) {
			out = append(out, fmt.Sprintf("%d %s", pid, cmd))
		}
	}
	return out
}

// waitGone waits up to 15 s for the marked processes naming ws ("" for
// all) to exit, and returns those still running.
func waitGone(marker, ws string) []string {
	deadline := time.Now().Add(15 * time.Second)
	for {
		left := agentsOf(marker, ws)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond) // polling process exit, with a deadline
	}
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
