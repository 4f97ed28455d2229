package relay

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// rawBrowser completes a WebSocket handshake with the relay by hand and
// then never reads: a browser tab that has stalled.
func rawBrowser(t *testing.T, srvURL, path string) net.Conn {
	t.Helper()
	host := strings.TrimPrefix(srvURL, "http://")
	c, err := net.Dial("tcp", host)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	_, err = fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host, base64.StdEncoding.EncodeToString(key))
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	return c
}

// A browser that stops reading cannot pin the relay: once the socket
// buffers are full, a write to it outlasts the (shortened) write deadline,
// the relay drops the browser and closes the agent with 1001.
func TestStalledBrowser(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	flood := make([]byte, 1<<20)
	for i := range flood {
		flood[i] = 'x'
	}
	// The agent writes until its stream fails, reading on the side so it
	// sees the relay's close frame.
	a.script = func(ctx context.Context, ws *websocket.Conn) error {
		readErr := make(chan error, 1)
		go func() {
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					readErr <- err
					return
				}
			}
		}()
		for {
			if err := ws.Write(ctx, websocket.MessageText, flood); err != nil {
				break
			}
		}
		return <-readErr
	}
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(a.session("s")), writeTimeout: 100 * time.Millisecond})

	_ = rawBrowser(t, srv.URL, wire.RelayStreamPrefix+"s?language=go")
	ac := a.next(t)
	err := ac.ended(t)
	assert.Equal(t, websocket.StatusCode(wire.ClosePathLost), websocket.CloseStatus(err),
		"a stalled browser's path is lost: the agent holds for a resume (agent end: %v)", err)
	waitIdle(t, rl)
}
