package client

import (
	"path"
	"time"
	"unicode/utf8"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/docsync"
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/watched"
)

// readTimeout bounds reading a changed file for a reload.
const readTimeout = 30 * time.Second

// filesChanged handles a files frame (wire.Files), which the JSON-RPC
// engine hands the connection's handler in order with the server's
// messages — after the registrations the server made before it. The
// changes go to the server as far as its watchers ask
// (workspace/didChangeWatchedFiles, with its own URIs), and each open
// document of this connection whose file changed is told so.
func (c *connection) filesChanged(params j.Raw) {
	changes, err := watched.Parse(params)
	if err != nil {
		c.cl.cfg.Logf("lsp: bad files frame: %v", err)
		return
	}
	type hit struct {
		d   *Document
		typ int
	}
	var hits []hit
	c.mu.Lock()
	rpc, root, reg := c.rpc, c.workspace, c.reg
	for _, ch := range changes {
		if e := c.byPath[path.Join(root, ch.Path)]; e != nil {
			for _, d := range e.docs {
				hits = append(hits, hit{d, ch.Type})
			}
		}
	}
	c.mu.Unlock()
	if reg == nil {
		return // not initialized: no server to tell, no document open
	}
	if p := watched.Params(root, reg.Registered(lsptypes.MethodDidChangeWatchedFiles), changes); p != nil {
		if err := c.notify(rpc, lsptypes.MethodDidChangeWatchedFiles, p); err != nil {
			c.cl.cfg.Logf("lsp: didChangeWatchedFiles: %v", err)
		}
	}
	for _, h := range hits {
		h.d.onDisk(c, h.typ)
	}
}

// DiskModel is optionally implemented by a document's TextSource (the
// binding's Monaco model): what reloading a file changed on disk needs.
type DiskModel interface {
	// VersionID is model.getVersionId().
	VersionID() int
	// Replace replaces the text between two Monaco positions (1-based,
	// columns in UTF-16 units) with text, as one undoable edit, and
	// returns the new version id. Cursors and decorations outside the
	// range stay; the model's change listener sends the edit to the
	// server like any other.
	Replace(startLine, startColumn, endLine, endColumn int, text string) int
}

// DiskChange tells the page about a change on disk to an open document's
// file, after lsp.wasm handled it.
type DiskChange struct {
	SessionID, Path, Model string
	// Type is wire.FileCreated, FileChanged or FileDeleted.
	Type int
	// Reloaded: the model's text was replaced with the file's; Version is
	// then the model's version id whose text is on disk.
	Reloaded bool
	// Dirty: the model has edits that are not on disk, so its text was
	// left alone.
	Dirty bool
	// Version is the model's version id now (-1 without a DiskModel).
	Version int
}

// JSON renders the change for the page:
//
//	{"sessionId":"demo","path":"greet/greet.go","model":"kandev://demo/greet/greet.go",
//	 "change":"created"|"changed"|"deleted","reloaded":bool,"dirty":bool,"versionId":7}
func (ch DiskChange) JSON() string {
	b := j.AppendString(append(make([]byte, 0, 160), `{"sessionId":`...), ch.SessionID)
	b = j.AppendString(j.AppendKey(b, "path"), ch.Path)
	b = j.AppendString(j.AppendKey(b, "model"), ch.Model)
	b = j.AppendString(j.AppendKey(b, "change"), [...]string{"", "created", "changed", "deleted"}[ch.Type])
	b = j.AppendBool(j.AppendKey(b, "reloaded"), ch.Reloaded)
	b = j.AppendBool(j.AppendKey(b, "dirty"), ch.Dirty)
	b = j.AppendInt(j.AppendKey(b, "versionId"), int64(ch.Version))
	return string(append(b, '}'))
}

// diskState is what a Document knows of its file on disk. Guarded by
// Document.mu.
type diskState struct {
	persisted int    // the model's version id whose text is on disk; -1 unknown
	base      uint64 // hash of that text; 0 unknown
	busy      bool   // a reload goroutine runs
	next      int    // a change that came while it ran (0: none)
	force     bool   // Reload asked while it ran
}

// initDisk records the model's text at open as what is on disk, as the
// page opens documents it has just read. openDocument's persistedVersion
// (SetPersisted) says otherwise for a model opened with edits.
func (d *Document) initDisk() {
	d.mu.Lock()
	d.disk.persisted = -1
	d.mu.Unlock()
	if dm, ok := d.src.(DiskModel); ok {
		d.setDisk(dm.VersionID(), hash(d.src.Text()))
	}
}

// SetPersisted says that the text on disk is the model's at version v;
// when that is not the model's current version its text is unknown here.
func (d *Document) SetPersisted(v int) {
	dm, ok := d.src.(DiskModel)
	if ok && dm.VersionID() != v {
		d.setDisk(v, 0)
	}
}

func (d *Document) setDisk(version int, base uint64) {
	d.mu.Lock()
	d.disk.persisted, d.disk.base = version, base
	d.mu.Unlock()
}

// diskSaved records a successful write of a model as what is on disk.
func (cl *Client) diskSaved(s docsync.Saved) {
	if !s.OK {
		return
	}
	for _, d := range cl.docsOf(s.Model) {
		var base uint64
		switch {
		case s.Text != nil:
			base = hash(*s.Text)
		case s.LiveVersion == s.PersistedVersion:
			base = hash(d.src.Text())
		}
		d.mu.Lock()
		if s.PersistedVersion >= d.disk.persisted {
			d.disk.persisted, d.disk.base = s.PersistedVersion, base
		}
		d.mu.Unlock()
	}
}

