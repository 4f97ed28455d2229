//go:build unix

package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

var benchSizes = []struct {
	name string
	size int
}{{"200B", 200}, {"1MiB", 1 << 20}}

// BenchmarkRelayRoundTrip measures browser → relay → echo agent → relay →
// browser for one message at a time. Compare with BenchmarkAgentRoundTrip,
// the same echo without the relay hop, or read BenchmarkRelayOverhead,
// which runs both and reports the ratio.
func BenchmarkRelayRoundTrip(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			a := newFakeAgent(b)
			srv, _ := newRelay(b, Config{Sessions: StaticSessions(a.session("s"))})
			c, _ := openStream(b, srv, a)
			roundTrips(b, c, bs.size)
		})
	}
}

// BenchmarkAgentRoundTrip is the floor: the browser talks to the echo agent
// directly.
func BenchmarkAgentRoundTrip(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			c := dialAgentDirect(b, newFakeAgent(b))
			roundTrips(b, c, bs.size)
		})
	}
}

// BenchmarkRelayOverhead times relay + echo agent (the benchmark's ns/op
// and MB/s), then the echo agent alone for as many round trips, and
// reports both per round trip and their ratio (x-agent; the budget for
// relay + agent is 2× the agent alone, in the table of tools/bridgebench
// and docs/design.md).
func BenchmarkRelayOverhead(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			a := newFakeAgent(b)
			srv, _ := newRelay(b, Config{Sessions: StaticSessions(a.session("s"))})
			viaRelay, _ := openStream(b, srv, a)
			direct := dialAgentDirect(b, a)

			start := time.Now()
			roundTrips(b, viaRelay, bs.size)
			relayPer := float64(time.Since(start).Nanoseconds()) / float64(b.N)

			b.StopTimer()
			msg := []byte(strings.Repeat("x", bs.size))
			start = time.Now()
			for range b.N {
				roundTrip(b, direct, msg)
			}
			agentPer := float64(time.Since(start).Nanoseconds()) / float64(b.N)

			b.ReportMetric(relayPer/1e3, "relay-µs/rt")
			b.ReportMetric(agentPer/1e3, "agent-µs/rt")
			b.ReportMetric(relayPer/agentPer, "x-agent")
		})
	}
}

// dialAgentDirect opens a stream to the fake agent without the relay and
// reads its ready frame.
func dialAgentDirect(b *testing.B, a *fakeAgent) *websocket.Conn {
	u, err := agentStreamURL(a.url(), streamParams{language: "go"})
	require.NoError(b, err)
	c, _, err := websocket.Dial(context.Background(), u, &websocket.DialOptions{
		HTTPClient: testClient,
		HTTPHeader: map[string][]string{"Authorization": {"Bearer " + a.token}},
	})
	require.NoError(b, err)
	b.Cleanup(func() { _ = c.CloseNow() })
	c.SetReadLimit(wire.MaxMessageSize)
	_, _, err = c.Read(context.Background()) // ready
	require.NoError(b, err)
	return c
}

// roundTrips is the timed loop: SetBytes makes it print MB/s (one way).
func roundTrips(b *testing.B, c *websocket.Conn, size int) {
	msg := []byte(strings.Repeat("x", size))
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		roundTrip(b, c, msg)
	}
}

func roundTrip(b *testing.B, c *websocket.Conn, msg []byte) {
	ctx := context.Background()
	if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
		b.Fatal(err)
	}
	_, got, err := c.Read(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if len(got) != len(msg) {
		b.Fatalf("echo of %d bytes came back as %d", len(msg), len(got))
	}
}

// BenchmarkRealAgent is the real path: browser → relay → kandev-agent →
// cat as the language server, and back; and the same agent dialled
// directly. The agent adds Content-Length framing on stdio and strips it.
func BenchmarkRealAgent(b *testing.B) {
	r := newRealAgentRelay(b, "exec cat\n")
	viaRelay := r.open(b)
	agent := r.owned(b, "s")
	u, err := agentStreamURL(agent.Agent.URL, streamParams{language: "go"})
	require.NoError(b, err)
	direct, _, err := websocket.Dial(context.Background(), u, &websocket.DialOptions{
		HTTPClient: testClient,
		HTTPHeader: map[string][]string{"Authorization": {"Bearer " + agent.Agent.Token}},
	})
	require.NoError(b, err)
	b.Cleanup(func() { _ = direct.CloseNow() })
	direct.SetReadLimit(wire.MaxMessageSize)
	_, _, err = direct.Read(context.Background()) // ready
	require.NoError(b, err)

	for _, bs := range benchSizes {
		body := `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("x", max(0, bs.size-40)) + `"}`
		for _, path := range []struct {
			name string
			c    *websocket.Conn
		}{{"relay+agent", viaRelay}, {"agent", direct}} {
			b.Run(path.name+"/"+bs.name, func(b *testing.B) {
				msg := []byte(body)
				b.SetBytes(int64(len(msg)))
				b.ReportAllocs()
				for b.Loop() {
					roundTrip(b, path.c, msg)
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/rt")
			})
		}
	}
}
