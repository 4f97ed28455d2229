// Package bridge relays WebSocket messages between two accepted connections —
// the browser's and the task-host agent's — and closes both with categorical
// codes when either ends.
//
// Messages pass unchanged: the message type is kept, bodies are streamed
// through a pooled buffer and never parsed. Close reasons never pass: the
// browser maps codes to localized text, so prose from the task host (or from
// this relay) would only leak transport detail.
//
// A peer can vanish without a close frame or a TCP reset (a laptop lid
// shut, a NAT entry expired): reads from it then block for good. Each side
// that stays silent for a whole ping interval is pinged, and one that does
// not answer in time is treated as gone, so its stream ends and its slot
// is freed.
package bridge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
)

// Side names one of the two connections of a bridge.
type Side int

const (
	// Browser is the connection from the browser tab.
	Browser Side = iota
	// Agent is the connection to the task-host agent.
	Agent
	// Shutdown is not a connection: the bridge's context ended.
	Shutdown
)

func (s Side) String() string {
	switch s {
	case Browser:
		return "browser"
	case Agent:
		return "agent"
	default:
		return "shutdown"
	}
}

// Outcome says how a bridge ended, for logs.
type Outcome struct {
	// Ended is the side whose end decided the close codes.
	Ended Side
	// Err is what ended it (a close frame, a dropped connection, a failed
	// write); nil for Shutdown.
	Err error
	// BrowserCode and AgentCode are the codes the relay sent (or tried to
	// send); 0 where the relay only dropped an already closed connection.
	BrowserCode, AgentCode websocket.StatusCode
}

// Options tune a bridge; the zero value uses the wire defaults.
type Options struct {
	// WriteTimeout bounds every write to either side (default
	// wire.WriteTimeout). A write that times out closes that connection.
	WriteTimeout time.Duration

	// MaxMessageSize bounds one message from either side (default
	// wire.MaxMessageSize). A larger one ends the bridge: the side that
	// sent it is closed with 1009 (message too big) and an empty reason,
	// the other as if that side had gone. Both connections' read limits
	// (SetReadLimit) must be at least this: the bridge reads one byte
	// beyond it to tell, which coder/websocket's limit allows, and never
	// more, so the library's own limit error — whose text it would send as
	// the close reason — is never reached.
	MaxMessageSize int64

	// PingInterval, when positive, pings each side that has sent nothing
	// for a whole interval; a side whose pong has not come back within
	// PingTimeout is treated as gone (the agent: the browser gets
	// wire.CloseUnavailable; the browser: the agent gets
	// wire.CloseGoingAway). A vanished peer is so noticed within
	// 2×PingInterval + PingTimeout. Zero sends no pings.
	PingInterval, PingTimeout time.Duration

	// AgentReadFailed, if set, reports whether a read on the agent's
	// underlying connection has failed. coder/websocket v1.8.15 reports a
	// connection that ends between two frames of a message (or between a
	// frame header and its payload) as the message's regular end, io.EOF;
	// checked at each message end, this tells a cut message from a
	// complete one, and a cut one is neither forwarded nor finished: the
	// browser gets wire.CloseUnavailable instead. The browser→agent
	// direction has no such hook (net/http owns that socket); a cut
	// message there reaches the agent just before the agent is closed.
	AgentReadFailed func() bool

	// Relayed, if set, is called after each message forwarded whole, with
	// the side it came from and its size: for byte counters. It runs on
	// the pump's goroutine and must not block.
	Relayed func(from Side, bytes int64)
}

// errCut is the read error of a message whose connection ended inside it.
var errCut = errors.New("connection ended inside a message")

// errTooBig is the read error of a message over Options.MaxMessageSize.
var errTooBig = errors.New("message too big")

// errNoPong: a side did not answer a ping in time.
var errNoPong = errors.New("no pong within the ping timeout")

