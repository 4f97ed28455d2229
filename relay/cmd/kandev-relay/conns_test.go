package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// closedByPeer reports whether the next read on c shows the server's close
// (EOF or reset) rather than the deadline.
func closedByPeer(c net.Conn, within time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(within))
	_, err := bufio.NewReader(c).ReadByte()
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// A peer without the browser token cannot hold connections: each refused
// request's connection is closed by the relay at once, and one address
// holds at most -max-client-connections connections (silent ones
// included); the next is closed at accept and a closed one frees its slot.
func TestRelayConnectionBounds(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "s.db"), []string{"KANDEV_RELAY_BROWSER_TOKEN=tok"}, "-max-client-connections", "4")
	defer s.stop()
	addr := strings.TrimPrefix(s.base, "http://")
	dialFrom := func(local string) net.Conn {
		d := net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
		c, err := d.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial := func() net.Conn { return dialFrom("127.0.0.1") }

	// The refused request comes from another loopback address: after its
	// response net/http half-closes the connection and keeps it for half
	// a second (its reset avoidance), and the slot with it, which would
	// otherwise count against the address whose bound is checked below.
	refused := dialFrom("127.0.0.2")
	_, err := io.WriteString(refused, "GET /api/v1/user/settings HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, refused.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(refused), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.True(t, closedByPeer(refused, 10*time.Second), "the relay closed the refused connection")

	held := []net.Conn{dial(), dial(), dial(), dial()}
	over := dial()
	require.True(t, closedByPeer(over, 10*time.Second), "the fifth connection of one address is closed at accept")
	held[0].Close()
	// The slot is free once the relay has seen the close; a new
	// connection then stays open and is served.
	require.Eventually(t, func() bool {
		c := dial()
		defer c.Close()
		_, err := io.WriteString(c, "GET /api/v1/user/settings HTTP/1.1\r\nHost: "+addr+"\r\nAuthorization: Bearer tok\r\n\r\n")
		if err != nil {
			return false
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 20*time.Second, 50*time.Millisecond, "a closed connection frees its slot")
}
