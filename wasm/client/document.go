package client

import (
	"path"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/protocol"
)

// Document is one open editor model synchronized with its language server.
// It is a lease on its (session, language) pair and outlives connections:
// each new generation of the pair opens it again with its current text.
//
// Its state changes only under mu, and every notification for it is sent
// while mu is held, so didOpen, didChange and didClose leave in order. Lock
// order: Document.mu, then Client.mu, then connection.mu.
type Document struct {
	cl         *Client
	p          *pair
	rel        string // cleaned workspace-relative path
	languageID string
	src        TextSource
	sink       MarkerSink

	mu         sync.Mutex
	on         *connection // the generation it is open on, nil if none
	closed     bool        // Close called
	abs        string      // absolute task-host path, while open
	uri        protocol.DocumentURI
	version    int32
	dirty      bool  // edited since the last didOpen/didChange
	timer      Timer // pending debounced flush
	timerGen   uint64
	hasMarkers bool
}

// Path returns the workspace-relative path.
func (d *Document) Path() string { return d.rel }

// SessionID returns the session the document belongs to.
func (d *Document) SessionID() string { return d.p.key.sessionID }

// URI returns the document URI sent to the server, or "" while not open.
func (d *Document) URI() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return string(d.uri)
}

// Language returns the language whose server serves the document.
func (d *Document) Language() wire.Language { return d.p.key.language }

// MarkDirty records an edit. It is cheap, reads no text and may be called
// for every keystroke: the text is read once when the debounce expires.
func (d *Document) MarkDirty() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on == nil || d.closed {
		return // didOpen, when it comes, reads the text then
	}
	d.dirty = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timerGen++
	gen := d.timerGen
	d.timer = d.cl.cfg.Clock.AfterFunc(d.cl.cfg.Debounce, func() { d.flush(gen) })
}

// Close sends didClose, clears the markers and releases the document's
// lease (the last lease arms the pair's idle timeout). It is idempotent.
func (d *Document) Close() {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	d.stopTimer()
	if c := d.on; c != nil {
		d.on = nil
		c.mu.Lock()
		rpc := c.rpc
		if c.byPath[d.abs] == d {
			delete(c.byPath, d.abs)
		}
		c.mu.Unlock()
		if err := c.notify(rpc, protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: d.uri},
		}); err != nil {
			d.cl.cfg.Logf("lsp: didClose %s: %v", d.rel, err)
		}
	}
	d.clearMarkers()
	d.mu.Unlock()
	d.cl.release(d)
}

// open sends didOpen with the current text on c, once per generation, if c
// is the pair's current generation and initialized.
func (d *Document) open(c *connection) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.on == c {
		return
	}
	cl := d.cl
	cl.mu.Lock()
	current := d.p.conn == c
	cl.mu.Unlock()
	if !current {
		return
	}
	c.mu.Lock()
	if c.ended || !c.ready {
		c.mu.Unlock()
		return
	}
	rpc := c.rpc
	abs := path.Join(c.workspace, d.rel)
	c.byPath[abs] = d // before didOpen: diagnostics may follow at once
	c.mu.Unlock()

	if d.on != nil {
		d.forget(d.on) // a replaced generation that has not finished yet
	}
	d.stopTimer()
	d.on = c
	d.abs = abs
	d.uri = protocol.DocumentURI(wire.FileURI(abs))
	d.dirty = false
	d.version = 1
	if err := c.notify(rpc, protocol.MethodDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{
			URI:        d.uri,
			LanguageID: d.languageID,
			Version:    d.version,
			Text:       d.src.Text(),
		},
	}); err != nil {
		cl.cfg.Logf("lsp: didOpen %s: %v", d.rel, err)
	}
}

// flush sends the debounced full-text didChange.
func (d *Document) flush(gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.on
	if gen != d.timerGen || c == nil || d.closed || !d.dirty {
		return // superseded, closed, or already sent
	}
	d.timer = nil
	d.dirty = false
	d.version++
	c.mu.Lock()
	rpc := c.rpc
	c.mu.Unlock()
	if err := c.notify(rpc, protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: d.uri, Version: d.version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: d.src.Text()}},
	}); err != nil {
		d.cl.cfg.Logf("lsp: didChange %s: %v", d.rel, err)
	}
}

// diagnostics shows a publishDiagnostics list from generation c.
func (d *Document) diagnostics(c *connection, ds []protocol.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on != c || d.closed {
		return
	}
	d.hasMarkers = len(ds) > 0
	d.sink.SetMarkers(monaco.FromDiagnostics(ds))
}

// detach forgets generation c after it ended, clearing its markers; a
// document already open on a newer generation is left alone. The document
// stays open for the user; a new connection reopens it.
func (d *Document) detach(c *connection) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on == c {
		d.forget(c)
	}
}

// forget drops the document's state on c. d.mu must be held.
func (d *Document) forget(c *connection) {
	d.stopTimer()
	c.mu.Lock()
	if c.byPath[d.abs] == d {
		delete(c.byPath, d.abs)
	}
	c.mu.Unlock()
	d.on = nil
	d.uri = ""
	d.clearMarkers()
}

func (d *Document) stopTimer() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.timerGen++
}

// clearMarkers removes this document's markers if it has any.
func (d *Document) clearMarkers() {
	if d.hasMarkers {
		d.hasMarkers = false
		d.sink.SetMarkers([]monaco.Marker{})
	}
}