// end is what a pump reports when it stops: which connection ended and how.
type end struct {
	side Side
	err  error
	// write is true when the end was seen by a failing write to side, not
	// by reading it. A write error says the peer is gone but not why; its
	// close code, if it sent one, comes from its reader.
	write bool
}

// ErrRestart is the cause of a Run context that ends because the relay
// drains for a restart (context.WithCancelCause).
var ErrRestart = errors.New("bridge: the relay is restarting")

// Run relays messages both ways until either connection ends or ctx is done,
// then closes both and returns once every goroutine it started has ended.
//
//   - The agent ends (close frame or dropped connection): the browser is
//     closed with the agent's code verbatim (a server that exited is the
//     agent's 4006), or wire.CloseUnavailable if the agent sent none (or
//     one that cannot be forwarded): the hop to the task host failed, not
//     the server, and the browser may connect again.
//   - The browser ends: the agent is closed with the browser's code, or
//     wire.ClosePathLost if it sent none: the browser's socket was lost,
//     not closed, and the agent holds the server for it to resume.
//   - ctx ends (shutdown): both are closed with wire.CloseGoingAway, or
//     both with wire.CloseServiceRestart when ctx's cause is ErrRestart
//     (the relay drains for a restart: the browser may connect again at
//     once, through another replica, and the agent holds the server for
//     that resume).
//
// Every close carries an empty reason. Both connections must already have
// their read limits set. Run owns them from here on.
func Run(ctx context.Context, browser, agent *websocket.Conn, opts Options) Outcome {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = wire.WriteTimeout
	}
	if opts.MaxMessageSize <= 0 {
		opts.MaxMessageSize = wire.MaxMessageSize
	}
	conns := [2]*websocket.Conn{Browser: browser, Agent: agent}
	// reads counts, per side, the messages and chunks read from it: what
	// the keep-alive looks at to tell a silent side from a busy one.
	var reads [2]atomic.Uint64

	// Reads use a context that is never cancelled: cancelling a
	// coder/websocket read context closes the socket without a close frame,
	// and teardown must deliver codes. Pumps stop because Run closes their
	// connections, which fails their reads and writes.
	pctx := context.WithoutCancel(ctx)
	ends := make(chan end, 2)
	go func() {
		ends <- pump(pctx, hop{agent, Agent, &reads[Agent], opts.AgentReadFailed}, hop{conn: browser, side: Browser}, opts)
	}()
	go func() {
		ends <- pump(pctx, hop{browser, Browser, &reads[Browser], nil}, hop{conn: agent, side: Agent}, opts)
	}()
	pending := 2

	// The keep-alives report a side that stopped answering on dead; they
	// end when Run returns.
	dead := make(chan end, 2)
	kctx, stopKeepAlive := context.WithCancel(pctx)
	var keepAlives sync.WaitGroup
	defer func() {
		stopKeepAlive()
		keepAlives.Wait()
	}()
	if opts.PingInterval > 0 {
		for _, side := range []Side{Browser, Agent} {
			keepAlives.Go(func() {
				if err := keepAlive(kctx, conns[side], &reads[side], opts.PingInterval, opts.PingTimeout); err != nil {
					dead <- end{side: side, err: err}
				}
			})
		}
	}

	var first end
	select {
	case first = <-ends:
		pending--
	case first = <-dead:
	case <-ctx.Done():
		code := websocket.StatusCode(wire.CloseGoingAway)
		if errors.Is(context.Cause(ctx), ErrRestart) {
			code = websocket.StatusCode(wire.CloseServiceRestart)
		}
		closeAll(
			func() { _ = browser.Close(code, "") },
			func() { _ = agent.Close(code, "") },
		)
		drain(ends, pending)
		return Outcome{Ended: Shutdown, BrowserCode: code, AgentCode: code}
	}

	if first.write {
		// Writing to first.side failed, so its connection is closed or
		// broken and its reader — the other pump — is about to report how
		// it ended. Prefer that report: it carries the peer's close code.
		// The wait is bounded in case the socket is broken but a read
		// would still block.
		t := time.NewTimer(opts.WriteTimeout)
		select {
		case second := <-ends:
			pending--
			if second.side == first.side && !second.write {
				first = second
			}
		case <-t.C:
		}
		t.Stop()
	}

	out := Outcome{Ended: first.side, Err: first.err}
	failed, other := conns[first.side], conns[1-first.side]
	var code websocket.StatusCode
	if first.side == Agent {
		code = forwardable(first.err, websocket.StatusCode(wire.CloseUnavailable))
		out.BrowserCode = code
	} else {
		code = forwardable(first.err, websocket.StatusCode(wire.ClosePathLost))
		if errors.Is(first.err, errTooBig) {
			// A browser that broke the limit was not lost: nothing will
			// resume its server.
			code = websocket.StatusCode(wire.CloseGoingAway)
		}
		out.AgentCode = code
	}
	// The failed side has already closed (a received close frame was
	// answered by coder/websocket) or is broken: drop it — unless it broke
	// the size limit, which it is told with 1009 and no reason. The other
	// side gets the close handshake with the chosen code.
	closeFailed := func() { _ = failed.CloseNow() }
	if errors.Is(first.err, errTooBig) {
		closeFailed = func() { _ = failed.Close(websocket.StatusMessageTooBig, "") }
		if first.side == Agent {
			out.AgentCode = websocket.StatusMessageTooBig
		} else {
			out.BrowserCode = websocket.StatusMessageTooBig
		}
	}
	closeAll(
		closeFailed,
		func() { _ = other.Close(code, "") },
	)
	drain(ends, pending)
	return out
}

