package jsonlite

import "unsafe"

// Reader walks a value Parse accepted once, front to back. A reader of a
// big answer decodes each member where it stands, rather than skipping
// over members to find one (Get, Lookup) and then walking it again: a
// 2,000-diagnostic frame's bytes were scanned four times that way.
//
// Its methods assume valid JSON, as Parse leaves it. Each value the walk
// reaches must be read: entered (Object, Array) and read to its end
// (Member, Elem returning false), or taken whole (Value).
type Reader struct {
	b []byte
	i int
}

// Checked is the Value of raw that is already known to be valid JSON:
// part of what Parse accepted (a message's params, say), so it is not
// checked a second time. Its readers on anything else may read nonsense,
// but never panic, loop or read outside raw.
func Checked(raw Raw) Value { return Value{b: trim(raw)} }

// Reader returns a reader at the start of v.
func (v Value) Reader() Reader { return Reader{b: v.b} }

// Object enters the object that comes next and reports true; on any other
// value it reads nothing and reports false.
func (r *Reader) Object() bool { return r.enter('{') }

// Array enters the array that comes next, as Object does an object.
func (r *Reader) Array() bool { return r.enter('[') }

func (r *Reader) enter(open byte) bool {
	r.i = ws(r.b, r.i)
	if r.i >= len(r.b) || r.b[r.i] != open {
		return false
	}
	r.i++
	return true
}

// Member reads the key of the entered object's next member and leaves the
// reader at its value; at the object's end it reads past the closing
// brace and reports false. The key is decoded; without escapes (most keys)
// it shares the reader's bytes rather than being copied, so it is for
// comparing, not for keeping.
func (r *Reader) Member() (key string, ok bool) {
	if !r.next('}') || r.b[r.i] != '"' {
		return "", false // the end, or no key where Checked was wrong
	}
	end := skipString(r.b, r.i)
	if end < r.i+2 {
		return "", false // an unterminated key: Checked was wrong
	}
	if inner := r.b[r.i+1 : end-1]; !hasEscape(inner) {
		key = unsafe.String(unsafe.SliceData(inner), len(inner))
	} else if _, err := checkString(r.b, r.i); err != nil {
		return "", false // a bad escape: Checked was wrong
	} else {
		key, _ = Value{b: r.b[r.i:end]}.Str()
	}
	r.i = ws(r.b, ws(r.b, end)+1) // past ':'
	return key, true
}

// Elem reports whether the entered array has another element and leaves
// the reader at it; at the array's end it reads past the closing bracket.
func (r *Reader) Elem() bool { return r.next(']') }

func (r *Reader) next(close byte) bool {
	i := ws(r.b, r.i)
	if i < len(r.b) && r.b[i] == ',' {
		i = ws(r.b, i+1)
	}
	if i >= len(r.b) || r.b[i] == close {
		r.i = i + 1
		return false
	}
	r.i = i
	return true
}

// Value reads the next value whole.
func (r *Reader) Value() Value {
	start := ws(r.b, r.i)
	if start >= len(r.b) {
		r.i = start
		return Value{}
	}
	r.i = skip(r.b, start)
	if r.i == start {
		r.i++ // a stray delimiter (Checked was wrong): past it, so a walk ends
	}
	return Value{b: r.b[start:r.i]}
}

// Start is where the next value begins: with Since, a caller keeps the
// bytes of what it read.
func (r *Reader) Start() int {
	r.i = ws(r.b, r.i)
	return r.i
}

// Remaining is how many bytes are left to read.
func (r *Reader) Remaining() int { return len(r.b) - r.i }

// Since returns the bytes read from start (as Start gave it) on.
func (r *Reader) Since(start int) Raw { return Raw(r.b[start:r.i]) }
