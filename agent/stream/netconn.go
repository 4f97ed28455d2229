package stream

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// hijackCapture hands websocket.Accept the connection as usual and keeps
// the net.Conn, so each socket write can be bounded with SetWriteDeadline.
//
// The alternative, a context.WithTimeout per write, costs a timer, a
// context and an AfterFunc registration per message, and coder/websocket
// closes the whole connection when such a context ends. A deadline on the
// connection is one runtime timer per session, reset in place.
type hijackCapture struct {
	http.ResponseWriter
	conn net.Conn
}

// Hijack implements http.Hijacker through the wrapped writer.
func (h *hijackCapture) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	h.conn = c
	return c, rw, err
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (h *hijackCapture) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// socket is the accepted WebSocket and the bound on each of its writes.
type socket struct {
	ws      *websocket.Conn
	raw     net.Conn // nil if the server's writer could not be captured
	timeout time.Duration
	// writeMu serialises write: two writers (the stdout forwarder and the
	// files forwarder) share the connection's one write deadline, and one
	// must not clear it under the other's write.
	writeMu sync.Mutex
}

// arm starts the write deadline for the next write and returns the context
// to write with; call done after the write. done clears the deadline again:
// a deadline left armed would expire while the session idles and then fail
// the library's own later writes (the pong to a peer's ping), which it
// bounds by itself.
func (s *socket) arm() (ctx context.Context, done func()) {
	if s.raw != nil {
		_ = s.raw.SetWriteDeadline(time.Now().Add(s.timeout))
		return context.Background(), s.disarm // no per-write timer in the library
	}
	// The server's writer could not be captured (not net/http's server):
	// fall back to the library's context bound.
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	return ctx, cancel
}

func (s *socket) disarm() { _ = s.raw.SetWriteDeadline(time.Time{}) }

// write sends one text message within the write timeout.
func (s *socket) write(b []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx, done := s.arm()
	defer done()
	return s.ws.Write(ctx, websocket.MessageText, b)
}

// close sends a close frame with code and an empty reason; the frame write
// is bounded like any other (the library also bounds the wait for the
// peer's answer). closeNow drops the connection without a frame.
func (s *socket) close(code websocket.StatusCode) error {
	if code == closeNow {
		return s.ws.CloseNow()
	}
	_, done := s.arm()
	defer done()
	return s.ws.Close(code, "")
}

// socketBuffer is the kernel buffer asked for in each direction. The
// kernel's autotuning starts small, and a megabyte message then crosses in
// many wake-ups of writer and reader; buffer memory is only committed as
// data is queued, so an idle connection does not pay for it.
const socketBuffer = 4 << 20

// tuneSocket sizes a TCP connection's buffers; best effort.
func tuneSocket(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(socketBuffer)
		_ = tc.SetReadBuffer(socketBuffer)
	}
}
