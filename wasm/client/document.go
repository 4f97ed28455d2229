package client

import (
	"path"
	"strings"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/docsync"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// serverDoc is one document open on a connection's server and the
// Documents (Monaco models of that task file) showing it: one didOpen, one
// didClose after the last of them, diagnostics for each. Guarded by the
// connection's mu; never empty while in byPath.
type serverDoc struct {
	sd   *docsync.Doc
	docs []*Document
	// sets are the diagnostics shown, by marker set: pushed, and one per
	// pull provider; kept for a model joining later.
	sets []markerSet
}

// Document is one open editor model synchronized with its language server.
// It is a lease on its (session, language) pair and outlives connections:
// each new generation of the pair opens it again with its current text.
//
// Its state changes only under mu, and every notification for it is sent
// while mu is held (by its docsync.Doc), so didOpen, didChange, didSave and
// didClose leave in order. Two Documents of the same task file in one
// session share one server document. Lock order: see the package comment.
type Document struct {
	cl         *Client
	p          *pair
	rel        string // cleaned workspace-relative path; absolute for a library file
	library    bool   // a read-only file outside the workspace (OpenLibraryDocument)
	languageID string
	model      string // the Monaco model URI (session-scoped)
	monacoID   string // the Monaco language id of the model
	src        TextSource
	sink       MarkerSink

	mu         sync.Mutex
	on         *connection // the generation it is open on, nil if none
	closed     bool        // Close called
	abs        string      // absolute task-host path, while open
	uri        string
	sd         *docsync.Doc // the server's copy, while open (shared with other models of the file)
	hasMarkers bool
	disk       diskState // what is on disk (disk.go)

	// peers are the documents of the language's further servers, on the
	// first server's Document only; they follow its edits and its Close.
	// The first one alone keeps the disk state.
	peerMu      sync.Mutex
	peers       []*Document
	peersClosed bool
}

// SlotSinks is optionally implemented by a document's MarkerSink: the sink
// for the markers of the language's slot-th server (slot ≥ 1), under an
// owner of its own, so that each server's diagnostics replace only its
// own. Without it those servers' markers are not shown.
type SlotSinks interface {
	ForSlot(slot int) MarkerSink
}

// discardSink shows nothing.
type discardSink struct{}

func (discardSink) SetMarkers([]monaco.Marker) {}

// lead reports whether d is its language's first server's document.
func (d *Document) lead() bool { return d.p.key.slot == 0 }

// all returns d and its peers.
func (d *Document) all() []*Document {
	d.peerMu.Lock()
	defer d.peerMu.Unlock()
	return append([]*Document{d}, d.peers...)
}

// resize gives the document one peer for each slot of the language's n
// servers after the first, and closes the peers of slots past n.
func (d *Document) resize(n int) {
	if d.library {
		n = 1 // a library file is its language's first server's alone
	}
	cl := d.cl
	key := d.p.key
	d.peerMu.Lock()
	if d.peersClosed {
		d.peerMu.Unlock()
		return
	}
	var gone, added []*Document
	var conns []*connection
	have := map[int]bool{}
	keep := d.peers[:0:0]
	for _, x := range d.peers {
		if x.p.key.slot < n {
			keep = append(keep, x)
			have[x.p.key.slot] = true
		} else {
			gone = append(gone, x)
		}
	}
	allowed := n > 1 && (cl.cfg.Policy == nil || cl.cfg.Policy.ShouldConnect(key.sessionID, key.language))
	for slot := 1; slot < n; slot++ {
		if have[slot] {
			continue
		}
		sink := MarkerSink(discardSink{})
		if ss, ok := d.sink.(SlotSinks); ok {
			sink = ss.ForSlot(slot)
		}
		x, conn := cl.openSlot(connKey{key.sessionID, key.language, slot}, d.rel, d.src, sink, allowed)
		keep = append(keep, x)
		added, conns = append(added, x), append(conns, conn)
	}
	d.peers = keep
	d.peerMu.Unlock()
	if len(added) > 0 {
		cl.deliver() // the new leases' statuses, outside peerMu
	}
	for _, x := range gone {
		x.Close()
	}
	for i, x := range added {
		if conns[i] != nil {
			x.open(conns[i])
		}
	}
}

// Path returns the workspace-relative path, or a library file's absolute
// path.
func (d *Document) Path() string { return d.rel }

// Library reports whether d is a read-only file outside the workspace.
func (d *Document) Library() bool { return d.library }

// absOn is the task-host path of d on a connection whose workspace is ws.
func (d *Document) absOn(ws string) string {
	if d.library {
		return d.rel
	}
	return path.Join(ws, d.rel)
}

// SessionID returns the session the document belongs to.
func (d *Document) SessionID() string { return d.p.key.sessionID }

// Model returns the Monaco model URI of the document.
func (d *Document) Model() string { return d.model }

// URI returns the document URI sent to the server, or "" while not open.
func (d *Document) URI() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.uri
}