// docsOf returns the open documents of a Monaco model.
func (cl *Client) docsOf(model string) []*Document {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var out []*Document
	for _, p := range cl.pairs {
		for d := range p.docs {
			if d.model == model {
				out = append(out, d)
			}
		}
	}
	return out
}

// onDisk handles a change on disk reported on generation c.
func (d *Document) onDisk(c *connection, typ int) {
	d.mu.Lock()
	current := d.on == c
	d.mu.Unlock()
	if current {
		d.queueDisk(typ, false)
	}
}

// Reload reads the file and replaces the model's text with it, edits or
// not (the page's "Reload" after a DiskChange with Dirty). It reports
// whether a reload could start: the page passed readFile and the model
// can be edited.
func (d *Document) Reload() bool {
	if _, ok := d.src.(DiskModel); !ok || d.cl.cfg.ReadFile == nil {
		return false
	}
	d.queueDisk(wire.FileChanged, true)
	return true
}

// queueDisk runs one reload at a time per document; a change that comes
// meanwhile runs after it, so the last one read wins.
func (d *Document) queueDisk(typ int, force bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if d.disk.busy {
		d.disk.next, d.disk.force = typ, d.disk.force || force
		return
	}
	d.disk.busy = true
	go func() {
		for typ != 0 {
			d.diskChanged(typ, force)
			d.mu.Lock()
			typ, force = d.disk.next, d.disk.force
			d.disk.next, d.disk.force = 0, false
			if d.closed {
				typ = 0
			}
			d.disk.busy = typ != 0
			d.mu.Unlock()
		}
	}()
}

// diskChanged applies the rule for an open document whose file changed:
//
//   - the file (read with Config.ReadFile) is the model's text already, or
//     the model has edits and the file still holds what was last known on
//     disk (a save while typing, a touch): nothing;
//   - the model has no edits (or Reload forces it): its text becomes the
//     file's, with one edit of the range that differs;
//   - the model has edits, or the file was deleted: nothing changes, and
//     the page learns it through OnDiskChange, so no edit is lost.
//
// Every outcome but the first is reported to the page.
func (d *Document) diskChanged(typ int, force bool) {
	cl := d.cl
	ch := DiskChange{SessionID: d.p.key.sessionID, Path: d.rel, Model: d.model, Type: typ, Version: -1}
	dm, ok := d.src.(DiskModel)
	read := cl.cfg.ReadFile
	var text string
	if ok && typ != wire.FileDeleted && read != nil {
		ctx, cancel := WithTimeout(readTimeout)
		var found bool
		text, found = read(ctx, d.p.key.sessionID, d.rel)
		cancel()
		if !found {
			cl.cfg.Logf("lsp: %s changed on disk and could not be read", d.rel)
			return // a deletion comes as its own change
		}
	}
	if ok {
		// In a browser nothing else runs between these calls: the version
		// read is the one the edit applies to.
		ch.Version = dm.VersionID()
		d.mu.Lock()
		st, closed := d.disk, d.closed
		d.mu.Unlock()
		if closed {
			return
		}
		ch.Dirty = ch.Version != st.persisted
		if typ != wire.FileDeleted && read != nil {
			cur, h := d.src.Text(), hash(text)
			switch {
			case cur == text:
				d.setDisk(ch.Version, h)
				return
			case ch.Dirty && !force && st.base == h:
				return
			case !ch.Dirty || force:
				sl, sc, el, ec, ins := replaceRange(cur, text)
				ch.Version = dm.Replace(sl, sc, el, ec, ins)
				d.setDisk(ch.Version, h)
				ch.Reloaded, ch.Dirty = true, false
			}
		}
	}
	if cl.cfg.OnDiskChange != nil {
		cl.cfg.OnDiskChange(ch)
	}
}

// replaceRange returns the smallest edit turning old into new: the
// Monaco range of old that differs (1-based lines, UTF-16 columns) and
// its replacement. The range never splits a character or a CRLF.
func replaceRange(old, new string) (sl, sc, el, ec int, text string) {
	p, n := 0, min(len(old), len(new))
	for p < n && old[p] == new[p] {
		p++
	}
	for p > 0 && (p < len(old) && !utf8.RuneStart(old[p]) || p < len(new) && !utf8.RuneStart(new[p]) ||
		old[p-1] == '\r' && (p < len(old) && old[p] == '\n' || p < len(new) && new[p] == '\n')) {
		p--
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for s > 0 && (!utf8.RuneStart(old[len(old)-s]) || old[len(old)-s] == '\n' && len(old)-s > 0 && old[len(old)-s-1] == '\r' ||
		new[len(new)-s] == '\n' && len(new)-s > 0 && new[len(new)-s-1] == '\r') {
		s--
	}
	sl, sc = position(old, p)
	el, ec = position(old, len(old)-s)
	return sl, sc, el, ec, new[p : len(new)-s]
}

// position converts a byte offset of text (never inside a character or a
// CRLF) to a Monaco position; "\r\n", "\n" and "\r" end lines, as in
// Monaco.
func position(text string, off int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < off; {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r' && i+1 < len(text) && text[i+1] == '\n':
			n = 2
			fallthrough
		case r == '\n' || r == '\r':
			line, col = line+1, 1
		case r >= 0x10000:
			col += 2
		default:
			col++
		}
		i += n
	}
	return line, col
}

// hash is FNV-1a of a text, never 0 (which means unknown).
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h | 1
}
