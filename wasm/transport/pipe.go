package transport

import (
	"errors"

	"github.com/kandev/lsp/wasm/ctxlite"
)

// PipeEnd is one side of an in-memory message pipe made by Pipe. It reads,
// writes and closes like a browser WebSocket seen through this package:
// whole messages, a close that ends both directions with 1000.
type PipeEnd struct{ r, w *Inbox }

// Pipe returns the two ends of an in-memory message pipe, the way net.Pipe
// does for bytes: what one end writes the other reads. Tests use it in
// place of a socket.
func Pipe() (PipeEnd, PipeEnd) {
	x, y := NewInbox(), NewInbox()
	return PipeEnd{r: x, w: y}, PipeEnd{r: y, w: x}
}

// Read returns the next message from the other end.
func (p PipeEnd) Read(ctx ctxlite.Context) ([]byte, error) { return p.r.Read(ctx) }

// Write sends a copy of msg to the other end; it fails once the pipe is
// closed.
func (p PipeEnd) Write(_ ctxlite.Context, msg []byte) error {
	select {
	case <-p.w.Done():
		return errors.New("pipe closed")
	default:
	}
	p.w.Push(append([]byte(nil), msg...))
	return nil
}

// Close ends both directions with a normal closure (1000).
func (p PipeEnd) Close() error {
	p.r.Close(1000)
	p.w.Close(1000)
	return nil
}

// CloseWith ends both directions with code, as a peer closing the socket
// with that status would.
func (p PipeEnd) CloseWith(code int) {
	p.r.Close(code)
	p.w.Close(code)
}
