package stream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/proc"
	"github.com/kandev/lsp/internal/wire"
)

// bufPool holds the buffers socket messages are read into. Pooling across
// sessions keeps idle connections free of buffers; maxPooled keeps one
// giant message from pinning its buffer for good.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooled = 4 << 20

// inbound is one message read from the peer, or why there is none.
type inbound struct {
	// buf holds the message (from bufPool; hand it back with putBuf), or
	// is nil when the read ended the stream.
	buf *bytes.Buffer
	// code is how the stream ends when buf is nil.
	code websocket.StatusCode
}

// readInbound reads the next message from the peer into a pooled buffer.
func (s *session) readInbound() inbound {
	s.reading.Store(true)
	defer s.reading.Store(false)
	// No context: the socket closing (by the peer or by teardown) is what
	// ends this read, and a cancelled read context would make the library
	// drop the connection without a close frame.
	sock := s.socket()
	if sock == nil {
		return inbound{code: closeNow} // teardown took it
	}
	_, r, err := sock.ws.Reader(context.Background())
	if err != nil {
		sock.peerClosed(err)
		return inbound{code: closeNow} // the peer closed or the socket failed
	}
	s.heard.Add(1)
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	n, err := buf.ReadFrom(io.LimitReader(r, wire.MaxMessageSize+1))
	switch {
	case err != nil: // the socket failed mid-message
		putBuf(buf)
		return inbound{code: closeNow}
	case n > wire.MaxMessageSize:
		putBuf(buf)
		return inbound{code: websocket.StatusMessageTooBig}
	}
	return inbound{buf: buf}
}

// putBuf returns a message buffer to the pool unless it grew too large.
func putBuf(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooled {
		bufPool.Put(buf)
	}
}

// socketToStdin forwards each socket message to stdin as one Content-Length
// frame. The first messages are those the install's read-ahead kept, if
// there was an install (see readAhead); run drains whatever of them is
// left once the bridge has torn down. It returns the close code for how
// it ended.
func (s *session) socketToStdin(p *proc.Process) websocket.StatusCode {
	ahead := s.ahead
	for {
		var in inbound
		if ahead != nil {
			var ok bool
			if in, ok = ahead.next(); !ok {
				ahead = nil
				continue
			}
		} else {
			in = s.readInbound()
		}
		if in.buf == nil {
			if in.code == closeNow && s.hold(p) {
				ahead = nil // a resume's socket is read directly
				continue
			}
			return in.code
		}
		frame := in.buf.Bytes()
		switch {
		case wire.IsHeartbeatFrame(frame):
			// The browser checking the whole path: answered here, at once,
			// with how much arrived, and never a message for the server.
			sock := s.socket()
			if sock == nil {
				putBuf(in.buf)
				return closeNow // teardown took it
			}
			err := sock.write(frame)
			putBuf(in.buf)
			if err == nil && s.acks {
				err = s.ack(sock)
			}
			if err != nil {
				s.logger.Debug("socket write", "err", err)
				_ = sock.ws.CloseNow() // the next read ends, and may hold
			}
			continue
		case wire.IsAckFrame(frame):
			if n, ok := wire.AckNumber(frame); ok {
				s.acked(n)
			}
			putBuf(in.buf)
			continue
		}
		// Counted before the write: once the server has the bytes it may
		// answer, and a scrape that saw the answer must see what caused it.
		s.h.cfg.Metrics.Relayed(true, in.buf.Len())
		ok := s.writeStdin(p, frame)
		putBuf(in.buf)
		if !ok {
			return websocket.StatusCode(wire.CloseServerExited)
		}
		if n := s.received.Add(1); s.acks && n%wire.AckEvery == 0 {
			if sock := s.socket(); sock != nil && s.ack(sock) != nil {
				_ = sock.ws.CloseNow()
			}
		}
	}
}

// writeStdin writes one frame within the stdin timeout and reports whether
// it succeeded. A stalled or closed stdin is a proxy stream failure (4006);
// teardown then closes stdin and stops the process.
func (s *session) writeStdin(p *proc.Process, body []byte) bool {
	s.stdinLock <- struct{}{}
	defer func() { <-s.stdinLock }()
	_ = p.Stdin().SetWriteDeadline(time.Now().Add(s.h.cfg.StdinWriteTimeout))
	if err := s.stdinW.Write(body); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			s.logger.Warn("language server stdin stalled", "timeout", s.h.cfg.StdinWriteTimeout)
		} else {
			s.logger.Debug("stdin write", "err", err)
		}
		return false
	}
	return true
}

// stdoutToSocket forwards each stdout frame as one text message, each write
// bounded by the write timeout so a slow peer cannot pin the session.
//
// A message is sent once it has fully arrived, as one frame: forwarding a
// large body as it arrives (a fragmented message) was measured and gained
// nothing at 1 MiB, since the copies through the kernel, not the waiting,
// dominate.
func (s *session) stdoutToSocket(p *proc.Process) websocket.StatusCode {
	r := framing.NewReader(p.Stdout())
	for {
		body, err := r.Read()
		if err != nil {
			// EOF: the server closed stdout (it exited). Anything else is
			// a framing violation we cannot resynchronise from. Both end the
			// stream as a server failure.
			if !errors.Is(err, io.EOF) {
				s.logger.Warn("language server stdout", "err", err)
			}
			return websocket.StatusCode(wire.CloseServerExited)
		}
		if s.ending.Load() {
			continue // draining: the server may be answering our shutdown
		}
		// Counted before the write, for the same reason as stdin's.
		s.h.cfg.Metrics.Relayed(false, len(body))
		// A failed write drops the socket; its reader decides whether the
		// stream ends or is held, and stdout goes on being read meanwhile.
		s.send(body)
	}
}
