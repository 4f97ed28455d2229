package docsync

import (
	"errors"
	"sync"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// DefaultDebounce is how long a document of a full-text server stays quiet
// before its text goes out as one didChange.
const DefaultDebounce = 200 * clock.Millisecond

// Sender writes one notification on the document's connection. Calls for
// one connection must reach the server in call order.
type Sender func(method string, params jsonlite.Appender) error

// TextSource reads the model's whole current text (model.getValue()).
type TextSource interface {
	Text() string
}

// TextFunc adapts a function to TextSource.
type TextFunc func() string

// Text calls f.
func (f TextFunc) Text() string { return f() }

// MonacoRange is Monaco's IRange: 1-based lines and 1-based UTF-16 columns.
type MonacoRange struct {
	StartLineNumber uint32 `json:"startLineNumber"`
	StartColumn     uint32 `json:"startColumn"`
	EndLineNumber   uint32 `json:"endLineNumber"`
	EndColumn       uint32 `json:"endColumn"`
}

// Change is Monaco's IModelContentChange: range and offsets refer to the
// text before the change, counted in UTF-16 code units.
type Change struct {
	_           [0]func()   // incomparable: spares lsp.wasm an equality function
	Range       MonacoRange `json:"range"`
	RangeOffset int         `json:"rangeOffset"`
	RangeLength int         `json:"rangeLength"`
	Text        string      `json:"text"`
}

// Event is Monaco's IModelContentChangedEvent, as the binding stringifies
// it in model.onDidChangeContent:
//
//	JSON.stringify({versionId: e.versionId, isFlush: e.isFlush,
//	  isEolChange: e.isEolChange, changes: e.changes})
//
// Monaco orders changes from the end of the document to the beginning, so
// applying them in sequence is correct — exactly LSP's rule for the
// contentChanges of one didChange, so they are forwarded in that order.
type Event struct {
	VersionID   int      `json:"versionId"`
	IsFlush     bool     `json:"isFlush"`
	IsEolChange bool     `json:"isEolChange"`
	Changes     []Change `json:"changes"`
}

// ParseEvent decodes the binding's event JSON.
func ParseEvent(js string) (Event, error) {
	v, err := parseObject(js)
	if err != nil {
		return Event{}, err
	}
	var e Event
	id, ok1 := v.Get("versionId").DecodeInt(64)
	flush, ok2 := v.Get("isFlush").DecodeBool()
	eol, ok3 := v.Get("isEolChange").DecodeBool()
	changes := v.Get("changes")
	if !ok1 || !ok2 || !ok3 || !changes.DecodeArray() {
		return Event{}, errMalformed
	}
	e.VersionID, e.IsFlush, e.IsEolChange = int(id), flush, eol
	if changes.Kind() == jsonlite.Array {
		e.Changes = []Change{}
		for _, c := range changes.Elems() {
			ch, ok := parseChange(c)
			if !ok {
				return Event{}, errMalformed
			}
			e.Changes = append(e.Changes, ch)
		}
	}
	return e, nil
}

// errMalformed reports binding JSON of the wrong shape.
var errMalformed = errors.New("docsync: malformed JSON from the binding")

// parseObject parses binding JSON that must be an object (null decodes as
// the zero value, as with encoding/json).
func parseObject(js string) (jsonlite.Value, error) {
	v, err := jsonlite.Parse([]byte(js))
	if err != nil {
		return jsonlite.Value{}, err
	}
	if !v.DecodeObject() {
		return jsonlite.Value{}, errMalformed
	}
	return v, nil
}

func parseChange(v jsonlite.Value) (Change, bool) {
	r := v.Get("range")
	if !v.DecodeObject() || !r.DecodeObject() {
		return Change{}, false
	}
	var n [6]uint64
	for i, f := range []struct {
		v    jsonlite.Value
		bits int
	}{
		{r.Get("startLineNumber"), 32}, {r.Get("startColumn"), 32}, {r.Get("endLineNumber"), 32}, {r.Get("endColumn"), 32},
	} {
		u, ok := f.v.DecodeUint(f.bits)
		if !ok {
			return Change{}, false
		}
		n[i] = u
	}
	off, ok1 := v.Get("rangeOffset").DecodeInt(64)
	length, ok2 := v.Get("rangeLength").DecodeInt(64)
	text, ok3 := v.Get("text").DecodeString()
	if !ok1 || !ok2 || !ok3 {
		return Change{}, false
	}
	return Change{
		Range:       MonacoRange{StartLineNumber: uint32(n[0]), StartColumn: uint32(n[1]), EndLineNumber: uint32(n[2]), EndColumn: uint32(n[3])},
		RangeOffset: int(off), RangeLength: int(length), Text: text,
	}, true
}

// ToLSP converts a Monaco change to an LSP ranged change. Monaco and LSP
// both count UTF-16 code units, so lines and columns shift by one and no
// text is needed, whatever surrogate pairs or CRLF the line holds.
func (c Change) ToLSP() lsptypes.TextDocumentContentChangeEvent {
	r := lsptypes.Range{
		Start: lsptypes.Position{Line: dec(c.Range.StartLineNumber), Character: dec(c.Range.StartColumn)},
		End:   lsptypes.Position{Line: dec(c.Range.EndLineNumber), Character: dec(c.Range.EndColumn)},
	}
	return lsptypes.TextDocumentContentChangeEvent{Range: &r, Text: c.Text}
}

func dec(n uint32) uint32 {
	if n == 0 {
		return 0
	}
	return n - 1
}

// Config describes one document on one connection.
type Config struct {
	// URI is the clean task-host file:// URI the server sees.
	URI string
	// LanguageID is didOpen's languageId.
	LanguageID string
	// Model is the session-scoped Monaco model URI of the first model, a
	// save identity (Join adds more).
	Model string
	// Scope names the task host whose file this is: saves notify matching
	// documents of the same scope only (two Docker tasks may both have
	// file:///workspace/a.go). Empty matches every scope.
	Scope string
	// Sync is the server's resolved textDocumentSync capability when the
	// document opens; SetSync changes it later (dynamic registration).
	Sync lsptypes.SyncOptions
	// Send writes notifications; required.
	Send Sender
	// Source reads the first model's text; required.
	Source TextSource
	// Clock schedules didChange: an incremental change goes out at once
	// when it is the first of its turn of the event loop, the turn's later
	// ones together at its end (Clock.Soon); the whole text of a full-text
	// server after Debounce of quiet. nil and 0 mean the wall clock and
	// DefaultDebounce.
	Clock    Clock
	Debounce clock.Duration
	// Logf reports send errors; nil discards them.
	Logf func(format string, args ...any)
}

// member is one Monaco model showing the document.
type member struct {
	model string
	src   TextSource
}

// Doc is one open server document on one connection: one didOpen, one
// didClose. Its version counter is its own, so the same model on two
// connections is versioned independently.
//
// Several Monaco models of the same task file (two editors of one session)
// share it: Join and Leave count them, and the last Leave closes it. The
// server holds the text of the model edited last (the lead): an edit in
// another model makes that model the lead and sends its whole text, so
// the server never applies one model's ranges to another's text.
type Doc struct {
	cfg Config

	mu       sync.Mutex
	sync     lsptypes.SyncOptions
	members  []member
	lead     TextSource // the model whose text the server holds; nil: none yet
	leadURI  string
	open     bool // tracking: Open called, not closed
	opened   bool // didOpen sent (the server asked for open/close)
	closed   bool
	version  int32
	pending  []lsptypes.TextDocumentContentChangeEvent // incremental mode
	dirty    bool                                      // changes not yet sent
	stale    bool                                      // the next didChange carries the whole text
	timer    Timer
	turn     bool // incremental: this turn's first change went out; a Soon ends the turn
	timerGen uint64
}

// NewDoc returns a document that has sent nothing yet; call Open.
func NewDoc(cfg Config) *Doc {
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	return &Doc{cfg: cfg, sync: cfg.Sync, members: []member{{cfg.Model, cfg.Source}}, lead: cfg.Source, leadURI: cfg.Model}
}

// URI is the server's document URI.
func (d *Doc) URI() string { return d.cfg.URI }

// Version is the last version sent to the server.
func (d *Doc) Version() int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.version
}

