package docsync

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/lsptypes"
)

func TestDecideSave(t *testing.T) {
	withText := lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental, Save: true, IncludeText: true}
	noText := lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental, Save: true}
	noSave := lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental}
	cases := []struct {
		name            string
		ok              bool
		sync            lsptypes.SyncOptions
		same            bool
		persisted, live int
		want            SaveAction
	}{
		{"failed write sends nothing", false, withText, true, 5, 5, SaveAction{}},
		{"includeText, snapshot current", true, withText, true, 5, 5, SaveAction{Flush: true, DidSave: true, IncludeText: true}},
		{"includeText, typed during save: no stale text", true, withText, true, 5, 7, SaveAction{Flush: true, DidSave: true}},
		{"save without includeText", true, noText, true, 5, 5, SaveAction{Flush: true, DidSave: true}},
		{"server without save: only the final change", true, noSave, true, 5, 5, SaveAction{Flush: true}},
		{"another model of the same file: no text", true, withText, false, 5, 5, SaveAction{Flush: true, DidSave: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DecideSave(c.ok, c.sync, c.same, c.persisted, c.live); got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// saveRig is one window: a hub and documents on recorded connections.
type saveRig struct {
	t     *testing.T
	hub   *Hub
	clock *clocktest.Manual
	rec   *recorder
}

func newRig(t *testing.T) *saveRig {
	return &saveRig{t: t, hub: NewHub(), clock: &clocktest.Manual{}, rec: &recorder{}}
}

func (r *saveRig) open(conn, scope, modelURI, uri string, sync lsptypes.SyncOptions, src *model) *Doc {
	d := NewDoc(Config{URI: uri, LanguageID: "go", Model: modelURI, Scope: scope, Sync: sync, Send: r.rec.sender(conn), Source: src, Clock: r.clock})
	d.Open()
	r.hub.Add(d)
	return d
}

// type edits the fake model and reports the Monaco event to d.
func typeText(d *Doc, m *model, col uint32, s string) {
	m.mu.Lock()
	m.text = m.text[:col-1] + s + m.text[col-1:]
	m.version++
	v := m.version
	m.mu.Unlock()
	d.Changed(Event{VersionID: v, Changes: []Change{{Range: MonacoRange{1, col, 1, col}, Text: s}}})
}

type note struct{ conn, method, text string }

func notes(log []sent) []note {
	var out []note
	for _, s := range log {
		n := note{conn: s.conn, method: s.method}
		switch s.method {
		case lsptypes.MethodDidSave:
			if txt, ok := s.params["text"].(string); ok {
				n.text = "text=" + txt
			} else {
				n.text = "no text"
			}
		case lsptypes.MethodDidChange:
			n.text = s.raw
		}
		out = append(out, n)
	}
	return out
}

var (
	syncIncludeText = lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental, Save: true, IncludeText: true}
	syncSaveOnly    = lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental, Save: true}
	syncNoSave      = lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental}
)

func TestSaveFlushesThenDidSaveWithText(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, m)
	r.rec.take()
	typeText(d, m, 3, "c") // the turn's first change: sent at once
	typeText(d, m, 4, "d") // gathered for the end of the turn
	// The page persists snapshot S = "abcd" at version 3, and the write
	// succeeds before the turn ends: the save sends the gathered change first.
	out := r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 3, LiveVersion: 3})
	got := notes(r.rec.take())
	want := []note{
		{"c", "textDocument/didChange", `{"textDocument":{"uri":"file:///w/a.go","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":2},"end":{"line":0,"character":2}},"text":"c"}]}`},
		{"c", "textDocument/didChange", `{"textDocument":{"uri":"file:///w/a.go","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":3},"end":{"line":0,"character":3}},"text":"d"}]}`},
		{"c", "textDocument/didSave", "text=abcd"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if out.Dirty || out.JSON() != `{"dirty":false}` {
		t.Errorf("outcome %+v", out)
	}
	// The end of the turn has nothing left to send.
	r.clock.Fire()
	if n := len(r.rec.take()); n != 0 {
		t.Errorf("the end of the turn sent %d after the save's flush", n)
	}
}

func TestSaveServerWithoutIncludeText(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncSaveOnly, m)
	r.rec.take()
	typeText(d, m, 1, "x")
	text := "xab"
	r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 2, LiveVersion: 2, Text: &text})
	got := notes(r.rec.take())
	if len(got) != 2 || got[0].method != lsptypes.MethodDidChange || got[1] != (note{"c", "textDocument/didSave", "no text"}) {
		t.Errorf("got %v", got)
	}
}

func TestSaveServerWithoutSave(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncNoSave, m)
	r.rec.take()
	typeText(d, m, 1, "x")
	out := r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 2, LiveVersion: 2})
	got := notes(r.rec.take())
	if len(got) != 1 || got[0].method != lsptypes.MethodDidChange || out.Notified != 0 {
		t.Errorf("got %v, notified %d", got, out.Notified)
	}
}

