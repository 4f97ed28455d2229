package bridge

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// ChunkSize is the copy buffer. A message that fits goes out as one frame,
// as it came in (most LSP messages are small); a larger one is streamed in
// frames of this size, so a 16 MiB message never sits whole in memory.
const ChunkSize = 64 << 10

// chunks recycles copy buffers. A buffer is taken only once a message has
// started, so an idle bridge holds none.
var chunks = sync.Pool{New: func() any { b := make([]byte, ChunkSize); return &b }}

// hop is one connection as a pump sees it.
type hop struct {
	conn *websocket.Conn
	side Side
	// reads counts messages and chunks read (source only).
	reads *atomic.Uint64
	// failed, if set, is Options.AgentReadFailed (source only).
	failed func() bool
}

// pump copies messages from src to dst until either fails, and reports which
// connection ended. It is the only reader of src and the only writer of data
// messages to dst.
func pump(ctx context.Context, src, dst hop, opts Options) end {
	g := newWriteGuard(ctx, opts.WriteTimeout)
	defer g.stop()
	// One byte beyond the limit tells an oversized message; reading no
	// further keeps coder/websocket's own limit (and its prose) unreached.
	// One reader per pump, reset per message: no allocation per message.
	lr := &io.LimitedReader{}
	for {
		typ, r, err := src.conn.Reader(ctx)
		if err != nil {
			return end{side: src.side, err: err}
		}
		src.reads.Add(1)
		lr.R, lr.N = r, opts.MaxMessageSize+1
		if err := copyMessage(dst.conn, typ, lr, g, src, opts.MaxMessageSize); err != nil {
			return asEnd(err, src.side, dst.side)
		}
		if opts.Relayed != nil {
			opts.Relayed(src.side, opts.MaxMessageSize+1-lr.N) // what the limit let through
		}
	}
}

// copyMessage streams one message from r (read from src, and stopping one
// byte beyond limit) to dst with type typ. Errors from writing to dst come
// back wrapped in writeErr; anything else is a read error of the source:
// errTooBig for a message over limit, errCut for one its connection ended
// inside.
func copyMessage(dst *websocket.Conn, typ websocket.MessageType, r io.Reader, g *writeGuard, src hop, limit int64) error {
	bp := chunks.Get().(*[]byte)
	defer chunks.Put(bp)
	buf := *bp
	total := int64(0)

	n, err := io.ReadFull(r, buf)
	total += int64(n)
	if isMessageEnd(err) {
		if total > limit {
			return errTooBig
		}
		if src.failed != nil && src.failed() {
			return errCut
		}
		g.arm()
		err = dst.Write(g.ctx, typ, buf[:n])
		g.disarm()
		if err != nil {
			return writeErr{err}
		}
		return nil
	}
	if err != nil {
		return err
	}

	// Larger than one buffer: stream it, one frame per full buffer.
	g.arm()
	w, err := dst.Writer(g.ctx, typ)
	g.disarm()
	if err != nil {
		return writeErr{err}
	}
	for rerr := error(nil); ; {
		if total > limit {
			// dst's message stays unfinished; Run closes dst next.
			return errTooBig
		}
		if n > 0 {
			g.arm()
			_, err = w.Write(buf[:n])
			g.disarm()
			if err != nil {
				return writeErr{err}
			}
		}
		if isMessageEnd(rerr) {
			break
		}
		n, rerr = io.ReadFull(r, buf)
		total += int64(n)
		src.reads.Add(1)
		if rerr != nil && !isMessageEnd(rerr) {
			// The message stays unfinished on dst; Run closes dst next.
			return rerr
		}
	}
	if src.failed != nil && src.failed() {
		return errCut // dst's message stays unfinished; Run closes dst next
	}
	g.arm()
	err = w.Close()
	g.disarm()
	if err != nil {
		return writeErr{err}
	}
	return nil
}

// isMessageEnd reports whether an io.ReadFull error on a message reader is
// the message's end: a bare io.EOF (nothing read) or io.ErrUnexpectedEOF (a
// short read). A failed read of the source comes back wrapped, so identity —
// not errors.Is — tells the two apart.
func isMessageEnd(err error) bool {
	return err == io.EOF || err == io.ErrUnexpectedEOF
}

// writeGuard bounds each write by a timeout without allocating per message:
// one context lives as long as the pump and a timer, re-armed around each
// write, cancels it. coder/websocket closes a connection whose write context
// ends mid-write, so a peer that stalls past the timeout is treated as gone.
type writeGuard struct {
	ctx     context.Context
	cancel  context.CancelFunc
	timer   *time.Timer
	timeout time.Duration
}

func newWriteGuard(parent context.Context, timeout time.Duration) *writeGuard {
	ctx, cancel := context.WithCancel(parent)
	t := time.AfterFunc(timeout, cancel)
	t.Stop()
	return &writeGuard{ctx: ctx, cancel: cancel, timer: t, timeout: timeout}
}

func (g *writeGuard) arm()    { g.timer.Reset(g.timeout) }
func (g *writeGuard) disarm() { g.timer.Stop() }
func (g *writeGuard) stop()   { g.timer.Stop(); g.cancel() }
