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
	"encoding/json"
	"strconv"
)

// Token identifies a work item. Strings and numbers are different tokens
// even when they print alike: 1 and "1" are two tokens, so the key keeps the
// JSON kind.
type Token string

// ParseToken turns a raw JSON token (a string or an integer) into a Token.
// Anything else is malformed.
func ParseToken(raw json.RawMessage) (Token, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return Token("s:" + s), true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		i, err := n.Int64()
		if err != nil {
			return "", false // LSP tokens are integers
		}
		return Token("n:" + strconv.FormatInt(i, 10)), true
	}
	return "", false
}

// StringToken is the Token of a client-generated string token.
func StringToken(s string) Token { return Token("s:" + s) }

// Item is one active or finished work item.
type Item struct {
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
func (t *Tracker) Create(params json.RawMessage) bool {
	var p struct {
		Token json.RawMessage `json:"token"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	tok, ok := ParseToken(p.Token)
	if ok {
		t.Expect(tok)
	}
	return ok
}

// payload is a $/progress notification's params with a work-done value.
type payload struct {
	Token json.RawMessage `json:"token"`
	Value *struct {
		Kind       string   `json:"kind"`
		Title      *string  `json:"title"`
		Message    *string  `json:"message"`
		Percentage *float64 `json:"percentage"`
	} `json:"value"`
}

// Progress applies a $/progress notification at local time now and reports
// whether anything changed. Malformed payloads and unknown tokens change
// nothing.
func (t *Tracker) Progress(params json.RawMessage, now int64) bool {
	var p payload
	if json.Unmarshal(params, &p) != nil || p.Value == nil {
		return false
	}
	tok, ok := ParseToken(p.Token)
	if !ok || !t.known[tok] {
		return false
	}
	v := p.Value
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
			it.Percentage = clamp(*v.Percentage)
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
			it.Percentage = clamp(*v.Percentage)
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