// forwardable returns the close code carried by err when it may be sent on
// the wire, and def otherwise (no close frame; 1005, 1006 and other codes
// that only describe a local condition).
func forwardable(err error, def websocket.StatusCode) websocket.StatusCode {
	code := websocket.CloseStatus(err)
	switch {
	case code >= 3000 && code <= 4999:
		return code
	case code >= websocket.StatusNormalClosure && code <= websocket.StatusBadGateway &&
		code != 1004 && code != websocket.StatusNoStatusRcvd && code != websocket.StatusAbnormalClosure:
		return code
	}
	return def
}

// closeAll runs the closers concurrently: a close handshake can wait up to
// coder/websocket's 5 s for the peer, and one slow peer must not delay the
// other's close.
func closeAll(fns ...func()) {
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Go(fn)
	}
	wg.Wait()
}

// drain waits for the pumps still running. It cannot block for long: both
// connections are closed by now, so every read and write fails.
func drain(ends <-chan end, n int) {
	for range n {
		<-ends
	}
}

// writeErr marks an error from writing to the destination, so a pump can
// report which connection failed.
type writeErr struct{ err error }

func (e writeErr) Error() string { return e.err.Error() }
func (e writeErr) Unwrap() error { return e.err }

func asEnd(err error, src, dst Side) end {
	var we writeErr
	if errors.As(err, &we) {
		return end{side: dst, err: we.err, write: true}
	}
	return end{side: src, err: err}
}

// keepAlive pings c each time a whole interval has passed without a read
// from it, and returns an error when a pong has not come back within
// timeout. It returns nil once ctx ends. The pong is read by the pump
// (coder/websocket answers and consumes control frames inside reads), so a
// pump blocked writing to the other side delays it by up to the write
// timeout: timeout should exceed that.
func keepAlive(ctx context.Context, c *websocket.Conn, reads *atomic.Uint64, interval, timeout time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	last := reads.Load()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if n := reads.Load(); n != last {
			last = n
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := c.Ping(pctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil // Run is tearing down; not the peer's fault
		case err != nil:
			return fmt.Errorf("%w: %w", errNoPong, err)
		}
	}
}
