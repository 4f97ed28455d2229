package client

import (
	"errors"
	"strconv"
	"sync"

	"github.com/kandev/lsp/internal/replay"
	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
)

// errResumeRefused ends a connection whose server the task host no longer
// holds (wire.CloseResumeRefused): the pair connects afresh at once.
var errResumeRefused = errors.New("client: the task host no longer holds the server")

// errResumeGaveUp ends a connection none of whose resume attempts reached
// the task host: the pair shows the error with Retry, as after the fresh
// attempts of a lost path (they would only repeat the wait).
var errResumeGaveUp = errors.New("client: the task host did not come back")

// resumable is a ready connection's transport when the task host holds
// servers (the ready frame's resume token): under the JSON-RPC engine it
// numbers the data frames each way, keeps what it sent until the task
// host acknowledges it, and, when its socket is lost, dials again with the
// token and sends again what the task host missed (wire's resume
// protocol). The engine, its pending calls, the documents and the
// providers never see the gap: the same server answers after it.
type resumable struct {
	_ noCompare
	c *connection

	// wmu orders writes to the socket: the engine's, acks and replays.
	wmu sync.Mutex

	mu       sync.Mutex
	cur      jsonrpc.Transport // the socket of the moment
	token    string            // for the next resume
	out      *replay.Buffer    // data frames sent, until acknowledged
	in       uint64            // data frames received
	resuming bool              // cur is lost; writes are kept only
	dropped  bool              // cur was dropped on purpose (a stalled path)
	closed   bool
	// rctx ends the wait on cur's frames; drop cancels it, because a
	// socket whose peer is frozen reports its close only when the closing
	// handshake gives up, long after. Made by Read, for each socket.
	rctx   ctxlite.Context
	unread ctxlite.CancelFunc
	// wake cuts a wait between attempts short (Client.Nudge).
	wake chan struct{}
}

func newResumable(c *connection, sock jsonrpc.Transport, token string) *resumable {
	return &resumable{c: c, cur: sock, token: token, out: replay.New(wire.MaxReplayBytes, wire.MaxReplayFrames), wake: make(chan struct{}, 1)}
}

// Read returns the next frame for the engine: data frames and the task
// host's heartbeat answers. Acks are taken here; a lost socket is resumed
// here, within the reconnect schedule, before Read returns again.
func (r *resumable) Read(ctx ctxlite.Context) ([]byte, error) {
	for {
		r.mu.Lock()
		t := r.cur
		if r.rctx == nil {
			r.rctx, r.unread = ctxlite.WithCancel(ctx)
		}
		rctx := r.rctx
		r.mu.Unlock()
		frame, err := t.Read(rctx)
		if err != nil {
			if ctx.Err() != nil || !r.lost(err) {
				return nil, err
			}
			if err := r.resume(ctx, err); err != nil {
				return nil, err
			}
			continue
		}
		switch {
		case wire.IsAckFrame(frame):
			if n, ok := wire.AckNumber(frame); ok {
				r.mu.Lock()
				r.out.Ack(n)
				r.mu.Unlock()
			}
			continue
		case wire.IsHeartbeatFrame(frame):
			return frame, nil
		case wire.IsStatusFrame(frame):
			continue // none is expected once ready
		}
		r.mu.Lock()
		r.in++
		n := r.in
		r.mu.Unlock()
		if n%wire.AckEvery == 0 {
			// Tell the task host how many arrived; a lost socket shows on
			// the read side.
			r.wmu.Lock()
			_ = t.Write(ctx, wire.AppendAck(nil, n))
			r.wmu.Unlock()
		}
		return frame, nil
	}
}

// lost reports whether the socket's end may be resumed: it was lost, not
// closed (as reconnect.go's lostPath reads it, or dropped here for a
// stall), and everything since the last acknowledgement is kept.
func (r *resumable) lost(err error) bool {
	r.mu.Lock()
	ok, dropped := !r.closed && !r.out.Overflowed() && r.token != "", r.dropped
	r.mu.Unlock()
	if !ok || dropped {
		return ok
	}
	code := 0
	if ce, ok := errors.AsType[*transport.CloseError](err); ok {
		code = ce.Code
	}
	return lostPath(err, code)
}

// Write sends one frame. Data frames are numbered and kept first, so one
// written while the socket is lost, or lost with it, goes out with the
// resume; a write that fails is not an error for the engine then, the
// read side resumes. A heartbeat goes out with an ack, or not at all
// while resuming.
func (r *resumable) Write(ctx ctxlite.Context, msg []byte) error {
	hb := wire.IsHeartbeatFrame(msg)
	r.mu.Lock()
	if !hb {
		r.out.Push(msg)
	}
	t, resuming, in := r.cur, r.resuming, r.in
	r.mu.Unlock()
	if resuming {
		return nil
	}
	r.wmu.Lock()
	err := t.Write(ctx, msg)
	if err == nil && hb {
		err = t.Write(ctx, wire.AppendAck(nil, in))
	}
	r.wmu.Unlock()
	if err != nil && ctx.Err() == nil && r.lost(err) {
		return nil // a data frame is kept for the resume; a heartbeat goes with the socket
	}
	return err
}

// Close ends the transport for good.
func (r *resumable) Close() error {
	r.mu.Lock()
	r.closed = true
	t := r.cur
	r.mu.Unlock()
	return t.Close()
}

