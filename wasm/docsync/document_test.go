package docsync

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/kandev/lsp/wasm/clock/clocktest"
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
			clock := &clocktest.Manual{}
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
					clock.Fire()
				}
				if step == 29 {
					clock.Fire()
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

// didChanges decodes the recorded didChange notifications, failing on
// anything else.
func didChanges(t *testing.T, log []sent) []lsptypes.DidChangeTextDocumentParams {
	t.Helper()
	var out []lsptypes.DidChangeTextDocumentParams
	for _, s := range log {
		if s.method != lsptypes.MethodDidChange {
			t.Fatalf("%s among the didChanges: %v", s.method, methods(log))
		}
		var p lsptypes.DidChangeTextDocumentParams
		if err := json.Unmarshal([]byte(s.raw), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// insert is a Monaco event inserting text at column col of line 1.
func insert(v int, col uint32, text string) Event {
	return Event{VersionID: v, Changes: []Change{{Range: MonacoRange{1, col, 1, col}, Text: text}}}
}

// The first change of a turn of the event loop reaches the server inside
// the call that reports it (Monaco's listener), before the completion
// request Monaco makes for the same keystroke; the turn's later changes
// leave together as one didChange at its end, with no timer.
func TestFirstChangeOfATurnLeavesAtOnceTheRestAtItsEnd(t *testing.T) {
	clock := &clocktest.Manual{}
	rec := &recorder{}
	src := &model{text: "ab"}
	d := NewDoc(Config{URI: "file:///w/a.go", LanguageID: "go", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didOpen"}) {
		t.Fatalf("open: %v", got)
	}
	d.Changed(insert(2, 3, "c"))
	first := didChanges(t, rec.take())
	if len(first) != 1 || first[0].TextDocument.Version != 2 || len(first[0].ContentChanges) != 1 || first[0].ContentChanges[0].Text != "c" {
		t.Fatalf("the turn's first change did not leave inside the call: %+v", first)
	}
	d.Changed(insert(3, 4, "d"))
	d.Changed(insert(4, 5, "e"))
	if n := len(rec.take()); n != 0 {
		t.Fatalf("%d notifications for the turn's later changes before it ended", n)
	}
	if n := clock.Armed(); n != 0 {
		t.Fatalf("%d timers armed for an incremental change", n)
	}
	clock.EndTurn()
	rest := didChanges(t, rec.take())
	if len(rest) != 1 || rest[0].TextDocument.Version != 3 || len(rest[0].ContentChanges) != 2 ||
		rest[0].ContentChanges[0].Text != "d" || rest[0].ContentChanges[1].Text != "e" {
		t.Fatalf("the turn's end: %+v", rest)
	}
	// Nothing left: a second expiry sends nothing.
	clock.Fire()
	d.Flush()
	if n := len(rec.take()); n != 0 {
		t.Errorf("%d extra notifications", n)
	}
	d.Close()
	d.Close()
	if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didClose"}) {
		t.Errorf("close: %v", got)
	}
	d.Changed(Event{VersionID: 5, Changes: []Change{{Text: "x"}}})
	clock.Fire()
	if n := len(rec.take()); n != 0 {
		t.Errorf("closed document sent %d", n)
	}
}

// A burst of changes in one turn (a paste, a format, a multi-cursor edit
// reported change by change) costs the server two didChanges, not one per
// change, and the server's text is the editor's.
func TestABurstInOneTurnSendsTwoDidChanges(t *testing.T) {
	clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: ""}
	d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	const n = 20
	want := ""
	for i := 0; i < n; i++ {
		ch := string(rune('a' + i))
		d.Changed(insert(i+2, uint32(i+1), ch))
		want += ch
	}
	clock.EndTurn()
	sent := didChanges(t, rec.take())
	if len(sent) != 2 {
		t.Fatalf("%d changes in one turn sent %d didChanges, want 2", n, len(sent))
	}
	server := ""
	for i, p := range sent {
		if p.TextDocument.Version != int32(i+2) {
			t.Errorf("didChange %d has version %d", i, p.TextDocument.Version)
		}
		var err error
		if server, err = ApplyChanges(server, p.ContentChanges); err != nil {
			t.Fatal(err)
		}
	}
	if server != want {
		t.Errorf("server text %q, editor %q", server, want)
	}
}

// A provider's flush inside a turn sends what was gathered before its
// request; the turn stays open, so a change after it still waits for the
// turn's end rather than leaving alone.
func TestFlushInsideATurnKeepsItOpen(t *testing.T) {
	clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: ""}
	d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	d.Changed(insert(2, 1, "a")) // at once
	d.Changed(insert(3, 2, "b"))
	d.Flush() // a provider, before its request
	if got := didChanges(t, rec.take()); len(got) != 2 || got[1].TextDocument.Version != 3 || got[1].ContentChanges[0].Text != "b" {
		t.Fatalf("before the request: %+v", got)
	}
	d.Changed(insert(4, 3, "c"))
	if n := len(rec.take()); n != 0 {
		t.Fatalf("a change after the flush, in the same turn, sent %d at once", n)
	}
	clock.EndTurn()
	if got := didChanges(t, rec.take()); len(got) != 1 || got[0].TextDocument.Version != 4 || got[0].ContentChanges[0].Text != "c" {
		t.Fatalf("the turn's end: %+v", got)
	}
}

// Each turn opens anew: its first change leaves at once, not held back for
// the previous turn.
func TestEveryTurnSendsItsOwnChanges(t *testing.T) {
	clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "ab"}
	d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	for v, text := range []string{"x", "y"} {
		d.Changed(Event{VersionID: v + 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: text}}})
		log := rec.take()
		want := `{"textDocument":{"uri":"u","version":` + string(rune('2'+v)) + `},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"` + text + `"}]}`
		if len(log) != 1 || log[0].raw != want {
			t.Fatalf("turn %d: %+v", v+1, log)
		}
		clock.EndTurn()
		if n := len(rec.take()); n != 0 {
			t.Fatalf("turn %d: its end sent %d with nothing gathered", v+1, n)
		}
	}
}

