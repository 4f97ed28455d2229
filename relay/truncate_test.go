package relay

import (
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// rawAgent answers the WebSocket upgrade by hand and then writes the given
// raw bytes and drops the TCP connection, to produce frame sequences the
// coder/websocket API cannot (a message cut between two of its frames).
func rawAgent(t *testing.T, raw []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
			"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n\r\n")
		_, _ = brw.Write(raw)
		_ = brw.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A connection that ends between two frames of a message must not reach the
// browser as a complete (truncated) message: the browser sees only 4002.
func TestAgentDropBetweenFramesIsNotAMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		raw  []byte
	}{
		{"after first fragment", []byte{0x01, 3, '{', '"', 'a'}},
		{"after frame header", []byte{0x81, 3}},
		{"after continuation", []byte{0x01, 1, '{', 0x00, 1, '"'}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent := rawAgent(t, append([]byte{0x81, 2, '{', '}'}, tc.raw...))
			srv, h := newRelay(t, Config{Sessions: StaticSessions(Session{
				ID: "s", Executor: ExecutorLocalPC, Agent: AgentRef{URL: agent.URL, Token: testToken}})})
			b, _, err := dialBrowser(testCtx(t), streamURL(srv, "s", "go"), nil)
			require.NoError(t, err)
			defer b.CloseNow()
			_, got, err := b.Read(testCtx(t))
			require.NoError(t, err)
			assert.Equal(t, "{}", string(got), "the complete message before the cut passes")
			// The very next read is the close: no fragment of the cut message.
			_, cut, err := b.Read(testCtx(t))
			require.Error(t, err, "a cut message reached the browser as %q", cut)
			var ce websocket.CloseError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, websocket.StatusCode(wire.CloseUnavailable), ce.Code)
			assert.Empty(t, ce.Reason)
			waitIdle(t, h)
		})
	}
}
