package stream

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
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

	closeOnce sync.Once
	code      int          // the first close's code (see closedWith)
	peer      atomic.Int32 // the code of the peer's close frame, 0 if none came
	// writeMu serialises write: two writers (the stdout forwarder and the
	// files forwarder) share the connection's one write deadline, and one
	// must not clear it under the other's write.
	writeMu sync.Mutex
	// released is closed when the stream is done with the socket: the
	// request that brought it may return (release).
	released    chan struct{}
	releaseOnce sync.Once
}

// release tells the request that brought the socket that the stream no
// longer uses it.
func (s *socket) release() { s.releaseOnce.Do(func() { close(s.released) }) }

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
	s.closeOnce.Do(func() {
		s.code = int(code)
		if code == closeNow {
			// The peer closed first (its code), or is gone: 1006.
			s.code = int(websocket.StatusAbnormalClosure)
			if p := s.peer.Load(); p != 0 {
				s.code = int(p)
			}
		}
	})
	if code == closeNow {
		return s.ws.CloseNow()
	}
	_, done := s.arm()
	defer done()
	return s.ws.Close(code, "")
}

// peerClosed records the code of the peer's close frame when err carries
// one.
func (s *socket) peerClosed(err error) {
	if c := websocket.CloseStatus(err); c > 0 {
		s.peer.CompareAndSwap(0, int32(c))
	}
}

// closedWith is the code the stream ended with, for metrics: the agent's
// close code, the peer's when the peer closed first, 1006 for a peer that
// vanished; 0 if the socket was never closed. Read it after the session.
func (s *socket) closedWith() int {
	s.closeOnce.Do(func() {}) // orders the read after a close's write
	return s.code
}

// socketBuffer is the kernel buffer asked for in each direction. The
// kernel's autotuning starts small, and a megabyte message then crosses in
// many wake-ups of writer and reader; buffer memory is only committed as
// data is queued, so an idle connection does not pay for it.
const socketBuffer = 4 << 20

// tuneSocket sizes a TCP connection's buffers; best effort.
func tuneSocket(c net.Conn) {
	// A listener wrapper (connlimit) hands out its own net.Conn; the
	// TCP connection is behind NetConn, as with tls.Conn.
	for {
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = u.NetConn()
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(socketBuffer)
		_ = tc.SetReadBuffer(socketBuffer)
	}
}
