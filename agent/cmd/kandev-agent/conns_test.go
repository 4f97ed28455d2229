//go:build linux

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// rawConn dials the agent at base from the local address from ("" for
// any), over plain TCP.
func rawConn(t *testing.T, base, from string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 10 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// request sends one GET of the file listing on c, with tok unless empty,
// and reads the answer.
func request(t *testing.T, c net.Conn, br *bufio.Reader, tok string) *http.Response {
	t.Helper()
	req := "GET " + wire.AgentFilesPath + " HTTP/1.1\r\nHost: agent\r\n"
	if tok != "" {
		req += "Authorization: Bearer " + tok + "\r\n"
	}
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err := io.WriteString(c, req+"\r\n")
	require.NoError(t, err)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// closedByPeer reports whether the next read on c shows the agent's close
// (EOF or reset) rather than the deadline.
func closedByPeer(c net.Conn, br *bufio.Reader, within time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(within))
	_, err := br.ReadByte()
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// A request without the token is answered 401 with "Connection: close"
// and the agent closes the connection right after: a peer cannot keep
// refused connections open (the idle timeout, 30 s, is far beyond the
// deadline here). With the token, the connection stays for the next
// request.
func TestRefusedConnectionClosed(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, base := startBinary(t, ctx, build(t), t.TempDir(), []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, nil)

	type peer struct {
		c  net.Conn
		br *bufio.Reader
	}
	var peers []peer
	for range 20 {
		c := rawConn(t, base, "")
		peers = append(peers, peer{c, bufio.NewReader(c)})
	}
	for _, tok := range []string{"", "wrong"} {
		for _, p := range peers[:10] {
			resp := request(t, p.c, p.br, tok)
			require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			require.True(t, resp.Close, `"Connection: close" (ReadResponse moves it to Close)`)
			require.True(t, closedByPeer(p.c, p.br, 5*time.Second), "the agent closed the refused connection")
		}
		peers = peers[10:]
		if tok == "" {
			for i := range peers {
				c := rawConn(t, base, "")
				peers[i] = peer{c, bufio.NewReader(c)}
			}
			peers = append(peers, peers...)
		}
	}

	ok := rawConn(t, base, "")
	br := bufio.NewReader(ok)
	for range 3 {
		resp := request(t, ok, br, "tok")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.False(t, resp.Close)
	}
}

// One client address holds at most -max-client-connections connections:
// silent connections up to the bound stay open (and serve a request), the
// next one is closed at accept, another address is not affected, and a
// closed connection frees its slot.
func TestPerClientConnectionBound(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, base := startBinary(t, ctx, build(t), t.TempDir(), []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, nil,
		"-max-client-connections", "8")

	held := make([]net.Conn, 8)
	for i := range held {
		held[i] = rawConn(t, base, "127.0.0.1")
	}
	// Accepted in order: the ninth comes after the eight.
	over := rawConn(t, base, "127.0.0.1")
	require.True(t, closedByPeer(over, bufio.NewReader(over), 10*time.Second), "over the bound: closed at accept")
	for _, c := range held {
		resp := request(t, c, bufio.NewReader(c), "tok")
		require.Equal(t, http.StatusOK, resp.StatusCode, "within the bound: open and served")
	}
	other := rawConn(t, base, "127.0.0.2")
	require.Equal(t, http.StatusOK, request(t, other, bufio.NewReader(other), "tok").StatusCode, "another client has its own bound")

	require.NoError(t, held[0].Close())
	require.Eventually(t, func() bool {
		c := rawConn(t, base, "127.0.0.1")
		br := bufio.NewReader(c)
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET "+wire.AgentFilesPath+" HTTP/1.1\r\nHost: agent\r\nAuthorization: Bearer tok\r\n\r\n"); err != nil {
			return false
		}
		resp, err := http.ReadResponse(br, nil)
		return err == nil && resp.StatusCode == http.StatusOK
	}, 10*time.Second, 20*time.Millisecond, "a closed connection's slot is free again")
}