func TestSaveFastTypistDuringSave(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, m)
	r.rec.take()
	typeText(d, m, 3, "c") // v2 = "abc": the snapshot the page writes
	snapshot, snapV := m.Text(), m.version
	typeText(d, m, 4, "d") // typed while the write is in flight
	typeText(d, m, 5, "e") // v4 = "abcde"
	out := r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: snapV, LiveVersion: m.version, Text: &snapshot})
	if !out.Dirty || out.JSON() != `{"dirty":true}` {
		t.Errorf("newer buffer must stay dirty: %+v", out)
	}
	log := r.rec.take()
	got := notes(log)
	if len(got) != 3 || got[2] != (note{"c", "textDocument/didSave", "no text"}) {
		t.Fatalf("got %v", got)
	}
	// The server's document is the newest buffer, not the persisted one:
	// the first edit left at once, the save sent the other two before didSave.
	server := "ab"
	for _, p := range didChanges(t, log[:2]) {
		var err error
		if server, err = ApplyChanges(server, p.ContentChanges); err != nil {
			t.Fatal(err)
		}
	}
	if server != "abcde" {
		t.Errorf("server text %q", server)
	}
}

func TestSaveFailedWriteSendsNothing(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, m)
	r.rec.take()
	typeText(d, m, 1, "x") // the turn's first change: sent at once
	r.rec.take()
	typeText(d, m, 2, "y") // gathered for the end of the turn
	out := r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: false, PersistedVersion: 3, LiveVersion: 3})
	if n := len(r.rec.take()); n != 0 {
		t.Errorf("failed write sent %d notifications", n)
	}
	if !out.Dirty {
		t.Error("failed write reported clean")
	}
	// The gathered edit still reaches the server at the end of its turn.
	r.clock.Fire()
	if got := notes(r.rec.take()); len(got) != 1 || got[0].method != lsptypes.MethodDidChange || !strings.Contains(got[0].text, `"text":"y"`) {
		t.Errorf("at the end of the turn: %v", got)
	}
}

func TestSaveTwoConnectionsSameDocument(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	other := &model{text: "ab", version: 1}
	a := r.open("A", "task", "kandev://s1/a.go", "file:///w/a.go", syncIncludeText, m)
	b := r.open("B", "task", "kandev://s1/a.go", "file:///w/a.go", syncSaveOnly, m)
	// Another session of the same task has the same file in its own model.
	c := r.open("C", "task", "kandev://s2/a.go", "file:///w/a.go", syncIncludeText, other)
	// A different task host whose file has the same clean URI.
	r.open("D", "other-task", "kandev://s3/a.go", "file:///w/a.go", syncIncludeText, &model{text: "zz", version: 1})
	// An unrelated file.
	r.open("A", "task", "kandev://s1/b.go", "file:///w/b.go", syncIncludeText, &model{text: "", version: 1})
	r.rec.take()
	m.mu.Lock()
	m.text, m.version = "abc", 2
	m.mu.Unlock()
	ev := Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 3, 1, 3}, Text: "c"}}}
	a.Changed(ev)
	b.Changed(ev)
	typeText(c, other, 1, "q")
	// Each turn's first change left at once, on every connection.
	if got := methods(r.rec.take()); !reflect.DeepEqual(got, []string{"A textDocument/didChange", "B textDocument/didChange", "C textDocument/didChange"}) {
		t.Fatalf("first changes: %q", got)
	}
	// Later edits of the same turn wait for it; the save sends each
	// connection's before its didSave.
	m.mu.Lock()
	m.text, m.version = "abcd", 3
	m.mu.Unlock()
	ev = Event{VersionID: 3, Changes: []Change{{Range: MonacoRange{1, 4, 1, 4}, Text: "d"}}}
	a.Changed(ev)
	b.Changed(ev)
	typeText(c, other, 1, "q")
	out := r.hub.Saved(Saved{Model: "kandev://s1/a.go", OK: true, PersistedVersion: 3, LiveVersion: 3})
	var got []string
	for _, n := range notes(r.rec.take()) {
		s := n.conn + " " + n.method
		if n.method == lsptypes.MethodDidSave {
			s += " " + n.text
		}
		got = append(got, s)
	}
	want := []string{
		"A textDocument/didChange", "A textDocument/didSave text=abcd",
		"B textDocument/didChange", "B textDocument/didSave no text",
		"C textDocument/didChange", "C textDocument/didSave no text",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if out.Notified != 3 || out.Dirty {
		t.Errorf("outcome %+v", out)
	}
	// Each connection versions its own document.
	if a.Version() != 3 || b.Version() != 3 || c.Version() != 3 {
		t.Errorf("versions %d %d %d", a.Version(), b.Version(), c.Version())
	}
}

func TestSaveOutOfOrderCompletion(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, m)
	r.rec.take()
	r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 7, LiveVersion: 7})
	r.rec.take()
	out := r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 5, LiveVersion: 7})
	if n := len(r.rec.take()); n != 0 || !out.Dirty {
		t.Errorf("older save completing late sent %d, outcome %+v", n, out)
	}
}

func TestSaveClosedDocument(t *testing.T) {
	r := newRig(t)
	m := &model{text: "ab", version: 1}
	d := r.open("c", "task", "kandev://s/a.go", "file:///w/a.go", syncIncludeText, m)
	d.Close()
	r.hub.Remove(d)
	r.rec.take()
	r.hub.Saved(Saved{Model: "kandev://s/a.go", OK: true, PersistedVersion: 1, LiveVersion: 1})
	if n := len(r.rec.take()); n != 0 {
		t.Errorf("closed document got %d notifications", n)
	}
	s, err := ParseSaved(`{"model":"m","ok":true,"persistedVersion":3,"liveVersion":4,"text":"x"}`)
	if err != nil || s.Model != "m" || !s.OK || s.PersistedVersion != 3 || s.LiveVersion != 4 || *s.Text != "x" {
		t.Errorf("ParseSaved %+v %v", s, err)
	}
}
