package relay

import (
	"context"
	"strings"
	"testing"

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
// the same echo without the relay hop.
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
			a := newFakeAgent(b)
			u, err := agentStreamURL(a.url(), "go", false)
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
			roundTrips(b, c, bs.size)
		})
	}
}

func roundTrips(b *testing.B, c *websocket.Conn, size int) {
	ctx := context.Background()
	msg := []byte(strings.Repeat("x", size))
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		_, got, err := c.Read(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != size {
			b.Fatalf("echo of %d bytes came back as %d", size, len(got))
		}
	}
}
