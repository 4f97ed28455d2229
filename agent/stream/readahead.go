package stream

import (
	"sync"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
)

// Bounds on what a peer may send while its server is being installed:
// messages are kept for the bridge, so they cost memory until it starts.
// An LSP client sends nothing but initialize before the server answers it,
// so a legitimate backlog is one message, at most one of the largest.
const (
	maxBacklogBytes    = wire.MaxMessageSize
	maxBacklogMessages = 256
)

// readAhead reads the socket while a server is installed. It is how the
// install notices a browser that leaves — the read ends with the socket,
// and the install is cancelled — and how the peer's pings and pongs keep
// flowing. The messages it reads are kept, in order, and the bridge
// forwards them first: a client may send initialize as soon as it sees
// "installing", and that message is neither lost nor raced by a second
// reader, so the first read of the stream is the bridge's first inbound
// frame, as the spec has it.
//
// Reading on after a kept message is what keeps a disconnect visible: a
// single read that had taken a message would leave nobody to see the peer
// go, and the install would run on for nobody. A peer that keeps more than
// maxBacklogBytes or maxBacklogMessages waiting ends the stream with 1009,
// like an oversized message.
type readAhead struct {
	mu       sync.Mutex
	kept     []inbound // oldest first; an end (buf nil) is always last
	bytes    int
	handoff  bool          // the bridge waits: stop after the read in progress
	ready    chan struct{} // one slot: kept changed
	ended    chan struct{} // closed when the stream's end was read
	returned chan struct{} // closed when the read loop has returned
}

// startReadAhead starts reading. The socket closing always ends it, so
// every path that closes the socket may wait for it.
func (s *session) startReadAhead() *readAhead {
	r := &readAhead{ready: make(chan struct{}, 1), ended: make(chan struct{}), returned: make(chan struct{})}
	go r.loop(s)
	s.ahead = r
	return r
}

// loop reads until the stream ends or the bridge takes over.
func (r *readAhead) loop(s *session) {
	defer close(r.returned)
	for {
		in := s.readInbound()
		r.mu.Lock()
		if in.buf != nil {
			r.bytes += in.buf.Len()
			if r.bytes > maxBacklogBytes || len(r.kept) >= maxBacklogMessages {
				putBuf(in.buf)
				in = inbound{code: websocket.StatusMessageTooBig}
			}
		}
		r.kept = append(r.kept, in)
		end := in.buf == nil
		if end {
			close(r.ended)
		}
		stop := end || r.handoff
		r.mu.Unlock()
		select {
		case r.ready <- struct{}{}:
		default:
		}
		if stop {
			return
		}
	}
}

// endCode reports how the stream ended, if the read loop saw it end.
func (r *readAhead) endCode() (websocket.StatusCode, bool) {
	select {
	case <-r.ended:
	default:
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kept[len(r.kept)-1].code, true
}

// next hands the bridge the oldest kept message. Once nothing is kept it
// asks the loop to stop after the read in progress and waits for that
// read; ok is false when the loop has returned with nothing left, and the
// bridge reads the socket itself from then on.
func (r *readAhead) next() (in inbound, ok bool) {
	for {
		r.mu.Lock()
		if len(r.kept) > 0 {
			in = r.kept[0]
			r.kept[0] = inbound{}
			r.kept = r.kept[1:]
			if in.buf != nil {
				r.bytes -= in.buf.Len()
			}
			r.mu.Unlock()
			return in, true
		}
		select {
		case <-r.returned:
			r.mu.Unlock()
			return inbound{}, false
		default:
		}
		r.handoff = true
		r.mu.Unlock()
		select {
		case <-r.ready:
		case <-r.returned:
		}
	}
}

// drain waits for the loop, after the socket was closed, and returns the
// buffers of every message nobody forwarded.
func (r *readAhead) drain() {
	<-r.returned
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, in := range r.kept {
		if in.buf != nil {
			putBuf(in.buf)
		}
	}
	r.kept = nil
}

// dropReadAhead drains the read-ahead, if any, after the socket was
// closed: whatever the bridge did not forward goes back to the pool, and
// the session ends with no goroutine of its own still running.
func (s *session) dropReadAhead() {
	if r := s.ahead; r != nil {
		s.ahead = nil
		r.drain()
	}
}
