// Package transport adapts callback-driven sockets, such as the browser's
// WebSocket, to the pull-style jsonrpc.Transport.
//
// Browser callbacks run on the JavaScript event loop and must never block
// (a blocked callback stalls the whole page), so Inbox.Push never waits:
// messages queue without bound until the single reader takes them.
package transport

import (
	"strconv"
	"sync"

	"github.com/kandev/lsp/wasm/ctxlite"
)

// CloseError is how a socket reports that the peer (or the browser) closed
// it. Code is the WebSocket close code, e.g. 1001 or one of wire's 4001–4008.
// The close reason is deliberately absent: it is transport prose that never
// reaches the user.
type CloseError struct {
	Code int
}

func (e *CloseError) Error() string {
	return "websocket closed with code " + strconv.Itoa(e.Code)
}

// Normal reports whether the close is an orderly one (1000 normal closure,
// 1001 going away) rather than a failure.
func (e *CloseError) Normal() bool { return e.Code == 1000 || e.Code == 1001 }

// Inbox queues incoming frames from callbacks for one reader.
type Inbox struct {
	mu     sync.Mutex
	frames [][]byte
	closed *CloseError
	ready  chan struct{} // holds a token while there is something to read
	done   chan struct{} // closed by Close
}

// NewInbox returns an empty, open inbox.
func NewInbox() *Inbox {
	return &Inbox{ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// Push queues one frame. It never blocks; frames after Close are dropped.
func (in *Inbox) Push(frame []byte) {
	in.mu.Lock()
	if in.closed != nil {
		in.mu.Unlock()
		return
	}
	in.frames = append(in.frames, frame)
	in.mu.Unlock()
	in.signal()
}

// Close records the close code. Frames already queued are still read; after
// them Read returns *CloseError. Only the first Close counts.
func (in *Inbox) Close(code int) {
	in.mu.Lock()
	if in.closed != nil {
		in.mu.Unlock()
		return
	}
	in.closed = &CloseError{Code: code}
	in.mu.Unlock()
	close(in.done)
	in.signal()
}

// Done is closed once Close has been called.
func (in *Inbox) Done() <-chan struct{} { return in.done }

func (in *Inbox) signal() {
	select {
	case in.ready <- struct{}{}:
	default:
	}
}

// Read returns the next frame, or *CloseError once the inbox is closed and
// drained, or ctx's error.
func (in *Inbox) Read(ctx ctxlite.Context) ([]byte, error) {
	for {
		in.mu.Lock()
		if len(in.frames) > 0 {
			f := in.frames[0]
			in.frames[0] = nil
			in.frames = in.frames[1:]
			if len(in.frames) == 0 {
				in.frames = nil // let the backing array go
			}
			in.mu.Unlock()
			return f, nil
		}
		closed := in.closed
		in.mu.Unlock()
		if closed != nil {
			return nil, closed
		}
		select {
		case <-in.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
