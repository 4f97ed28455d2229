// Package progress tracks LSP work-done progress for one connection
// generation, exactly as the spec's "Browser LSP progress contract" table
// says: tokens become known through window/workDoneProgress/create or as the
// client's own initialize token; $/progress begin adds or replaces a known
// token, report updates only a matching active token (an omitted percentage
// keeps the last one), end removes only the matching active token and keeps
// its optional message as the last finished item. Unknown tokens and
// malformed payloads are ignored; stale generations never reach a tracker
// because every generation owns a fresh one.
//
// A Tracker is not safe for concurrent use: its owner serialises calls (the
// connection manager holds its lock).
package progress

import (
	"math"
	"strconv"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// Token identifies a work item. Strings and numbers are different tokens
// even when they print alike: 1 and "1" are two tokens, so the key keeps the
// JSON kind.
type Token string

// ParseToken turns a raw JSON token (a string or an integer) into a Token.
// Anything else is malformed.
func ParseToken(raw []byte) (Token, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
	default:
		return "", false
	}
	v, err := jsonlite.Parse(raw)
	if err != nil {
		return "", false
	}
	if s, ok := v.Str(); ok {
		return Token("s:" + s), true
	}
	i, ok := v.Int()
	if !ok {
		return "", false // LSP tokens are integers
	}
	return Token("n:" + strconv.FormatInt(i, 10)), true
}

// StringToken is the Token of a client-generated string token.
func StringToken(s string) Token { return Token("s:" + s) }

// Item is one active or finished work item.
type Item struct {
	_       [0]func() // incomparable: spares lsp.wasm an equality function
	Title   string
	Message string
	// Percentage is 0–100, or -1 when the server reported none.
	Percentage int
	// Started is the local time the item began (its last begin), in the
	// owner's clock milliseconds.
	Started int64
	seq     uint64
}

// Snapshot is what the status view needs: the oldest active item (primary),
// how many others are active, and the last finished item.
type Snapshot struct {
	// Primary is the oldest active item, or nil.
	Primary *Item
	// Others counts the active items besides Primary.
	Others int
	// Finished is the most recently ended item, kept for the lifetime of the
	// connection generation; nil if none ended.
	Finished *Item
}

// Active reports whether any work item is active.
func (s Snapshot) Active() bool { return s.Primary != nil }

// Tracker holds one connection generation's progress.
type Tracker struct {
	known    map[Token]bool
	active   map[Token]*Item
	finished *Item
	seq      uint64
}

// New returns an empty tracker.
func New() *Tracker {
	return &Tracker{known: make(map[Token]bool), active: make(map[Token]*Item)}
}

// Expect makes a token known: the server created it with
// window/workDoneProgress/create, or it is the client's initialize token.
func (t *Tracker) Expect(tok Token) { t.known[tok] = true }

// Create handles window/workDoneProgress/create params; it reports whether
// the payload was well formed.
func (t *Tracker) Create(params []byte) bool {
	p, err := jsonlite.Parse(params)
	if err != nil || !p.DecodeObject() {
		return false
	}
	tok, ok := ParseToken(p.Get("token").Raw())
	if ok {
		t.Expect(tok)
	}
	return ok
}

// workDone is the value of a $/progress notification about work done.
type workDone struct {
	_          [0]func() // incomparable: spares lsp.wasm an equality function
	Kind       string
	Title      *string
	Message    *string
	Percentage *int // rounded and clamped to 0–100
}

// parsePayload reads $/progress params: the raw token and the work-done
// value (nil when null or absent). ok is false where encoding/json would
// have failed to decode them.
func parsePayload(params []byte) (token jsonlite.Raw, value *workDone, ok bool) {
	p, err := jsonlite.Parse(params)
	if err != nil || !p.DecodeObject() {
		return nil, nil, false
	}
	v := p.Get("value")
	if !v.DecodeObject() {
		return nil, nil, false
	}
	if !v.Exists() || v.IsNull() {
		return p.Get("token").Raw(), nil, true
	}
	kind, ok := v.Get("kind").DecodeString()
	if !ok {
		return nil, nil, false
	}
	w := &workDone{Kind: kind}
	for _, f := range []struct {
		key string
		dst **string
	}{{"title", &w.Title}, {"message", &w.Message}} {
		if e := v.Get(f.key); e.Exists() && !e.IsNull() {
			s, ok := e.Str()
			if !ok {
				return nil, nil, false
			}
			*f.dst = &s
		}
	}
	if e := v.Get("percentage"); e.Exists() && !e.IsNull() {
		n, ok := percentage(e)
		if !ok {
			return nil, nil, false
		}
		w.Percentage = &n
	}
	return p.Get("token").Raw(), w, true
}

