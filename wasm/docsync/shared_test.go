package docsync

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// A server that registers its synchronization dynamically, after the
// document opened under static options that asked for less.
func TestSetSyncFollowsDynamicRegistration(t *testing.T) {
	ev := func(v int) Event {
		return Event{VersionID: v, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "x"}}}
	}
	t.Run("didOpen registered: the open document is opened with its text", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", LanguageID: "go", Sync: lsptypes.SyncOptions{}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		src.text = "xhello"
		d.Changed(ev(2))
		clock.Fire()
		if n := len(rec.take()); n != 0 {
			t.Fatalf("sent %d before any registration", n)
		}
		d.SetSync(lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental})
		log := rec.take()
		if len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","languageId":"go","version":1,"text":"xhello"}}` {
			t.Fatalf("didOpen: %+v", log)
		}
		d.Changed(ev(3))
		clock.Fire()
		d.Close()
		if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didChange", "c textDocument/didClose"}) {
			t.Errorf("after: %v", got)
		}
	})
	t.Run("didChange registered: edits made meanwhile go out as the whole text", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "xhello"
		d.Changed(ev(2))
		clock.Fire()
		d.SetSync(lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental})
		clock.Fire()
		log := rec.take()
		if len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` {
			t.Errorf("owed text: %+v", log)
		}
	})
	t.Run("full to incremental with a change pending: the whole text, then ranges", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncFull}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "xhello"
		d.Changed(ev(2))
		d.SetSync(lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental})
		clock.Fire()
		src.text = "xxhello"
		d.Changed(ev(3))
		clock.Fire()
		log := rec.take()
		if len(log) != 2 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` ||
			log[1].raw != `{"textDocument":{"uri":"u","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"x"}]}` {
			t.Errorf("switch: %+v", log)
		}
	})
	t.Run("didSave registered with includeText, then unregistered", func(t *testing.T) {
		r := newRig(t)
		m := &model{text: "ab", version: 1}
		d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncNoSave, m)
		r.rec.take()
		r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 1, LiveVersion: 1})
		if n := len(r.rec.take()); n != 0 {
			t.Fatalf("didSave before the registration: %d", n)
		}
		d.SetSync(syncIncludeText)
		r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 1, LiveVersion: 1})
		if got := notes(r.rec.take()); !reflect.DeepEqual(got, []note{{"c", "textDocument/didSave", "text=ab"}}) {
			t.Errorf("registered: %v", got)
		}
		d.SetSync(syncNoSave)
		r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 1, LiveVersion: 1})
		if n := len(r.rec.take()); n != 0 {
			t.Errorf("didSave after the unregistration: %d", n)
		}
	})
}

// Two models of one task file in one session share one server document:
// one didOpen, one didClose after the last, and the server always holds
// the text of the model edited last.
func TestModelsShareOneServerDocument(t *testing.T) {
	r := newRig(t)
	a := &model{text: "ab", version: 1}
	b := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, a)
	if !d.Join("kandev://s/a.go#2", b) {
		t.Fatal("Join refused an open document")
	}
	if got := methods(r.rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didOpen"}) {
		t.Fatalf("opened: %v", got)
	}

	// Edits of the lead go out as ranges; an edit of the other model makes
	// it lead and sends its whole text.
	typeText(d, a, 3, "c")
	r.clock.Fire()
	b.text = "abz"
	d.ChangedBy(b, Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 3, 1, 3}, Text: "z"}}})
	r.clock.Fire()
	log := r.rec.take()
	if len(log) != 2 || !strings.Contains(log[0].raw, `"range"`) || log[1].raw != `{"textDocument":{"uri":"file:///w/a.go","version":3},"contentChanges":[{"text":"abz"}]}` {
		t.Fatalf("edits: %+v", log)
	}

	// A save of either model reaches the document; only the lead's carries text.
	r.hub.Saved(Saved{Model: "kandev://s/a.go#2", OK: true, PersistedVersion: 2, LiveVersion: 2})
	r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 2, LiveVersion: 2})
	if got := notes(r.rec.take()); !reflect.DeepEqual(got, []note{{"c", "textDocument/didSave", "text=abz"}, {"c", "textDocument/didSave", "no text"}}) {
		t.Errorf("saves: %v", got)
	}

	// The lead leaves: the other model's next edit sends its whole text.
	if d.Leave(b) {
		t.Fatal("a model remains")
	}
	a.text = "qabc"
	d.ChangedBy(a, Event{VersionID: 3, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "q"}}})
	r.clock.Fire()
	log = r.rec.take()
	if len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"file:///w/a.go","version":4},"contentChanges":[{"text":"qabc"}]}` {
		t.Fatalf("after the lead left: %+v", log)
	}
	if !d.Leave(a) {
		t.Fatal("the last model left but the document stays")
	}
	if got := methods(r.rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didClose"}) {
		t.Errorf("closed: %v", got)
	}
	if d.Join("kandev://s/a.go#3", b) {
		t.Error("Join on a closed document")
	}
}
