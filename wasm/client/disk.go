package client

import (
	"path"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/docsync"
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/watched"
)

// readTimeout bounds reading a changed file for a reload.
const readTimeout = 30 * clock.Second

// filesChanged handles a files frame (wire.Files), which the JSON-RPC
// engine hands the connection's handler in order with the server's
// messages — after the registrations the server made before it. The
// changes go to the server as far as its watchers ask
// (workspace/didChangeWatchedFiles, with its own URIs), and each open
// document of this connection whose file changed is told so.
func (c *connection) filesChanged(params j.Raw) {
	type hit struct {
		d   *Document
		typ int
	}
	var hits []hit
	var changes []FileChange
	report := c.cl.cfg.OnWorkspaceFiles != nil && c.reportsFiles()
	c.mu.Lock()
	rpc, root, reg := c.rpc, c.workspace, c.reg
	c.mdFiles, c.mdFilesOK = nil, false // the tree changed: list it again
	c.mu.Unlock()
	if reg == nil {
		return // not initialized: no server to tell, no document open
	}
	p, err := watched.Frame(params, root, reg.Registered(lsptypes.MethodDidChangeWatchedFiles), func(rel string, typ int) {
		if report {
			changes = append(changes, FileChange{Path: rel, Type: typ})
		}
		c.mu.Lock()
		if e := c.byPath[path.Join(root, rel)]; e != nil {
			for _, d := range e.docs {
				hits = append(hits, hit{d, typ})
			}
		}
		c.mu.Unlock()
	})
	if err != nil {
		c.cl.cfg.Logf("lsp: bad files frame: %v", err)
		return
	}
	if p != nil {
		if err := c.notify(rpc, lsptypes.MethodDidChangeWatchedFiles, p); err != nil {
			c.cl.cfg.Logf("lsp: didChangeWatchedFiles: %v", err)
		}
	}
	for _, h := range hits {
		h.d.onDisk(c, h.typ)
	}
	if len(changes) > 0 {
		c.cl.cfg.OnWorkspaceFiles(c.p.key.sessionID, changes)
	}
}

// FileChange is one workspace path changed on the task host
// (Config.OnWorkspaceFiles).
type FileChange struct {
	// Path is workspace-relative and slash-separated.
	Path string
	// Type is wire.FileCreated, FileChanged or FileDeleted.
	Type int
}

// reportsFiles says whether c is the connection that reports its
// session's files frames to the page: of the session's initialized
// connections, the one of the first language in name order, then slot,
// then generation. Each connection of a session carries the same frames;
// choosing one by a rule every connection applies alike reports each
// frame once. While connections come and go a frame may be reported by
// none or by two, which a Files tree that lists again absorbs.
func (c *connection) reportsFiles() bool {
	cl := c.cl
	cl.mu.Lock()
	defer cl.mu.Unlock()
	best := c
	for _, o := range cl.conns {
		k, b := o.p.key, best.p.key
		if k.sessionID != b.sessionID {
			continue
		}
		if k.language < b.language || k.language == b.language &&
			(k.slot < b.slot || k.slot == b.slot && o.gen < best.gen) {
			best = o
		}
	}
	return best == c
}

// DiskModel is optionally implemented by a document's TextSource (the
// binding's Monaco model): what reloading a file changed on disk needs.
type DiskModel interface {
	// VersionID is model.getVersionId().
	VersionID() int
	// Replace makes text the model's text with one undoable edit of the
	// range that differs, and returns the new version id. Cursors and
	// decorations outside the range stay; the model's change listener
	// sends the edit to the server like any other.
	Replace(text string) int
}

// DiskChange tells the page about a change on disk to an open document's
// file, after lsp.wasm handled it.
type DiskChange struct {
	_                      noCompare
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

// diskState is what a Document knows of its file on disk. Guarded by
// Document.mu.
type diskState struct {
	persisted int    // the model's version id whose text is on disk; -1 unknown
	base      uint64 // hash of that text; 0 unknown
}

// initDisk records the model's text at open as what is on disk, as the
// page opens documents it has just read. openDocument's persistedVersion
// (SetPersisted) says otherwise for a model opened with edits.
func (d *Document) initDisk() {
	d.mu.Lock()
	d.disk.persisted = -1
	d.mu.Unlock()
	if dm, ok := d.src.(DiskModel); ok {
		d.setDisk(dm.VersionID(), docsync.Hash(d.src.Text()))
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

// SetPersistedText says that the text on disk is text, the model's at
// version v — what a model made for a workspace edit held before it — so
// that a change on disk back to it, or to nothing else, is told apart
// from one that would overwrite the edit.
func (d *Document) SetPersistedText(v int, text string) {
	if _, ok := d.src.(DiskModel); ok {
		d.setDisk(v, docsync.Hash(text))
	}
}

func (d *Document) setDisk(version int, base uint64) {
	d.mu.Lock()
	d.disk.persisted, d.disk.base = version, base
	d.mu.Unlock()
}

// onDisk handles a change on disk reported on generation c. It runs on
// the connection's handler, so the changes of one connection are handled
// one after another, in order.
func (d *Document) onDisk(c *connection, typ int) {
	if !d.lead() {
		return // the first server's document reloads the model for all
	}
	d.mu.Lock()
	current := d.on == c && !d.closed
	d.mu.Unlock()
	if current {
		d.diskChanged(c.ctx, typ, false)
	}
}

// Reload reads the file and replaces the model's text with it, edits or
// not (the page's "Reload" after a DiskChange with Dirty), in the
// background. It reports whether a reload could start: the page passed
// readFile and the model can be edited.
func (d *Document) Reload() bool {
	if _, ok := d.src.(DiskModel); !ok || d.cl.cfg.ReadFile == nil {
		return false
	}
	go d.diskChanged(ctxlite.Background(), wire.FileChanged, true)
	return true
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
//
// Reading the file ends with parent (the connection, whose handler waits)
// or after readTimeout.
func (d *Document) diskChanged(parent ctxlite.Context, typ int, force bool) {
	cl := d.cl
	ch := DiskChange{SessionID: d.p.key.sessionID, Path: d.rel, Model: d.model, Type: typ, Version: -1}
	dm, ok := d.src.(DiskModel)
	read := cl.cfg.ReadFile
	var text string
	if ok && typ != wire.FileDeleted && read != nil {
		ctx, cancel := ctxlite.WithTimeout(parent, readTimeout)
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
		// A write the page reported since (saved) is what is on disk now.
		if v, h, ok := cl.hub.Persisted(d.model); ok && v > st.persisted {
			st = diskState{persisted: v, base: h}
		}
		ch.Dirty = ch.Version != st.persisted
		if typ != wire.FileDeleted && read != nil {
			cur, h := d.src.Text(), docsync.Hash(text)
			switch {
			case cur == text:
				d.setDisk(ch.Version, h)
				return
			case ch.Dirty && !force && st.base == h:
				return
			case !ch.Dirty || force:
				ch.Version = dm.Replace(text)
				d.setDisk(ch.Version, h)
				ch.Reloaded, ch.Dirty = true, false
			}
		}
	}
	if cl.cfg.OnDiskChange != nil {
		cl.cfg.OnDiskChange(ch)
	}
}
