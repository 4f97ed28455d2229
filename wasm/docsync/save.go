package docsync

import (
	"sync"

	"github.com/kandev/lsp/wasm/lsptypes"
)

// SaveAction is what one open server document receives after a save.
type SaveAction struct {
	// Flush: send the pending debounced didChange now, so the server holds
	// the newest editor snapshot before didSave.
	Flush bool
	// DidSave: send textDocument/didSave.
	DidSave bool
	// IncludeText: didSave carries the persisted text.
	IncludeText bool
}

// DecideSave is the save rule of the spec for one open server document.
//
//   - ok: the write of snapshot S succeeded. A failed write sends nothing.
//   - sync: the document's server capability; only servers that asked for
//     save (save true or {includeText}) get didSave.
//   - sameModel: the document is the model that was saved (other models
//     with the same task-host file get no text: their snapshot is unknown).
//   - persisted, live: Monaco versionIds of S and of the model now.
//
// The text is included only for includeText servers and only when the
// live snapshot is still S; if the user typed during the write, the stale
// text is omitted so the server's document is not rewound.
func DecideSave(ok bool, sync lsptypes.SyncOptions, sameModel bool, persisted, live int) SaveAction {
	if !ok {
		return SaveAction{}
	}
	a := SaveAction{Flush: true, DidSave: sync.Save}
	a.IncludeText = a.DidSave && sync.IncludeText && sameModel && persisted == live
	return a
}

// save applies the save rule to this document for a successful write of
// s.Model: flush, then didSave as the server asks, with the persisted text
// only when s.Model is the model the server's text comes from. It reports
// whether didSave was sent.
func (d *Doc) save(s Saved) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.open || d.closed {
		return false
	}
	a := DecideSave(true, d.sync, d.leadURI == s.Model, s.PersistedVersion, s.LiveVersion)
	if a.Flush {
		d.flushLocked()
	}
	if !a.DidSave {
		return false
	}
	p := lsptypes.DidSaveTextDocumentParams{TextDocument: lsptypes.TextDocumentIdentifier{URI: d.cfg.URI}}
	if a.IncludeText {
		var t string
		if s.Text != nil {
			t = *s.Text
		} else {
			t = d.text()
		}
		p.Text = &t
	}
	d.send(lsptypes.MethodDidSave, p)
	return true
}

// Saved is what the page reports when a write finished, as one JSON:
//
//	{"model": model.uri.toString(), "ok": true|false,
//	 "persistedVersion": <model.getVersionId() when the snapshot was taken>,
//	 "liveVersion": <model.getVersionId() now>, "text"?: <the persisted text>}
//
// text may be omitted: it is then read from the document's TextSource,
// which is the persisted text whenever it would be included (the live
// version equals the persisted one).
type Saved struct {
	Model            string  `json:"model"`
	OK               bool    `json:"ok"`
	PersistedVersion int     `json:"persistedVersion"`
	LiveVersion      int     `json:"liveVersion"`
	Text             *string `json:"text"`
}

// ParseSaved decodes the page's save report.
func ParseSaved(js string) (Saved, error) {
	v, err := parseObject(js)
	if err != nil {
		return Saved{}, err
	}
	model, ok1 := v.Get("model").DecodeString()
	ok, ok2 := v.Get("ok").DecodeBool()
	pv, ok3 := v.Get("persistedVersion").DecodeInt(64)
	lv, ok4 := v.Get("liveVersion").DecodeInt(64)
	text, ok5 := v.Get("text").DecodeString()
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return Saved{}, errMalformed
	}
	s := Saved{Model: model, OK: ok, PersistedVersion: int(pv), LiveVersion: int(lv)}
	if t := v.Get("text"); t.Exists() && !t.IsNull() {
		s.Text = &text
	}
	return s, nil
}

// SaveOutcome is the answer to the page, {"dirty": bool}: whether the
// editor buffer is still dirty (a failed write, or typing during it).
type SaveOutcome struct {
	Dirty bool `json:"dirty"`
	// Notified counts the documents that received didSave (for tests and
	// logs; not sent to the page).
	Notified int `json:"-"`
}

// JSON renders the outcome for the page.
func (o SaveOutcome) JSON() string {
	if o.Dirty {
		return `{"dirty":true}`
	}
	return `{"dirty":false}`
}

// Hub knows every open document of this window, across connections, so a
// save reaches each server document for the same task-host file. It also
// orders saves per model. Safe for concurrent use.
type Hub struct {
	mu        sync.Mutex
	docs      []*Doc           // open documents, in registration order
	persisted map[string]stamp // model → its highest persisted write
}

// stamp is one persisted write: the versionId and the Hash of its text
// (0 when the report had none).
type stamp struct {
	version int
	hash    uint64
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{persisted: make(map[string]stamp)} }

// Persisted returns the highest successful write reported for a model:
// its versionId and the Hash of its text (0 when the report carried no
// text), so a change on disk can be told from the write itself.
func (h *Hub) Persisted(model string) (version int, hash uint64, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st, ok := h.persisted[model]
	return st.version, st.hash, ok
}

// Hash is FNV-1a of a text, never 0 (which stands for unknown).
func Hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h | 1
}

// Add registers an open document.
func (h *Hub) Add(d *Doc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.docs = append(h.docs, d)
}

// Remove forgets a document (after Close or Detach).
func (h *Hub) Remove(d *Doc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, x := range h.docs {
		if x == d {
			h.docs = append(h.docs[:i], h.docs[i+1:]...)
			return
		}
	}
}

// Saved handles a finished write. On success every open document matching
// the saved file — the saved model's own documents, and documents of other
// models with the same task-host URI in the same scope — gets its final
// didChange and then, if its server asked, didSave (DecideSave). A failed
// write, or a write older than one already reported for the model, sends
// nothing.
func (h *Hub) Saved(s Saved) SaveOutcome {
	out := SaveOutcome{Dirty: !s.OK || s.LiveVersion != s.PersistedVersion}
	h.mu.Lock()
	if !s.OK {
		h.mu.Unlock()
		return out
	}
	if last, ok := h.persisted[s.Model]; ok && s.PersistedVersion < last.version {
		h.mu.Unlock()
		return SaveOutcome{Dirty: true} // a newer snapshot was persisted already
	}
	st := stamp{version: s.PersistedVersion}
	if s.Text != nil {
		st.hash = Hash(*s.Text)
	}
	h.persisted[s.Model] = st
	type key struct{ scope, uri string }
	keys := map[key]bool{}
	for _, d := range h.docs {
		if d.has(s.Model) {
			keys[key{d.cfg.Scope, d.cfg.URI}] = true
		}
	}
	var targets []*Doc
	for _, d := range h.docs {
		for k := range keys {
			if d.cfg.URI == k.uri && (k.scope == "" || d.cfg.Scope == "" || d.cfg.Scope == k.scope) {
				targets = append(targets, d)
				break
			}
		}
	}
	h.mu.Unlock()

	for _, d := range targets {
		if d.save(s) {
			out.Notified++
		}
	}
	return out
}

// Forget drops a model's save history (when its editor closes).
func (h *Hub) Forget(model string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.persisted, model)
}
