package docsync

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/kandev/lsp/wasm/lsptypes"
)

var incremental = lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental}

func methods(log []sent) []string {
	var m []string
	for _, s := range log {
		m = append(m, s.conn+" "+s.method)
	}
	return m
}

// utf16Doc is the test's independent model of a Monaco buffer: UTF-16
// code units, edited by offset the way Monaco's rangeOffset/rangeLength
// describe it.
type utf16Doc struct {
	u   []uint16
	eol string
}

func (d *utf16Doc) String() string { return string(utf16.Decode(d.u)) }

// pos gives Monaco's 1-based (line, column) of a UTF-16 offset.
func (d *utf16Doc) pos(off int) (uint32, uint32) {
	line, col := uint32(1), uint32(1)
	for i := 0; i < off; i++ {
		if d.u[i] == '\r' && i+1 < len(d.u) && d.u[i+1] == '\n' {
			continue
		}
		if d.u[i] == '\n' || d.u[i] == '\r' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}

// boundary reports whether off may start or end a Monaco range: not inside
// a surrogate pair nor between \r and \n.
func (d *utf16Doc) boundary(off int) bool {
	if off <= 0 || off >= len(d.u) {
		return true
	}
	if utf16.IsSurrogate(rune(d.u[off])) && d.u[off] >= 0xDC00 {
		return false
	}
	return !(d.u[off-1] == '\r' && d.u[off] == '\n')
}

var pieces = []string{"a", "Z", " ", "é", "😀", "👩‍💻", "中", "\t", "EOL", "x😀y", ""}

func (d *utf16Doc) randomText(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(4); n > 0; n-- {
		p := pieces[r.IntN(len(pieces))]
		if p == "EOL" {
			p = d.eol
		}
		b.WriteString(p)
	}
	return b.String()
}

// randomEvent makes one Monaco event of 1..3 non-overlapping changes,
// ordered from the end of the document to the start, and applies it.
func (d *utf16Doc) randomEvent(r *rand.Rand) Event {
	n := 1 + r.IntN(3)
	var offs []int
	for len(offs) < 2*n {
		o := r.IntN(len(d.u) + 1)
		if d.boundary(o) {
			offs = append(offs, o)
		}
	}
	sort.Ints(offs)
	var e Event
	for i := n - 1; i >= 0; i-- { // from the end
		start, end := offs[2*i], offs[2*i+1]
		sl, sc := d.pos(start)
		el, ec := d.pos(end)
		text := d.randomText(r)
		e.Changes = append(e.Changes, Change{
			Range:       MonacoRange{sl, sc, el, ec},
			RangeOffset: start, RangeLength: end - start, Text: text,
		})
	}
	// Apply by offset, in order (valid: later ranges come first).
	for _, c := range e.Changes {
		ins := utf16.Encode([]rune(c.Text))
		u := append([]uint16{}, d.u[:c.RangeOffset]...)
		u = append(u, ins...)
		d.u = append(u, d.u[c.RangeOffset+c.RangeLength:]...)
	}
	return e
}

// Property: random Monaco edits on text with surrogate pairs, ZWJ
// sequences and LF or CRLF line ends, turned into incremental didChange
// notifications (several events coalesced per debounce), replayed on a
// Go-side copy by a UTF-16-correct applier, give Monaco's text.
func TestIncrementalSyncMatchesMonaco(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		for seed := uint64(1); seed <= 200; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			initial := strings.ReplaceAll("package main 😀\n\nfunc 中() {\n\ts := \"👩‍💻\"\n}\n", "\n", eol)
			m := &utf16Doc{u: utf16.Encode([]rune(initial)), eol: eol}
			clock := &manualClock{}
			rec := &recorder{}
			src := &model{text: initial}
			d := NewDoc(Config{URI: "file:///w/a.go", LanguageID: "go", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
			d.Open()
			server := initial
			version := 1.0
			for step := 0; step < 30; step++ {
				e := m.randomEvent(r)
				e.VersionID = step + 2
				src.text = m.String()
				// Round-trip through the binding's JSON.
				js, _ := json.Marshal(e)
				pe, err := ParseEvent(string(js))
				if err != nil {
					t.Fatal(err)
				}
				d.Changed(pe)
				if r.IntN(3) == 0 {
					clock.fire()
				}
				if step == 29 {
					clock.fire()
				}
				for _, s := range rec.take() {
					if s.method != lsptypes.MethodDidChange {
						continue
					}
					var p lsptypes.DidChangeTextDocumentParams
					_ = json.Unmarshal([]byte(s.raw), &p)
					version++
					if float64(p.TextDocument.Version) != version {
						t.Fatalf("version %d, want %v", p.TextDocument.Version, version)
					}
					server, err = ApplyChanges(server, p.ContentChanges)
					if err != nil {
						t.Fatalf("eol %q seed %d step %d: %v", eol, seed, step, err)
					}
				}
			}
			if server != m.String() {
				t.Fatalf("eol %q seed %d: server text\n%q\nMonaco text\n%q", eol, seed, server, m.String())
			}
		}
	}
}

func TestChangeToLSPSurrogatesAndCRLF(t *testing.T) {
	// "a😀b\r\nc": 😀 is two UTF-16 units, so "b" is column 4 in Monaco
	// and character 3 in LSP; no text is needed to convert.
	text := "a😀b\r\nc"
	cases := []struct {
		name string
		c    Change
		want string
	}{
		{"replace b after an emoji", Change{Range: MonacoRange{1, 4, 1, 5}, Text: "B"}, "a😀B\r\nc"},
		{"delete the emoji", Change{Range: MonacoRange{1, 2, 1, 4}}, "ab\r\nc"},
		{"join lines across CRLF", Change{Range: MonacoRange{1, 5, 2, 1}}, "a😀bc"},
		{"insert CRLF", Change{Range: MonacoRange{2, 1, 2, 1}, Text: "x\r\n"}, "a😀b\r\nx\r\nc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ApplyChanges(text, []lsptypes.TextDocumentContentChangeEvent{c.c.ToLSP()})
			if err != nil || got != c.want {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	// Inside a surrogate pair is not a position.
	if _, err := Offset(text, lsptypes.Position{Line: 0, Character: 2}); err == nil {
		t.Error("position inside a surrogate pair accepted")
	}
	if _, err := Offset(text, lsptypes.Position{Line: 5}); err == nil {
		t.Error("line past the end accepted")
	}
	if o, err := Offset(text, lsptypes.Position{Line: 0, Character: 99}); err != nil || o != len("a😀b") {
		t.Errorf("past end of line: %d, %v", o, err)
	}
}

// The changes of one turn of the event loop leave as one didChange at its
// end, in order, with no timer: the server starts on them at once.
func TestChangesOfOneTurnLeaveTogetherAtItsEnd(t *testing.T) {
	clock := &manualClock{}
	rec := &recorder{}
	src := &model{text: "ab"}
	d := NewDoc(Config{URI: "file:///w/a.go", LanguageID: "go", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didOpen"}) {
		t.Fatalf("open: %v", got)
	}
	d.Changed(Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 3, 1, 3}, Text: "c"}}})
	d.Changed(Event{VersionID: 3, Changes: []Change{{Range: MonacoRange{1, 4, 1, 4}, Text: "d"}}})
	if n := len(rec.take()); n != 0 {
		t.Fatalf("%d notifications before the turn ended", n)
	}
	if n := clock.armed(); n != 0 {
		t.Fatalf("%d timers armed for an incremental change", n)
	}
	clock.endTurn()
	log := rec.take()
	if len(log) != 1 {
		t.Fatalf("want one didChange, got %v", methods(log))
	}
	var p lsptypes.DidChangeTextDocumentParams
	_ = json.Unmarshal([]byte(log[0].raw), &p)
	if p.TextDocument.Version != 2 || len(p.ContentChanges) != 2 || p.ContentChanges[0].Text != "c" || p.ContentChanges[1].Text != "d" {
		t.Errorf("coalesced didChange %s", log[0].raw)
	}
	// Nothing left: a second expiry sends nothing.
	clock.fire()
	d.Flush()
	if n := len(rec.take()); n != 0 {
		t.Errorf("%d extra notifications", n)
	}
	d.Close()
	d.Close()
	if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didClose"}) {
		t.Errorf("close: %v", got)
	}
	d.Changed(Event{VersionID: 4, Changes: []Change{{Text: "x"}}})
	clock.fire()
	if n := len(rec.take()); n != 0 {
		t.Errorf("closed document sent %d", n)
	}
}