// A full-text server is sent the whole text each time, so its changes
// still wait for a quiet moment: the end of a turn sends nothing.
func TestFullTextWaitsForTheDebounce(t *testing.T) {
	clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
	d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncFull}, Send: rec.sender("c"), Source: src, Clock: clock})
	d.Open()
	rec.take()
	src.text = "xhello"
	d.Changed(Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "x"}}})
	clock.EndTurn()
	if n := len(rec.take()); n != 0 || clock.Armed() != 1 {
		t.Fatalf("sent %d at the end of the turn, %d timers armed", n, clock.Armed())
	}
	clock.Fire()
	if log := rec.take(); len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` {
		t.Errorf("after the debounce: %+v", log)
	}
}

func TestSyncKinds(t *testing.T) {
	ev := Event{VersionID: 2, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "x"}}}
	t.Run("full sends the whole text", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncFull}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "xhello"
		d.Changed(ev)
		clock.Fire()
		log := rec.take()
		if len(log) != 1 || log[0].raw != `{"textDocument":{"uri":"u","version":2},"contentChanges":[{"text":"xhello"}]}` {
			t.Errorf("full: %+v", log)
		}
	})
	t.Run("none sends no change", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "hello"}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{OpenClose: true}, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		d.Changed(ev)
		clock.Fire()
		d.Flush()
		d.Close()
		if got := methods(rec.take()); !reflect.DeepEqual(got, []string{"c textDocument/didOpen", "c textDocument/didClose"}) {
			t.Errorf("none: %v", got)
		}
	})
	t.Run("no openClose sends no open or close", func(t *testing.T) {
		rec := &recorder{}
		d := NewDoc(Config{URI: "u", Sync: lsptypes.SyncOptions{}, Send: rec.sender("c"), Source: &model{}, Clock: &clocktest.Manual{}})
		d.Open()
		d.Close()
		if n := len(rec.take()); n != 0 {
			t.Errorf("sent %d", n)
		}
	})
	t.Run("setValue flush replaces everything", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "old"}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		d.Changed(ev) // at once
		d.Changed(Event{VersionID: 3, IsFlush: true, Changes: []Change{{Range: MonacoRange{1, 1, 1, 5}, Text: "new 😀"}}})
		d.Changed(Event{VersionID: 4, Changes: []Change{{Range: MonacoRange{1, 7, 1, 7}, Text: "!"}}})
		clock.Fire()
		got := "old"
		for _, p := range didChanges(t, rec.take()) {
			var err error
			if got, err = ApplyChanges(got, p.ContentChanges); err != nil {
				t.Fatal(err)
			}
		}
		if got != "new 😀!" {
			t.Errorf("after flush: %q", got)
		}
	})
	t.Run("EOL change reads the text", func(t *testing.T) {
		clock, rec, src := &clocktest.Manual{}, &recorder{}, &model{text: "a\nb"}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: src, Clock: clock})
		d.Open()
		rec.take()
		src.text = "a\r\nb"
		d.Changed(Event{VersionID: 2, IsEolChange: true}) // the turn's first: at once
		log := rec.take()
		if len(log) != 1 || !strings.Contains(log[0].raw, `"contentChanges":[{"text":"a\r\nb"}]`) {
			t.Errorf("eol: %+v", log)
		}
	})
	t.Run("detach sends nothing", func(t *testing.T) {
		clock, rec := &clocktest.Manual{}, &recorder{}
		d := NewDoc(Config{URI: "u", Sync: incremental, Send: rec.sender("c"), Source: &model{}, Clock: clock})
		d.Open()
		rec.take()
		d.Changed(ev) // the turn's first: at once
		rec.take()
		d.Changed(Event{VersionID: 3, Changes: []Change{{Range: MonacoRange{1, 1, 1, 1}, Text: "y"}}})
		d.Detach()
		clock.Fire()
		d.Close()
		if n := len(rec.take()); n != 0 {
			t.Errorf("detached sent %d", n)
		}
	})
}