// Progress applies a $/progress notification at local time now and reports
// whether anything changed. Malformed payloads and unknown tokens change
// nothing.
func (t *Tracker) Progress(params []byte, now int64) bool {
	token, v, ok := parsePayload(params)
	if !ok || v == nil {
		return false
	}
	tok, ok := ParseToken(token)
	if !ok || !t.known[tok] {
		return false
	}
	switch v.Kind {
	case "begin":
		if v.Title == nil {
			return false // title is required on begin
		}
		t.seq++
		it := &Item{Title: *v.Title, Percentage: -1, Started: now, seq: t.seq}
		if v.Message != nil {
			it.Message = *v.Message
		}
		if v.Percentage != nil {
			it.Percentage = *v.Percentage
		}
		t.active[tok] = it
		return true
	case "report":
		it := t.active[tok]
		if it == nil {
			return false
		}
		if v.Message != nil {
			it.Message = *v.Message
		}
		if v.Percentage != nil {
			it.Percentage = *v.Percentage
		}
		return true
	case "end":
		it := t.active[tok]
		if it == nil {
			return false
		}
		delete(t.active, tok)
		done := *it
		done.Percentage = -1
		done.Message = ""
		if v.Message != nil {
			done.Message = *v.Message
		}
		t.finished = &done
		return true
	}
	return false
}

// Clear forgets every active and finished item and every known token.
func (t *Tracker) Clear() {
	clear(t.known)
	clear(t.active)
	t.finished = nil
}

// Snapshot returns copies of the oldest active item, the count of the
// others, and the last finished item. Percentages of different items are
// never combined.
func (t *Tracker) Snapshot() Snapshot {
	var s Snapshot
	for _, it := range t.active {
		if s.Primary == nil || it.seq < s.Primary.seq {
			s.Primary = it
		}
	}
	if s.Primary != nil {
		cp := *s.Primary
		s.Primary = &cp
		s.Others = len(t.active) - 1
	}
	if t.finished != nil {
		cp := *t.finished
		s.Finished = &cp
	}
	return s
}

// percentage reads a work-done percentage, any JSON number, rounded and
// clamped to 0–100; like encoding/json it refuses a number beyond float64's
// range. It reads the literal itself rather than with strconv.ParseFloat,
// whose exact algorithm and tables cost lsp.wasm about 7 KB of gzip for this
// one number: digits and exponent are scaled by tens, which is exact for
// the short literals servers send and within rounding of ParseFloat for any
// other (clamp cannot tell the difference but at a half of a longer one).
func percentage(v jsonlite.Value) (int, bool) {
	if v.Kind() != jsonlite.Number {
		return 0, false
	}
	s := v.Raw() // a valid JSON number: -?int(.frac)?([eE][+-]?exp)?
	i, f, exp := 0, 0.0, 0
	if s[0] == '-' {
		i++
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		f = f*10 + float64(s[i]-'0')
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			f, exp = f*10+float64(s[i]-'0'), exp-1
		}
	}
	if i < len(s) { // the exponent
		i++
		neg := s[i] == '-'
		if neg || s[i] == '+' {
			i++
		}
		e := 0
		for ; i < len(s) && e < 1e6; i++ {
			e = e*10 + int(s[i]-'0')
		}
		if neg {
			e = -e
		}
		exp += e
	}
	for ; exp > 0 && f != 0 && f <= math.MaxFloat64; exp-- {
		f *= 10
	}
	for ; exp < 0 && f != 0; exp++ {
		f /= 10
	}
	if f > math.MaxFloat64 {
		return 0, false
	}
	if s[0] == '-' {
		f = -f
	}
	return clamp(f), true
}

// clamp rounds a percentage to an integer in 0–100.
func clamp(f float64) int {
	switch {
	case f != f || f <= 0: // NaN or negative
		return 0
	case f >= 100:
		return 100
	}
	return int(f + 0.5)
}