// Lead is the URI of the model whose text the server holds: the one
// edited last, else the first to open.
func (d *Doc) Lead() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.leadURI != "" {
		return d.leadURI
	}
	if len(d.members) > 0 {
		return d.members[0].model
	}
	return ""
}

// AtVersion reports whether the server holds exactly the lead model's text
// at version v: open, at that version, with no edit waiting to be sent. A
// server's edit computed at v applies to the model only then.
func (d *Doc) AtVersion(v int32) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.open && !d.closed && d.version == v && !d.dirty && !d.stale
}

// Sync is the synchronization the server currently asks for.
func (d *Doc) Sync() lsptypes.SyncOptions {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.sync
}

// Open sends didOpen (version 1) with the current text, when the server
// wants open/close notifications. Either way the document starts tracking
// changes.
func (d *Doc) Open() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open || d.closed {
		return
	}
	d.open = true
	d.version = 1
	if d.sync.OpenClose {
		d.sendOpenLocked()
	}
}

// sendOpenLocked sends didOpen with the lead's text at the current
// version; the text includes every edit, so nothing is pending after it.
func (d *Doc) sendOpenLocked() {
	d.opened = true
	d.pending, d.dirty, d.stale = nil, false, false
	d.stopTimer()
	d.send(lsptypes.MethodDidOpen, lsptypes.DidOpenTextDocumentParams{TextDocument: lsptypes.TextDocumentItem{
		URI: d.cfg.URI, LanguageID: d.cfg.LanguageID, Version: d.version, Text: d.text(),
	}})
}