// Language returns the language whose server serves the document.
func (d *Document) Language() wire.Language { return d.p.key.language }

// MarkDirty records an edit without its details: the next didChange carries
// the whole text (read once, when it leaves).
func (d *Document) MarkDirty() {
	for _, x := range d.all() {
		x.changed(docsync.Event{IsFlush: true})
	}
}

// Changed records one Monaco content-change event, as the binding
// stringifies it synchronously inside model.onDidChangeContent (see
// docsync.Event). Edits go out as the server asked: incrementally (the
// first of a turn of the event loop at once, inside this call, the turn's
// later ones together at its end), the whole text debounced, or not at all
// for a server without change sync.
func (d *Document) Changed(eventJSON string) error {
	e, err := docsync.ParseEvent(eventJSON)
	if err != nil {
		return err
	}
	for _, x := range d.all() {
		x.changed(e)
	}
	return nil
}

func (d *Document) changed(e docsync.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sd == nil || d.closed {
		return // didOpen, when it comes, reads the text then
	}
	d.sd.ChangedBy(d.src, e)
}

// flushForRequest sends pending edits before a request on c and returns the
// server URI and the version the server now holds, or "" when the document
// is not open on c.
func (d *Document) flushForRequest(c *connection) (string, int32) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on != c || d.sd == nil {
		return "", 0
	}
	d.sd.Flush()
	if !d.sd.Holds(d.src) {
		return "", 0 // another model of the file leads with other text
	}
	return d.uri, d.sd.Version()
}

