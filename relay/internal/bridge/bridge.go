// Package bridge relays WebSocket messages between two accepted connections —
// the browser's and the task-host agent's — and closes both with categorical
// codes when either ends.
//
// Messages pass unchanged: the message type is kept, bodies are streamed
// through a pooled buffer and never parsed. Close reasons never pass: the
// browser maps codes to localized text, so prose from the task host (or from
// this relay) would only leak transport detail.
package bridge

import (
	"context"
	"errors"
	"sync"
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

	// AgentReadFailed, if set, reports whether a read on the agent's
	// underlying connection has failed. coder/websocket v1.8.15 reports a
	// connection that ends between two frames of a message (or between a
	// frame header and its payload) as the message's regular end, io.EOF;
	// checked at each message end, this tells a cut message from a
	// complete one, and a cut one is neither forwarded nor finished: the
	// browser gets wire.CloseServerExited instead. The browser→agent
	// direction has no such hook (net/http owns that socket); a cut
	// message there reaches the agent just before the agent is closed.
	AgentReadFailed func() bool
}

// errCut is the read error of a message whose connection ended inside it.
var errCut = errors.New("connection ended inside a message")

// end is what a pump reports when it stops: which connection ended and how.
type end struct {
	side Side
	err  error
	// write is true when the end was seen by a failing write to side, not
	// by reading it. A write error says the peer is gone but not why; its
	// close code, if it sent one, comes from its reader.
	write bool
}

// Run relays messages both ways until either connection ends or ctx is done,
// then closes both and returns once every goroutine it started has ended.
//
//   - The agent ends (close frame or dropped connection): the browser is
//     closed with the agent's code verbatim, or wire.CloseServerExited if the
//     agent sent none (or one that cannot be forwarded).
//   - The browser ends: the agent is closed with the browser's code, or
//     wire.CloseGoingAway if it sent none.
//   - ctx ends (shutdown): both are closed with wire.CloseGoingAway.
//
// Every close carries an empty reason. Both connections must already have
// their read limits set. Run owns them from here on.
func Run(ctx context.Context, browser, agent *websocket.Conn, opts Options) Outcome {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = wire.WriteTimeout
	}
	conns := [2]*websocket.Conn{Browser: browser, Agent: agent}

	// Reads use a context that is never cancelled: cancelling a
	// coder/websocket read context closes the socket without a close frame,
	// and teardown must deliver codes. Pumps stop because Run closes their
	// connections, which fails their reads and writes.
	pctx := context.WithoutCancel(ctx)
	ends := make(chan end, 2)
	go func() { ends <- pump(pctx, agent, Agent, browser, Browser, opts.WriteTimeout, opts.AgentReadFailed) }()
	go func() { ends <- pump(pctx, browser, Browser, agent, Agent, opts.WriteTimeout, nil) }()
	pending := 2

	var first end
	select {
	case first = <-ends:
		pending--
	case <-ctx.Done():
		closeAll(
			func() { _ = browser.Close(websocket.StatusCode(wire.CloseGoingAway), "") },
			func() { _ = agent.Close(websocket.StatusCode(wire.CloseGoingAway), "") },
		)
		drain(ends, pending)
		return Outcome{
			Ended:       Shutdown,
			BrowserCode: websocket.StatusCode(wire.CloseGoingAway),
			AgentCode:   websocket.StatusCode(wire.CloseGoingAway),
		}
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
		code = forwardable(first.err, websocket.StatusCode(wire.CloseServerExited))
		out.BrowserCode = code
	} else {
		code = forwardable(first.err, websocket.StatusCode(wire.CloseGoingAway))
		out.AgentCode = code
	}
	// The failed side has already closed (a received close frame was
	// answered by coder/websocket) or is broken: drop it. The other side
	// gets the close handshake with the chosen code.
	closeAll(
		func() { _ = failed.CloseNow() },
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