// text reads the lead model's text (or the first model's when no model
// leads). d.mu must be held.
func (d *Doc) text() string {
	if d.lead != nil {
		return d.lead.Text()
	}
	if len(d.members) > 0 {
		return d.members[0].src.Text()
	}
	return ""
}

// Holds reports whether the server's document is src's text: src leads,
// or its text is the lead's. Two models of one file share the server
// document; after an edit in one, the other's positions no longer match
// what the server answers for (a semantic token past a line's end).
func (d *Doc) Holds(src TextSource) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	lead := d.lead
	if lead == nil && len(d.members) > 0 {
		lead = d.members[0].src
	}
	return lead == src || src.Text() == d.text()
}

// Join adds another model of the same task file: it shares this server
// document (no second didOpen). It reports false once the document
// closed; the caller then opens a new one.
func (d *Doc) Join(model string, src TextSource) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false
	}
	d.members = append(d.members, member{model, src})
	return true
}

// Leave removes a model. The last one closes the document, sending
// didClose, and Leave reports true. When the lead leaves, the next edit of
// any remaining model sends that model's whole text.
func (d *Doc) Leave(src TextSource) (last bool) {
	d.mu.Lock()
	for i, m := range d.members {
		if m.src == src {
			d.members = append(d.members[:i:i], d.members[i+1:]...)
			break
		}
	}
	if d.lead == src {
		d.lead, d.leadURI = nil, ""
	}
	last = len(d.members) == 0
	d.mu.Unlock()
	if last {
		d.Close()
	}
	return last
}

// has reports whether model shows this document.
func (d *Doc) has(model string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, m := range d.members {
		if m.model == model {
			return true
		}
	}
	return false
}

// SetSync applies a change of the server's synchronization options
// (client/registerCapability or unregisterCapability of didOpen,
// didChange, didSave, didClose) to the open document: a server that now
// wants open/close gets didOpen with the current text; one that now wants
// changes in another form gets the whole text next, so edits made while it
// wanted none, or recorded in the other form, are not lost.
func (d *Doc) SetSync(s lsptypes.SyncOptions) {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.sync
	d.sync = s
	if !d.open || d.closed {
		return
	}
	if s.OpenClose && !d.opened {
		d.sendOpenLocked()
		return
	}
	if s.Change == old.Change {
		return
	}
	if d.dirty || d.stale {
		// Edits not yet sent: recorded for the old form (or not at all),
		// so the new form starts from the whole text.
		d.pending, d.stale = nil, true
		d.dirty = s.Change != lsptypes.SyncNone
	}
	if d.dirty {
		d.scheduleLocked()
	} else {
		d.stopTimer()
	}
}

// Changed records one Monaco content-change event of the lead model and
// sends or schedules its didChange. For an incremental server, the first
// change of a turn of the event loop is sent at once, inside this call, so
// the server starts on a keystroke before the provider request Monaco
// makes in the same task; the turn's later changes are gathered and leave
// together as one didChange at its end (or at an earlier Flush or save), so
// a turn sends at most two. A full-text server is sent the whole text after
// the debounce. The binding must call it synchronously inside Monaco's
// listener: a flush or EOL change, and a change that goes out at once as
// the whole text, read the model text at that moment.
func (d *Doc) Changed(e Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.changedLocked(e)
}

// ChangedBy is Changed for the model whose text src reads: when another
// model led until now, src leads from here and the next didChange carries
// its whole text.
func (d *Doc) ChangedBy(src TextSource, e Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.open || d.closed {
		return
	}
	if d.lead != src {
		for _, m := range d.members {
			if m.src == src {
				d.lead, d.leadURI = src, m.model
				break
			}
		}
		d.stale, d.pending = true, nil
	}
	d.changedLocked(e)
}

