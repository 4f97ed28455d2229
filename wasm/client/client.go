// Package client is the connection logic of lsp.wasm, free of JavaScript:
// it dials the relay through an injected Dialer, waits for the task host's
// ready frame, runs the LSP initialize handshake, keeps open documents in
// sync (didOpen, debounced full-text didChange, didClose) and turns
// publishDiagnostics into Monaco markers handed to a MarkerSink.
//
// One connection serves each (session, language) pair in this window and is
// shared by all of that pair's documents. The browser binding supplies the
// Dialer, the TextSource and the MarkerSink; tests supply fakes.
package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/monaco"
)

// DefaultDebounce is how long a document stays quiet before its text is sent.
const DefaultDebounce = 200 * time.Millisecond

// Dialer opens the WebSocket to url. The returned transport's Read must
// report the socket's close with a *transport.CloseError carrying the code.
type Dialer func(ctx context.Context, url string) (jsonrpc.Transport, error)

// TextSource reads a document's current text (Monaco's model.getValue()).
// It is read once per didOpen and once per debounced didChange.
type TextSource interface {
	Text() string
}

// MarkerSink shows a document's markers (monaco.editor.setModelMarkers).
// An empty slice clears them. Calls for one document never overlap.
type MarkerSink interface {
	SetMarkers(markers []monaco.Marker)
}

// Config configures a Client.
type Config struct {
	// RelayURL is the browser-facing stream route, e.g. ws://host/lsp.
	RelayURL string
	// Dial opens WebSockets. Required.
	Dial Dialer
	// Clock schedules debounced changes; nil means the wall clock.
	Clock Clock
	// Debounce is the quiet time before a didChange; 0 means DefaultDebounce.
	Debounce time.Duration
	// Version is sent as clientInfo.version.
	Version string
	// Logf receives diagnostics for developers; nil discards them.
	Logf func(format string, args ...any)
}

type connKey struct {
	sessionID string
	language  wire.Language
}

// Client owns this window's connections and their documents.
type Client struct {
	cfg Config

	mu        sync.Mutex
	conns     map[connKey]*connection
	statuses  map[connKey]Status
	events    []Status // recorded, not yet delivered
	listeners map[int]func(Status)
	order     []int // listener ids in subscription order
	nextID    int

	deliverMu sync.Mutex // one delivery at a time, so order holds
}

// New returns a Client; it dials nothing until a document opens.
func New(cfg Config) (*Client, error) {
	if cfg.Dial == nil {
		return nil, errors.New("client: Config.Dial is required")
	}
	if cfg.RelayURL == "" {
		return nil, errors.New("client: Config.RelayURL is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	return &Client{
		cfg:       cfg,
		conns:     make(map[connKey]*connection),
		statuses:  make(map[connKey]Status),
		listeners: make(map[int]func(Status)),
	}, nil
}

// ErrNoLanguage is returned by OpenDocument for a file no server serves.
var ErrNoLanguage = errors.New("client: no language server for this file")

// OpenDocument starts synchronizing a document: relPath is workspace-relative
// and slash-separated; its language comes from its extension (ErrNoLanguage
// if none). The connection for (sessionID, language) is dialed if this
// window has none yet; the didOpen goes out once it is ready.
func (c *Client) OpenDocument(sessionID, relPath string, src TextSource, sink MarkerSink) (*Document, error) {
	info, ok := wire.ForFile(relPath)
	if !ok {
		return nil, ErrNoLanguage
	}
	rel, ok := cleanRelPath(relPath)
	if !ok {
		return nil, fmt.Errorf("client: %q is not a workspace-relative path", relPath)
	}
	if sessionID == "" {
		return nil, errors.New("client: empty session id")
	}
	key := connKey{sessionID: sessionID, language: info.Language}

	// Registering under c.mu makes it atomic with a connection ending
	// (finish removes it from the map under the same lock): a document
	// joins either a live connection or a fresh one, never a dying one.
	c.mu.Lock()
	conn := c.conns[key]
	fresh := conn == nil
	if fresh {
		conn = newConnection(c, key)
		c.conns[key] = conn
	}
	d := &Document{
		conn:       conn,
		rel:        rel,
		languageID: languageID(rel, string(info.Language)),
		src:        src,
		sink:       sink,
	}
	ready := conn.register(d)
	c.mu.Unlock()

	if fresh {
		go conn.run()
	}
	if ready {
		d.open()
	}
	return d, nil
}

// Status returns the latest status of the (sessionID, language) connection,
// and false if this window never had one.
func (c *Client) Status(sessionID string, language wire.Language) (Status, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.statuses[connKey{sessionID, language}]
	return s, ok
}

// OnStatus calls fn with every status change, in order per connection, from
// the connection's goroutine. The returned func unsubscribes.
func (c *Client) OnStatus(fn func(Status)) (unsubscribe func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	id := c.nextID
	c.listeners[id] = fn
	c.order = append(c.order, id)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.listeners, id)
		for i, v := range c.order {
			if v == id {
				c.order = append(c.order[:i:i], c.order[i+1:]...)
				break
			}
		}
	}
}

// Stop shuts down the (sessionID, language) connection, if any, and waits
// until it has ended or ctx is done.
func (c *Client) Stop(ctx context.Context, sessionID string, language wire.Language) error {
	c.mu.Lock()
	conn := c.conns[connKey{sessionID, language}]
	c.mu.Unlock()
	if conn == nil {
		return nil
	}
	conn.stop()
	select {
	case <-conn.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops every connection and waits for them or for ctx.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	conns := make([]*connection, 0, len(c.conns))
	for _, conn := range c.conns {
		conns = append(conns, conn)
	}
	c.mu.Unlock()
	for _, conn := range conns {
		conn.stop()
	}
	for _, conn := range conns {
		select {
		case <-conn.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// publish records a status and delivers it to the listeners.
func (c *Client) publish(s Status) {
	c.mu.Lock()
	c.recordLocked(s)
	c.mu.Unlock()
	c.deliver()
}

// recordLocked stores s as the latest status and queues it for delivery.
// Queueing under c.mu fixes one global order, so a connection that ended
// can never report after its replacement has started. c.mu must be held.
func (c *Client) recordLocked(s Status) {
	c.statuses[connKey{s.SessionID, wire.Language(s.Language)}] = s
	c.events = append(c.events, s)
}

// deliver hands queued statuses to the listeners in queue order. Listeners
// may call Status, OpenDocument and Document methods, but not Stop or Close.
func (c *Client) deliver() {
	c.deliverMu.Lock()
	defer c.deliverMu.Unlock()
	c.mu.Lock()
	events := c.events
	c.events = nil
	fns := make([]func(Status), 0, len(c.listeners))
	for _, id := range c.order {
		if fn, ok := c.listeners[id]; ok {
			fns = append(fns, fn)
		}
	}
	c.mu.Unlock()
	for _, s := range events {
		for _, fn := range fns {
			fn(s)
		}
	}
}
