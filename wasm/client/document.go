package client

import (
	"path"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/protocol"
)

// Document is one open editor model synchronized with its language server.
//
// Its state changes only under mu, and every notification for it is sent
// while mu is held, so didOpen, didChange and didClose leave in order.
type Document struct {
	conn       *connection
	rel        string // cleaned workspace-relative path
	languageID string
	src        TextSource
	sink       MarkerSink

	mu         sync.Mutex
	opened     bool   // didOpen sent on conn
	closed     bool   // Close called
	abs        string // absolute task-host path, once opened
	uri        protocol.DocumentURI
	version    int32
	dirty      bool  // edited since the last didOpen/didChange
	timer      Timer // pending debounced flush
	timerGen   uint64
	hasMarkers bool
}

// Path returns the workspace-relative path.
func (d *Document) Path() string { return d.rel }

// URI returns the document URI sent to the server, or "" before it opens.
func (d *Document) URI() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return string(d.uri)
}

// Language returns the language whose server serves the document.
func (d *Document) Language() wire.Language { return d.conn.key.language }

// MarkDirty records an edit. It is cheap, reads no text and may be called
// for every keystroke: the text is read once when the debounce expires.
func (d *Document) MarkDirty() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.opened || d.closed {
		return // didOpen, when it comes, reads the text then
	}
	d.dirty = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timerGen++
	gen := d.timerGen
	d.timer = d.conn.cl.cfg.Clock.AfterFunc(d.conn.cl.cfg.Debounce, func() { d.flush(gen) })
}

// Close sends didClose, clears the markers and detaches the document. It is
// idempotent.
func (d *Document) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.closed = true
	d.stopTimer()
	if d.opened {
		d.opened = false
		d.conn.mu.Lock()
		rpc := d.conn.rpc
		d.conn.mu.Unlock()
		if err := d.conn.notify(rpc, protocol.MethodDidClose, protocol.DidCloseTextDocumentParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: d.uri},
		}); err != nil {
			d.conn.cl.cfg.Logf("lsp: didClose %s: %v", d.rel, err)
		}
	}
	d.conn.remove(d, d.abs)
	d.clearMarkers()
}

// open sends didOpen with the current text, once, when the server is ready.
func (d *Document) open() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.opened || d.closed {
		return
	}
	c := d.conn
	c.mu.Lock()
	if c.ended || !c.ready {
		c.mu.Unlock()
		return
	}
	rpc := c.rpc
	d.abs = path.Join(c.workspace, d.rel)
	d.uri = protocol.DocumentURI(wire.FileURI(d.abs))
	c.byPath[d.abs] = d // before didOpen: diagnostics may follow at once
	c.mu.Unlock()

	d.opened = true
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
		c.cl.cfg.Logf("lsp: didOpen %s: %v", d.rel, err)
	}
}

// flush sends the debounced full-text didChange.
func (d *Document) flush(gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen != d.timerGen || !d.opened || d.closed || !d.dirty {
		return // superseded, closed, or already sent
	}
	d.timer = nil
	d.dirty = false
	d.version++
	d.conn.mu.Lock()
	rpc := d.conn.rpc
	d.conn.mu.Unlock()
	if err := d.conn.notify(rpc, protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: d.uri, Version: d.version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: d.src.Text()}},
	}); err != nil {
		d.conn.cl.cfg.Logf("lsp: didChange %s: %v", d.rel, err)
	}
}

// diagnostics shows a publishDiagnostics list for this document.
func (d *Document) diagnostics(ds []protocol.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.opened || d.closed {
		return
	}
	d.hasMarkers = len(ds) > 0
	d.sink.SetMarkers(monaco.FromDiagnostics(ds))
}

// detach forgets the ended connection's state and clears the markers. The
// document stays open for the user; a new connection would reopen it.
func (d *Document) detach() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopTimer()
	d.opened = false
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