func (d *Doc) changedLocked(e Event) {
	if !d.open || d.closed {
		return
	}
	switch d.sync.Change {
	case lsptypes.SyncNone:
		d.stale = true // owed as a whole text if the server asks later
		return
	case lsptypes.SyncIncremental:
		switch {
		case d.stale:
			// The whole text goes out anyway.
		case e.IsFlush && len(e.Changes) == 1:
			// setValue: the one change carries the whole new text.
			d.pending = append(d.pending[:0], lsptypes.TextDocumentContentChangeEvent{Text: e.Changes[0].Text})
		case e.IsFlush || e.IsEolChange:
			d.pending = append(d.pending[:0], lsptypes.TextDocumentContentChangeEvent{Text: d.text()})
		default:
			for _, c := range e.Changes {
				d.pending = append(d.pending, c.ToLSP())
			}
		}
	}
	d.dirty = true
	d.scheduleLocked()
}

// scheduleLocked arranges the next didChange. For incremental sync: when
// no turn is open (nothing went out since the last end of turn), it sends
// now and opens a turn, ending at Clock.Soon; within an open turn, the
// change waits for the turn's end, which sends everything gathered in it.
// For the whole text: after Debounce of quiet. d.mu must be held.
func (d *Doc) scheduleLocked() {
	if d.sync.Change == lsptypes.SyncIncremental {
		if d.turn {
			return // the end of the turn sends it
		}
		d.flushLocked()
		d.turn = true
		d.cfg.Clock.Soon(d.endTurn)
		return
	}
	d.stopTimer()
	gen := d.timerGen
	d.timer = d.cfg.Clock.AfterFunc(d.cfg.Debounce, func() { d.flushGen(gen) })
}

// endTurn closes the turn the first change opened: what was gathered since
// leaves as one didChange, and the next change goes out at once again. A
// Flush inside the turn does not end it; a full-text server (the sync
// changed meanwhile) keeps its debounce.
func (d *Doc) endTurn() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.turn = false
	if d.sync.Change == lsptypes.SyncIncremental {
		d.flushLocked()
	}
}

// Flush sends any pending change now (a provider, before its request),
// cancelling the debounce; an open turn stays open, so a change after it
// waits for the turn's end.
func (d *Doc) Flush() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.flushLocked()
}

func (d *Doc) flushGen(gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen != d.timerGen {
		return // superseded by a later change, a flush or a close
	}
	d.flushLocked()
}

func (d *Doc) flushLocked() {
	d.stopTimer()
	if !d.open || d.closed || !d.dirty {
		return
	}
	d.dirty = false
	var changes []lsptypes.TextDocumentContentChangeEvent
	switch {
	case d.sync.Change == lsptypes.SyncNone:
		return
	case d.sync.Change == lsptypes.SyncFull || d.stale:
		// A change without a range replaces the whole text, in either form.
		changes = []lsptypes.TextDocumentContentChangeEvent{{Text: d.text()}}
		d.pending, d.stale = nil, false
	default:
		changes, d.pending = d.pending, nil
	}
	d.version++
	d.send(lsptypes.MethodDidChange, lsptypes.DidChangeTextDocumentParams{
		TextDocument:   lsptypes.VersionedTextDocumentIdentifier{URI: d.cfg.URI, Version: d.version},
		ContentChanges: changes,
	})
}

// Close sends didClose (if the server got didOpen and still wants
// open/close) and stops tracking. Pending changes are dropped: the server
// forgets the document anyway. Idempotent.
func (d *Doc) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	wasOpen := d.open && d.opened
	d.closed, d.open = true, false
	d.stopTimer()
	d.pending, d.dirty, d.stale = nil, false, false
	if wasOpen && d.sync.OpenClose {
		d.send(lsptypes.MethodDidClose, lsptypes.DidCloseTextDocumentParams{TextDocument: lsptypes.TextDocumentIdentifier{URI: d.cfg.URI}})
	}
}

// Detach stops tracking without sending anything: the connection ended.
func (d *Doc) Detach() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed, d.open = true, false
	d.stopTimer()
	d.pending, d.dirty, d.stale = nil, false, false
}

// stopTimer cancels the debounced didChange. An open turn stays open: its
// end finds nothing to send unless a change came after.
func (d *Doc) stopTimer() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.timerGen++
}

func (d *Doc) send(method string, params jsonlite.Appender) {
	if err := d.cfg.Send(method, params); err != nil {
		d.cfg.Logf("lsp: %s %s: %v", method, d.cfg.URI, err)
	}
}