// drop abandons the socket of the moment (its path stalled): the read side
// sees it end and resumes.
func (r *resumable) drop() {
	r.mu.Lock()
	// From now on writes are kept for the resume, not sent to a socket
	// that is closing.
	r.dropped, r.resuming = true, true
	t, unread := r.cur, r.unread
	r.mu.Unlock()
	// Closed before the read is let go: the read side then resumes and
	// closes the socket again, and a socket keeps its first close code.
	closeLost(t)
	if unread != nil {
		unread()
	}
}

// closeLost closes a socket whose path was lost. Not with a normal
// closure, which would tell the task host to stop the server once the
// relay thaws: the path was lost, and the stream is to be resumed.
func closeLost(t jsonrpc.Transport) {
	if cw, ok := t.(interface{ CloseWith(code int) }); ok {
		cw.CloseWith(int(wire.ClosePathLost))
	} else {
		_ = t.Close()
	}
}

// isResuming reports whether the socket is lost and a resume under way.
func (r *resumable) isResuming() bool {
	r.mu.Lock()
	resuming := r.resuming
	r.mu.Unlock()
	return resuming
}

// resume dials again with the token on the reconnect schedule until the
// task host answers. It returns nil once the stream is resumed; the
// refusal (errResumeRefused) when the task host no longer holds the
// server; errResumeGaveUp, wrapping cause, when no attempt reached it.
func (r *resumable) resume(ctx ctxlite.Context, cause error) error {
	c := r.c
	cl := c.cl
	r.mu.Lock()
	r.resuming, r.dropped = true, false
	old := r.cur
	r.mu.Unlock()
	closeLost(old)
	lostAt := max(cl.cfg.Clock.Now(), 1)
	cl.cfg.Logf("lsp: %s/%s: the path to the task host was lost (%v); resuming", c.p.key.sessionID, string(c.p.key.language), cause)
	for attempt := 1; attempt <= len(reconnectDelays); attempt++ {
		// Armed before the status says so, as the fresh attempts are.
		due := make(chan struct{})
		t := cl.cfg.Clock.AfterFunc(reconnectDelay(attempt, uint64(lostAt)*2654435761+uint64(attempt)), func() { close(due) })
		cl.resuming(c, attempt, lostAt)
		select {
		case <-due:
		case <-r.wake:
			t.Stop()
		case <-ctx.Done():
			t.Stop()
			return cause
		}
		err := r.attempt(ctx)
		switch {
		case err == nil:
			cl.update(c, StateReady, 0) // its documents are open already
			return nil
		case errors.Is(err, errResumeRefused):
			cl.cfg.Logf("lsp: %s/%s: the task host no longer holds the server; connecting afresh", c.p.key.sessionID, string(c.p.key.language))
			return err
		case ctx.Err() != nil:
			return cause
		}
	}
	return errors.Join(errResumeGaveUp, cause)
}

// attempt is one resume request: dial with the token and the count of
// frames received, read the resumed frame, send again what the task host
// missed, and make the new socket the one of the moment.
func (r *resumable) attempt(ctx ctxlite.Context) error {
	c := r.c
	r.mu.Lock()
	u := ServerStreamURL(c.cl.cfg.RelayURL, c.p.key.sessionID, string(c.p.key.language), c.server) +
		"&" + wire.ParamResume + "=" + encodeURIComponent(r.token) +
		"&" + wire.ParamReceived + "=" + strconv.FormatUint(r.in, 10)
	r.mu.Unlock()
	// One deadline for the dial and the answer: a path that swallows the
	// request must not hold the schedule.
	actx, cancel := ctxlite.WithTimeout(ctx, 2*wire.WriteTimeout)
	defer cancel()
	t, err := c.cl.cfg.Dial(actx, u)
	if err != nil {
		return err
	}
	frame, err := t.Read(actx)
	if err != nil {
		_ = t.Close()
		if ce, ok := errors.AsType[*transport.CloseError](err); ok && ce.Code == int(wire.CloseResumeRefused) {
			return errResumeRefused
		}
		return err
	}
	st, err := parseStatus(frame)
	if err != nil || st.Status != wire.StatusResumed || st.Resume == "" {
		_ = t.Close()
		return errResumeRefused // not a task host that resumes
	}
	// r.mu is held until the new socket is the one of the moment, so
	// that no write slips between the replay and the switch.
	r.mu.Lock()
	r.token = st.Resume // the old one is spent whatever happens next
	missed, ok := r.out.Since(st.Received)
	if !ok {
		err = errResumeRefused
	}
	r.wmu.Lock()
	for i := 0; err == nil && i < len(missed); i++ {
		err = t.Write(ctx, missed[i])
	}
	r.wmu.Unlock()
	if err == nil {
		r.cur, r.resuming = t, false
		if r.unread != nil {
			r.unread()
		}
		r.rctx, r.unread = nil, nil
	}
	r.mu.Unlock()
	if err != nil {
		_ = t.Close()
	}
	return err
}

// resuming shows conn's pair reconnecting, attempt n since lostAt, while
// conn stays: its documents, markers and providers are kept in place.
func (c *Client) resuming(conn *connection, attempt int, lostAt int64) {
	c.mu.Lock()
	p := conn.p
	current := p.conn == conn
	if current {
		if p.lostAt == 0 {
			p.lostAt = lostAt
		}
		p.st.State, p.st.Attempt, p.st.LostAt = StateReconnecting, attempt, p.lostAt
		c.recordLocked(p)
	}
	c.mu.Unlock()
	if current {
		c.deliver()
	}
}
