package connlimit

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Over the bound, a client's next connection is closed at accept (the
// client reads EOF) while its open ones stay; closing one frees a slot.
func TestPerClientBound(t *testing.T) {
	t.Parallel()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := make(chan net.Addr, 10)
	ln := Listen(raw, Options{PerClient: 3, Refused: func(a net.Addr) { refused <- a }})
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", raw.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	var server []net.Conn
	for range 3 {
		dial()
		select {
		case c := <-accepted:
			server = append(server, c)
		case <-time.After(10 * time.Second):
			t.Fatal("a connection within the bound was not accepted")
		}
	}

	over := dial()
	select {
	case <-refused:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection over the bound was not refused")
	}
	requireEOF(t, over)
	require.Empty(t, accepted, "nothing over the bound reaches the server")

	// A slot freed by the server's Close (once, however often it is
	// closed) admits the next connection.
	require.NoError(t, server[0].Close())
	_ = server[0].Close()
	dial()
	select {
	case c := <-accepted:
		t.Cleanup(func() { c.Close() })
	case <-time.After(10 * time.Second):
		t.Fatal("a freed slot was not reused")
	}
	over = dial()
	<-refused
	requireEOF(t, over)
}

// requireEOF reads from c until the peer's close shows, within a deadline.
func requireEOF(t *testing.T, c net.Conn) {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the connection was left open")
	require.Error(t, err)
	if !errors.Is(err, io.EOF) {
		// A reset is a close too.
		require.ErrorContains(t, err, "reset")
	}
}

func TestClientIP(t *testing.T) {
	t.Parallel()
	a := clientIP(&net.TCPAddr{IP: net.ParseIP("::ffff:10.0.0.1"), Port: 1})
	b := clientIP(&net.TCPAddr{IP: net.ParseIP("10.0.0.1"), Port: 2})
	require.Equal(t, a, b)
	require.NotEqual(t, a, clientIP(&net.TCPAddr{IP: net.ParseIP("10.0.0.2"), Port: 1}))
	require.Equal(t, clientIP(&net.UnixAddr{Name: "x"}), clientIP(&net.UnixAddr{Name: "y"}))
}
