//go:build js && wasm

package jsbind

import (
	"errors"
	"sync"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/transport"
)

// webSocket is a browser WebSocket seen as a jsonrpc.Transport: one text
// frame per message, received through an Inbox so that onmessage never
// blocks the event loop.
type webSocket struct {
	ws    jsValue
	inbox *transport.Inbox
	fns   funcSet
}

// dialer returns a client.Dialer over the WebSocket constructor ctor
// (globalThis.WebSocket in the browser, a fake in tests).
func dialer(ctor jsValue) func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error) {
	return func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error) {
		return dialWebSocket(ctx, ctor, url)
	}
}

// dialWebSocket opens url and waits until the socket is open, closes, or
// ctx ends. The socket's callbacks are released once it has closed.
func dialWebSocket(ctx ctxlite.Context, ctor jsValue, url string) (_ jsonrpc.Transport, err error) {
	defer func() {
		if err != nil {
			err = wrap("jsbind: dial "+url, err)
		}
	}()
	ws, err := ctor.New(url)
	if err != nil {
		return nil, err
	}
	s := &webSocket{ws: ws, inbox: transport.NewInbox()}
	opened := make(chan struct{})
	var openOnce sync.Once

	handlers := map[string]func(this jsValue, args []jsValue) any{
		"onopen": func(jsValue, []jsValue) any {
			openOnce.Do(func() { close(opened) })
			return nil
		},
		"onmessage": func(_ jsValue, args []jsValue) any {
			s.onMessage(args)
			return nil
		},
		"onclose": func(_ jsValue, args []jsValue) any {
			s.inbox.Close(eventCode(args))
			return nil
		},
	}
	for name, h := range handlers {
		fn, ferr := s.fns.add(h)
		if ferr == nil && name == "onmessage" {
			fn, ferr = textFrames(fn)
		}
		if ferr == nil {
			ferr = ws.Set(name, fn)
		}
		if ferr != nil {
			_, _ = ws.Call("close")
			s.unhook()
			return nil, ferr
		}
	}
	// After close no event can arrive, so detach and release then.
	go func() {
		<-s.inbox.Done()
		s.unhook()
	}()

	select {
	case <-opened:
		return s, nil
	case <-s.inbox.Done():
		_, rerr := s.inbox.Read(ctxlite.Background())
		if ce, ok := errors.AsType[*transport.CloseError](rerr); ok {
			return nil, ce
		}
		return nil, rerr
	case <-ctx.Done():
		_, _ = ws.Call("close")
		return nil, ctx.Err()
	}
}

// textFramesJS wraps a Go onmessage so that a text frame crosses as its
// UTF-8 bytes, written by TextEncoder.encodeInto into a buffer the socket
// keeps, of which Go copies the frame's part before the call returns.
// Value.String copied a frame three times on its way to the inbox (into
// Go, into a string, into a []byte); TextEncoder.encode, which allocates
// each frame's array, took 9.4–12.9 ms in Chromium for a 567 kB
// diagnostics frame, encodeInto into a kept buffer 0.3–0.6 ms, and a
// fresh array for each frame 2.5–2.8 ms (node spent 0.6 ms on encode:
// measure this in the browser). The buffer has room for an ASCII frame
// with an eighth to spare; a frame that does not fit (many characters
// beyond ASCII) is written again into room for the worst case, three
// bytes per UTF-16 unit. A buffer over keepFrameBuffer is let go after
// its frame, so a socket holds at most that much. A binary frame (not
// part of the protocol) crosses as null.
const textFramesJS = `(fn) => {
  const keep = ` + keepFrameBuffer + `;
  const enc = new TextEncoder();
  let buf = new Uint8Array(0);
  return (e) => {
    const s = e.data;
    if (typeof s !== 'string') return fn(null);
    const need = s.length + (s.length >> 3) + 64;
    if (buf.length < need) buf = new Uint8Array(Math.max(need, Math.min(2 * buf.length, keep)));
    let r = enc.encodeInto(s, buf);
    if (r.read < s.length) {
      buf = new Uint8Array(3 * s.length);
      r = enc.encodeInto(s, buf);
    }
    const frame = buf.subarray(0, r.written);
    if (buf.length > keep) buf = new Uint8Array(0);
    fn(frame);
  };
}`

// keepFrameBuffer is the largest frame buffer a socket keeps between
// frames (textFramesJS), in bytes: room for a 5,000-item completion list.
const keepFrameBuffer = "2097152"

// textFrames returns fn wrapped by textFramesJS (evaluated per socket:
// sockets are few).
func textFrames(fn jsValue) (jsValue, error) {
	wrap, err := evalExpr(textFramesJS)
	if err != nil {
		return jsUndefined(), err
	}
	return wrap.Invoke(fn)
}

// onMessage queues a text frame, given as its UTF-8 bytes (textFrames),
// copied here: the array is the socket's buffer, written again by the next
// frame. Binary frames are not part of the protocol.
func (s *webSocket) onMessage(args []jsValue) {
	if len(args) < 1 || args[0].Type() != jsTypeObject {
		return
	}
	n, err := args[0].Length()
	if err != nil {
		return
	}
	frame := make([]byte, n)
	if _, err := copyBytesToGo(frame, args[0]); err != nil {
		return
	}
	s.inbox.Push(frame)
}

// eventCode reads CloseEvent.code; 1006 (abnormal closure) if unreadable.
func eventCode(args []jsValue) int {
	if len(args) >= 1 {
		if c, err := args[0].Get("code"); err == nil && c.Type() == jsTypeNumber {
			if n, err := c.Int(); err == nil {
				return n
			}
		}
	}
	return 1006
}

// unhook detaches the event handlers and releases their functions.
func (s *webSocket) unhook() {
	for _, name := range []string{"onopen", "onmessage", "onclose"} {
		_ = s.ws.Set(name, jsNull())
	}
	s.fns.release()
}

// errSocketClosed is a write to a socket that is closing or closed.
var errSocketClosed = errors.New("jsbind: websocket closed")

// Read returns the next text frame, or *transport.CloseError with the code.
func (s *webSocket) Read(ctx ctxlite.Context) ([]byte, error) { return s.inbox.Read(ctx) }

// Write sends one text frame. The browser buffers it; send never blocks.
func (s *webSocket) Write(_ ctxlite.Context, msg []byte) error {
	select {
	case <-s.inbox.Done():
		return errSocketClosed
	default:
	}
	// Closing or closed before its close event reached Go: send would only
	// log "WebSocket is already in CLOSING or CLOSED state" and drop msg.
	// The error lets a resumable stream keep msg for its resume.
	if st, err := s.ws.Get("readyState"); err == nil {
		if n, err := st.Int(); err == nil && n != 1 { // WebSocket.OPEN
			return errSocketClosed
		}
	}
	if _, err := s.ws.Call("send", string(msg)); err != nil {
		return wrap("jsbind: websocket send", err)
	}
	return nil
}

// CloseWith starts a closure with code (1000, or 3000–4999: what a page may
// send); onclose follows as after Close.
func (s *webSocket) CloseWith(code int) { _, _ = s.ws.Call("close", code) }

// Close starts a normal closure; onclose follows and releases the callbacks.
func (s *webSocket) Close() error {
	if _, err := s.ws.Call("close", 1000); err != nil {
		return wrap("jsbind: websocket close", err)
	}
	return nil
}