// Each turn's changes leave at its end: a second turn is a second
// didChange, not held back for the first one's quiet time.
func TestEveryTurnSendsItsOwnChanges(t *testing.T) {
	clock, rec, src := &manualClock{}, &recorder{}, &model{text: "ab"}
	d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	for v, text := range []string{"x", "y"} {
		d.Changed(Event{VersionID: v + 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: text}}})
		clock.endTurn()
		log := rec.take()
		want := `{"textDocument":{"uri":"u","version":` + string(rune('2'+v)) + `},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"` + text + `"}]}`
		if len(log) != 1 || log[0].raw != want {
			t.Fatalf("turn %d: %+v", v+1, log)
		}
	}
}

// A full-text server is sent the whole text each time, so its changes
// still wait for a quiet moment: the end of a turn sends nothing.
func TestFullTextWaitsForTheDebounce(t *testing.T) {
	clock, rec, src := &manualClock{}, &recorder{}, &model{text: "hello"}
	d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncFull}, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	src.text = "xhello"
	d.Changed(Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "x"}}})
	clock.endTurn()
	if n := len(rec.take()); n != 0 || clock.armed() != 1 {
		t.Fatalf("sent %d at the end of the turn, %d timers armed", n, clock.armed())
	}
	clock.fire()
	if log := rec.take(); len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` {
		t.Errorf("after the debounce: %+v", log)
	}
}

func TestSyncKinds(t *testing.T) {
	ev := Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "x"}}}
	t.Run("full sends the whole text", func(t *testing.T) {
		clock, rec, src := &manualClock{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncFull}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "xhello"
		d.Changed(ev)
		clock.fire()
		log := rec.take()
		if len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` {
			t.Errorf("full: %+v", log)
		}
	})
	t.Run("none sends no change", func(t *testing.T) {
		clock, rec, src := &manualClock{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		d.Changed(ev)
		clock.fire()
		d.Flush()
		d.Close()
		if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didOpen", "c textDocument/didClose"}) {
			t.Errorf("none: %v", got)
		}
	})
	t.Run("no openClose sends no open or close", func(t *testing.T) {
		rec := &recorder{}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{}, Send: rec.sender("c"), Source: &model{}, Clock: &manualClock{}})
		d.Open()
		d.Close()
		if n := len(rec.take()); n != 0 {
			t.Errorf("sent %d", n)
		}
	})
	t.Run("setValue flush replaces everything", func(t *testing.T) {
		clock, rec, src := &manualClock{}, &recorder{}, &model{text: "old"}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		d.Changed(ev)
		d.Changed(Event{VersionID: 3, IsFlush: true, Changes: []Change{{Range: MonacoRange{1, 1, 1, 5}, Text: "new 😀"}}})
		d.Changed(Event{VersionID: 4, Changes: []Change{{Range: MonacoRange{1, 7, 1, 7}, Text: "!"}}})
		clock.fire()
		log := rec.take()
		var p lsptypes.DidChangeTextDocumentParams
		_ = json.Unmarshal([]byte(log[0].raw), &p)
		got, err := ApplyChanges("old", p.ContentChanges)
		if err != nil || got != "new 😀!" {
			t.Errorf("after flush: %q %v (%s)", got, err, log[0].raw)
		}
	})
	t.Run("EOL change reads the text", func(t *testing.T) {
		clock, rec, src := &manualClock{}, &recorder{}, &model{text: "a\nb"}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "a\r\nb"
		d.Changed(Event{VersionID: 2, IsEolChange: true})
		clock.fire()
		log := rec.take()
		if len(log) != 1 || !strings.Contains(log[0].raw, `"contentChanges":[{"text":"a\r\nb"}]`) {
			t.Errorf("eol: %+v", log)
		}
	})
	t.Run("detach sends nothing", func(t *testing.T) {
		clock, rec := &manualClock{}, &recorder{}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: &model{}, Clock: clock})
		d.Open()
		rec.take()
		d.Changed(ev)
		d.Detach()
		clock.fire()
		d.Close()
		if n := len(rec.take()); n != 0 {
			t.Errorf("detached sent %d", n)
		}
	})
}
