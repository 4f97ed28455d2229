// Package jsonrpc is a small JSON-RPC 2.0 engine for lsp.wasm: calls with
// response matching, notifications, and dispatch of the peer's requests and
// notifications, over a Transport that carries one message per frame (the
// WebSocket hops of Kandev LSP never split or join messages, so there is no
// Content-Length framing here).
//
// A frame that is a JSON object but no JSON-RPC message (no method, id,
// result or error) — the task host's own frames — reaches the handler too,
// in order, as a notification with an empty Method and the frame as Params.
//
// Threading: one goroutine reads the transport and never runs handler code,
// so a slow handler never stops responses to our calls from arriving.
// Incoming requests and notifications are handled one at a time, in arrival
// order, by a dispatcher goroutine fed through an unbounded queue: a server
// that sends window/workDoneProgress/create and at once a $/progress for the
// new token (without waiting for the create's answer, as rust-analyzer
// does) finds the token created. A request is answered when its handler
// returns, unless the handler returns Later: an answer that waits on
// something outside the connection (a person's choice) is computed on its
// own goroutine while the messages after it are handled.
package jsonrpc

import (
	"errors"
	"strconv"
	"sync"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// Transport carries whole JSON-RPC messages, one per frame.
type Transport interface {
	// Read returns the next message. It returns an error when ctx ends or the
	// transport is closed; the error then describes why (for a WebSocket, the
	// close code).
	Read(ctx ctxlite.Context) ([]byte, error)
	// Write sends one message. It must be safe to call while a Read blocks.
	Write(ctx ctxlite.Context, msg []byte) error
	// Close ends the transport; a blocked Read returns.
	Close() error
}

// Request is an incoming request, or a notification when ID is nil.
type Request struct {
	ID     jsonlite.Raw
	Method string
	Params jsonlite.Raw
}

// IsNotification reports whether the peer expects no answer.
func (r *Request) IsNotification() bool { return r.ID == nil }

// Handler answers incoming requests and consumes notifications, one at a
// time in arrival order. For a request, the result (nil means JSON null) or
// the error is sent back; an error that is not an *Error goes back as
// ErrInternal with its text; a result made by Later is computed on its own
// goroutine first. For a notification both are ignored. ctx ends when the
// connection closes, and handlers must return soon after: Conn.Done waits
// for them. A handler must not wait for other incoming messages: they are
// queued behind it.
type Handler interface {
	Handle(ctx ctxlite.Context, req *Request) (result jsonlite.Appender, err error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx ctxlite.Context, req *Request) (jsonlite.Appender, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx ctxlite.Context, req *Request) (jsonlite.Appender, error) {
	return f(ctx, req)
}

// Later wraps a request's answer that must wait on something outside the
// connection: the handler returns Later(fn) at once, and fn runs on its own
// goroutine (ctx ends with the connection) while later messages are
// handled; its result or error is the answer. fn always runs, with ctx
// already done if the connection ended first, so it can release what it
// holds; it must return soon after ctx ends. Only request answers may be
// Later; for a notification fn is not run.
func Later(fn func(ctx ctxlite.Context) (jsonlite.Appender, error)) jsonlite.Appender {
	return &later{fn: fn}
}

// later is the result Later returns; its AppendJSON is never used.
type later struct {
	fn func(ctx ctxlite.Context) (jsonlite.Appender, error)
}

func (l *later) AppendJSON(b []byte) []byte { return jsonlite.AppendNull(b) }

// Conn is one JSON-RPC connection. Its methods are safe for concurrent use.
type Conn struct {
	t Transport
	h Handler

	// ctx is the connection's lifetime; cancelled by shutdown.
	ctx    ctxlite.Context
	cancel ctxlite.CancelFunc

	// writeSlot holds the right to write: a one-slot channel used as a lock
	// that a waiting writer can give up on when its context ends.
	writeSlot chan struct{}

	// mu guards the fields below; calls enter and leave pending only here.
	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *message
	closed  bool
	err     error

	incoming queue[*Request] // requests and notifications, in arrival order
	workers  sync.WaitGroup  // reader, dispatcher, Later answers
	done     chan struct{}
}

// NewConn starts a connection over t, dispatching to h (nil answers every
// request with ErrMethodNotFound).
func NewConn(t Transport, h Handler) *Conn {
	if h == nil {
		h = HandlerFunc(func(ctxlite.Context, *Request) (jsonlite.Appender, error) { return nil, ErrMethodNotFound })
	}
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	c := &Conn{
		t:         t,
		h:         h,
		ctx:       ctx,
		cancel:    cancel,
		writeSlot: make(chan struct{}, 1),
		pending:   make(map[int64]chan *message),
		incoming:  newQueue[*Request](),
		done:      make(chan struct{}),
	}
	c.workers.Add(2)
	go c.read()
	go c.dispatch()
	go func() {
		c.workers.Wait()
		close(c.done)
	}()
	return c
}

// Done is closed when the connection has ended and every handler returned.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended: the transport's read error, or
// ErrClosed after Close. It is nil while the connection is live.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection: pending calls fail with ErrClosed and the
// transport is closed.
func (c *Conn) Close() error {
	c.shutdown(ErrClosed)
	return nil
}

// Call sends a request and waits for its response, storing a successful
// result's raw JSON in result (which may be nil to discard it); the caller
// decodes it. params nil (or an empty Raw) is omitted. A JSON-RPC error
// response is returned as *Error. If ctx ends first, the call is
// forgotten, the peer is sent $/cancelRequest with its id (LSP's
// cancellation: nobody wants the answer) and a late response is dropped.
func (c *Conn) Call(ctx ctxlite.Context, method string, params jsonlite.Appender, result *jsonlite.Raw) error {
	raw := marshalParams(params)
	ch := make(chan *message, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return c.closedError()
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()

	if err := c.write(ctx, appendRequest(nil, &id, method, raw)); err != nil {
		c.forget(id)
		return err
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return c.closedError()
		}
		if resp.Error != nil {
			return resp.Error
		}
		if result == nil || len(resp.Result) == 0 {
			return nil
		}
		*result = resp.Result
		return nil
	case <-ctx.Done():
		c.forget(id)
		c.cancelRemote(id)
		return ctx.Err()
	}
}

// cancelTimeout bounds the write of a $/cancelRequest.
const cancelTimeout = 5 * clock.Second

// cancelRemote tells the peer that nobody waits for call id any more
// (LSP's $/cancelRequest), so it can stop working on it; its late answer
// is dropped. The write is bounded and never blocks the caller for long.
func (c *Conn) cancelRemote(id int64) {
	ctx, cancel := ctxlite.WithTimeout(c.ctx, cancelTimeout)
	defer cancel()
	b := append([]byte(`{"id":`), strconv.FormatInt(id, 10)...)
	_ = c.Notify(ctx, "$/cancelRequest", jsonlite.Raw(append(b, '}')))
}

// Notify sends a notification; params nil (or an empty Raw) is omitted.
func (c *Conn) Notify(ctx ctxlite.Context, method string, params jsonlite.Appender) error {
	return c.write(ctx, appendRequest(nil, nil, method, marshalParams(params)))
}

// SendFrame writes data, a frame of the transport's own rather than a
// JSON-RPC message (a heartbeat), in turn with the messages.
func (c *Conn) SendFrame(ctx ctxlite.Context, data []byte) error {
	return c.write(ctx, data)
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// closedError is ErrClosed, wrapping the transport's error when there is one
// so that errors.As reaches, for example, a WebSocket close code.
func (c *Conn) closedError() error {
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err == nil || errors.Is(err, ErrClosed) {
		return ErrClosed
	}
	return &closedError{err: err}
}

// closedError is ErrClosed caused by a transport error; both match under
// errors.Is and errors.As.
type closedError struct{ err error }

func (e *closedError) Error() string   { return ErrClosed.Error() + ": " + e.err.Error() }
func (e *closedError) Unwrap() []error { return []error{ErrClosed, e.err} }

// write sends one encoded message while holding the write slot.
func (c *Conn) write(ctx ctxlite.Context, data []byte) error {
	select {
	case c.writeSlot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return c.closedError()
	}
	defer func() { <-c.writeSlot }()
	if c.ctx.Err() != nil {
		return c.closedError()
	}
	if err := c.t.Write(ctx, data); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A transport that cannot write is broken; end the connection so
		// every caller learns it at once.
		c.shutdown(err)
		return c.closedError()
	}
	return nil
}

// shutdown ends the connection once, recording why.
func (c *Conn) shutdown(why error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.err = why
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()

	c.cancel()
	for _, ch := range pending {
		close(ch)
	}
	_ = c.t.Close()
}

// read is the only reader of the transport.
func (c *Conn) read() {
	defer c.workers.Done()
	for {
		data, err := c.t.Read(c.ctx)
		if err != nil {
			c.shutdown(err)
			return
		}
		m, ok := parseMessage(data)
		if !ok {
			// Without a parsable id there is nobody to answer; drop it.
			continue
		}
		switch {
		case m.Method != "" && !isNullID(m.ID):
			c.incoming.push(&Request{ID: m.ID, Method: m.Method, Params: m.Params})
		case m.Method != "":
			c.incoming.push(&Request{Method: m.Method, Params: m.Params})
		case m.ID == nil && m.Result == nil && m.Error == nil:
			// No JSON-RPC message: a frame of the transport's own (the
			// task host's), handled in order as a method-less
			// notification whose Params is the whole frame.
			c.incoming.push(&Request{Params: data})
		default:
			c.deliver(&m)
		}
	}
}

// deliver hands a response to the call waiting for it, if any.
func (c *Conn) deliver(m *message) {
	id, ok := callID(m.ID)
	if !ok {
		return
	}
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- m // buffered; the caller may have gone, which is fine
	}
}

// dispatch handles requests and notifications in arrival order until the
// connection ends.
func (c *Conn) dispatch() {
	defer c.workers.Done()
	for {
		batch, ok := c.incoming.wait(c.ctx)
		if !ok {
			return
		}
		for _, r := range batch {
			if c.ctx.Err() != nil {
				return
			}
			result, err := c.h.Handle(c.ctx, r)
			if r.IsNotification() {
				continue
			}
			if l, ok := result.(*later); ok && err == nil {
				if !c.spawn(func() { c.answer(r, l) }) {
					// Ended meanwhile: fn still runs, with its context
					// done, so it releases what it holds.
					_, _ = l.fn(c.ctx)
					return
				}
				continue
			}
			c.reply(r, result, err)
		}
	}
}

// spawn runs fn on a worker goroutine that Done waits for, unless the
// connection has ended.
func (c *Conn) spawn(fn func()) bool {
	c.mu.Lock()
	live := !c.closed
	if live {
		c.workers.Add(1)
	}
	c.mu.Unlock()
	if live {
		go func() {
			defer c.workers.Done()
			fn()
		}()
	}
	return live
}

// answer computes a Later answer and sends it.
func (c *Conn) answer(r *Request, l *later) {
	result, err := l.fn(c.ctx)
	c.reply(r, result, err)
}

// reply sends the response to request r.
func (c *Conn) reply(r *Request, result jsonlite.Appender, err error) {
	var data []byte
	if err != nil {
		data = appendResponse(nil, r.ID, nil, toWireError(err))
	} else {
		data = appendResponse(nil, r.ID, marshalParams(result), nil)
	}
	_ = c.write(c.ctx, data)
}