// Close sends didClose (once the file's last model closes), clears the
// markers and releases the document's lease (the last lease arms the
// pair's idle timeout), on every server of the language. It is idempotent.
func (d *Document) Close() {
	d.peerMu.Lock()
	peers := d.peers
	d.peers, d.peersClosed = nil, true
	d.peerMu.Unlock()
	for _, x := range peers {
		x.Close()
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	if c := d.on; c != nil {
		d.on = nil
		d.leave(c, true)
		d.cl.suppress.Disown(c.id(), d.model)
	}
	if d.lead() {
		d.cl.hub.Forget(d.model) // its saves: the first server's document closes last
	}
	d.clearMarkers()
	d.mu.Unlock()
	d.cl.publishSuppression()
	d.cl.release(d)
}

// leave removes the document from its server document on c; the last one
// out closes it (didClose) when polite, or just stops tracking it (the
// connection ended). d.mu must be held.
func (d *Document) leave(c *connection, polite bool) {
	sd := d.sd
	d.sd = nil
	c.docMu.Lock()
	defer c.docMu.Unlock()
	c.mu.Lock()
	if e := c.byPath[d.abs]; e != nil && e.sd == sd {
		for i, x := range e.docs {
			if x == d {
				e.docs = append(e.docs[:i:i], e.docs[i+1:]...)
				break
			}
		}
		if len(e.docs) == 0 {
			delete(c.byPath, d.abs)
		}
	}
	c.mu.Unlock()
	if sd == nil {
		return
	}
	last := true
	if polite {
		last = sd.Leave(d.src) // under docMu: didClose precedes any new didOpen
	} else {
		sd.Detach()
	}
	if last {
		d.cl.hub.Remove(sd)
	}
}

// open sends didOpen with the current text on c, once per generation, if c
// is the pair's current generation and initialized — or, when another
// model of the same file is open on c already, joins its server document.
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
	if d.on != nil {
		d.forget(d.on, false) // a replaced generation that has not finished yet
	}
	c.docMu.Lock()
	defer c.docMu.Unlock()
	c.mu.Lock()
	if c.ended || !c.ready || c.reg == nil {
		c.mu.Unlock()
		return
	}
	rpc, reg := c.rpc, c.reg
	abs := d.absOn(c.workspace)
	e := c.byPath[abs]
	c.mu.Unlock()

	joined := e != nil && e.sd.Join(d.model, d.src)
	uri := wire.FileURI(abs)
	if !joined {
		e = &serverDoc{sd: docsync.NewDoc(docsync.Config{
			URI:        wire.FileURI(abs),
			LanguageID: d.languageID,
			Model:      d.model,
			Scope:      strings.ToLower(d.p.key.sessionID),
			Sync:       reg.For(d.languageID).Sync,
			Send: func(method string, params jsonlite.Appender) error {
				err := c.notify(rpc, method, params)
				if err == nil {
					c.sent(method, uri, d.languageID)
				}
				return err
			},
			Source:   d.src,
			Clock:    docClock{cl.cfg.Clock, cl.cfg.Soon},
			Debounce: cl.cfg.Debounce,
			Logf:     cl.cfg.Logf,
		})}
	}
	c.mu.Lock()
	e.docs = append(e.docs, d)
	c.byPath[abs] = e // before didOpen: diagnostics may follow at once
	c.mu.Unlock()

	d.on = c
	d.abs = abs
	d.uri = wire.FileURI(abs)
	d.sd = e.sd
	if !joined {
		d.sd.Open()
		cl.hub.Add(d.sd)
	} else {
		// No didOpen, so no fresh publish: the joining model shows what
		// the server published last.
		c.mu.Lock()
		diags := e.diagnostics()
		c.mu.Unlock()
		if len(diags) > 0 {
			d.hasMarkers = true
			d.sink.SetMarkers(monaco.FromDiagnostics(diags, c.serverToModel))
		}
	}
	if cl.suppress.Own(c.id(), d.model, strings.ToLower(d.p.key.sessionID), d.monacoID) {
		cl.publishSuppression()
	}
}

// docClock adapts the client's Clock and Soon to docsync's Clock.
type docClock struct {
	c    Clock
	soon func(func())
}

func (k docClock) AfterFunc(dur clock.Duration, f func()) docsync.Timer {
	return k.c.AfterFunc(dur, f)
}

func (k docClock) Soon(f func()) { k.soon(f) }

// diagnostics shows a publishDiagnostics list from generation c.
func (d *Document) diagnostics(c *connection, ds []lsptypes.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on != c || d.closed {
		return
	}
	d.hasMarkers = len(ds) > 0
	d.sink.SetMarkers(monaco.FromDiagnostics(ds, c.serverToModel))
}

// detach forgets generation c after it ended, clearing its markers unless
// keepMarkers (the pair is reconnecting: the next generation's diagnostics
// replace them, so they do not blink off and on); a document already open
// on a newer generation is left alone. The document stays open for the
// user; a new connection reopens it.
func (d *Document) detach(c *connection, keepMarkers bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on == c {
		d.forget(c, keepMarkers)
	}
}

// clearStaleMarkers clears the markers a document kept through reconnect
// attempts when they gave up: no generation shows them any more.
func (d *Document) clearStaleMarkers() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on == nil {
		d.clearMarkers()
	}
}

// forget drops the document's state on c, and its markers unless
// keepMarkers. d.mu must be held.
func (d *Document) forget(c *connection, keepMarkers bool) {
	d.leave(c, false)
	d.cl.suppress.Disown(c.id(), d.model)
	d.on = nil
	d.uri = ""
	if !keepMarkers {
		d.clearMarkers()
	}
}

// clearMarkers removes this document's markers if it has any.
func (d *Document) clearMarkers() {
	if d.hasMarkers {
		d.hasMarkers = false
		d.sink.SetMarkers([]monaco.Marker{})
	}
}
