package jsonlite

import (
	"iter"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of Value. Missing is the zero Value: a key that is not there,
// an index out of range, or a lookup on the wrong kind.
const (
	Missing Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Value is one valid JSON value, read lazily from its raw bytes. The zero
// Value is Missing; every method on it answers "nothing".
type Value struct {
	b []byte // the value's bytes, no surrounding space; nil when Missing
}

// Kind returns v's JSON type.
//
// The accessors are never inlined: in Go's wasm output an inlined
// accessor (with its member walk) costs far more bytes than a call, and
// lsp.wasm has a size budget.
//
//go:noinline
func (v Value) Kind() Kind {
	if len(v.b) == 0 {
		return Missing
	}
	switch v.b[0] {
	case 'n':
		return Null
	case 't', 'f':
		return Bool
	case '"':
		return String
	case '[':
		return Array
	case '{':
		return Object
	}
	return Number
}

// Exists reports whether v is present (possibly null).
func (v Value) Exists() bool { return len(v.b) > 0 }

// IsNull reports whether v is the literal null.
func (v Value) IsNull() bool { return len(v.b) > 0 && v.b[0] == 'n' }

// Raw returns v's bytes (nil when Missing). They share the parsed input.
func (v Value) Raw() Raw { return Raw(v.b) }

// Get returns the member key of an object; the last one if key repeats.
//
//go:noinline
func (v Value) Get(key string) Value {
	var out Value
	for k, m := range v.members() {
		if k.equals(key) {
			out = m
		}
	}
	return out
}

// Lookup sets out[i] to the member keys[i] of an object (the last one if
// a key repeats; Missing for a key that is not there) in one walk over its
// members: a reader of several members of one object (a diagnostic, a
// range) pays one walk rather than one per Get. out must be as long as
// keys.
//
//go:noinline
func (v Value) Lookup(keys []string, out []Value) {
	clear(out)
	for k, m := range v.members() {
		for i, key := range keys {
			if k.equals(key) {
				out[i] = m
				break
			}
		}
	}
}

// Index returns element i of an array.
//
//go:noinline
func (v Value) Index(i int) Value {
	n := 0
	for e := range v.elems() {
		if n == i {
			return e
		}
		n++
	}
	return Value{}
}

// Len returns the number of elements of an array or members of an object,
// and 0 for anything else.
//
//go:noinline
func (v Value) Len() int {
	n := 0
	switch v.Kind() {
	case Array:
		for range v.elems() {
			n++
		}
	case Object:
		for range v.members() {
			n++
		}
	}
	return n
}

// Elems iterates over the elements of an array, with their index.
//
//go:noinline
func (v Value) Elems() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		n := 0
		for e := range v.elems() {
			if !yield(n, e) {
				return
			}
			n++
		}
	}
}

// Members iterates over the members of an object, with unescaped keys.
//
//go:noinline
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for k, m := range v.members() {
			s, _ := k.Str()
			if !yield(s, m) {
				return
			}
		}
	}
}

// ForEach calls fn for each member of an object (key unescaped) or element
// of an array (key ""), until fn returns false.
//
//go:noinline
func (v Value) ForEach(fn func(key string, v Value) bool) {
	switch v.Kind() {
	case Array:
		for e := range v.elems() {
			if !fn("", e) {
				return
			}
		}
	case Object:
		for k, m := range v.Members() {
			if !fn(k, m) {
				return
			}
		}
	}
}

func (v Value) elems() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		if len(v.b) == 0 || v.b[0] != '[' {
			return
		}
		b := v.b
		i := ws(b, 1)
		for i < len(b) && b[i] != ']' {
			end := skip(b, i)
			if !yield(Value{b: b[i:end]}) {
				return
			}
			i = ws(b, end)
			if i < len(b) && b[i] == ',' {
				i = ws(b, i+1)
			}
		}
	}
}

// members yields each key (as a raw string Value) and its value.
func (v Value) members() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		if len(v.b) == 0 || v.b[0] != '{' {
			return
		}
		b := v.b
		i := ws(b, 1)
		for i < len(b) && b[i] == '"' {
			kend := skipString(b, i)
			key := Value{b: b[i:kend]}
			i = ws(b, ws(b, kend)+1) // past ':'
			end := skip(b, i)
			if !yield(key, Value{b: b[i:end]}) {
				return
			}
			i = ws(b, end)
			if i < len(b) && b[i] == ',' {
				i = ws(b, i+1)
			}
		}
	}
}

// equals reports whether the string value v decodes to s.
func (v Value) equals(s string) bool {
	inner := v.b[1 : len(v.b)-1]
	if !hasEscape(inner) {
		return string(inner) == s
	}
	d, _ := v.Str()
	return d == s
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// String returns the unescaped string, or "" when v is not a string.
//
//go:noinline
func (v Value) String() string {
	s, _ := v.Str()
	return s
}

// Str returns the unescaped string and whether v is a string. Escapes are
// decoded as encoding/json decodes them: \u surrogate pairs are joined, a
// lone surrogate and invalid UTF-8 become U+FFFD.
//
//go:noinline
func (v Value) Str() (string, bool) {
	if len(v.b) < 2 || v.b[0] != '"' {
		return "", false
	}
	inner := v.b[1 : len(v.b)-1]
	if !hasEscape(inner) {
		return string(inner), true
	}
	return string(unescape(make([]byte, 0, len(inner)), inner)), true
}

// AppendStr appends the unescaped string to dst; dst is unchanged when v is
// not a string.
func (v Value) AppendStr(dst []byte) []byte {
	if len(v.b) < 2 || v.b[0] != '"' {
		return dst
	}
	return unescape(dst, v.b[1:len(v.b)-1])
}

func unescape(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			switch e := s[i+1]; e {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(s[i+2:])
				if utf16.IsSurrogate(r) {
					if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
						if d := utf16.DecodeRune(r, hex4(s[i+8:])); d != unicode.ReplacementChar {
							dst = utf8.AppendRune(dst, d)
							i += 12
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, r)
				i += 6
				continue
			default: // '"', '\\', '/'
				dst = append(dst, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// Int returns v as an int64; ok is false unless v is an integer literal in
// range (as encoding/json requires to decode into an int64).
//
//go:noinline
func (v Value) Int() (int64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	return ParseInt(string(v.b), 64)
}

// Uint returns v as a uint64, as Int does for uint64.
//
//go:noinline
func (v Value) Uint() (uint64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	return ParseUint(string(v.b), 64)
}

// Float returns v as a float64; ok is false unless v is a number in range.
//
//go:noinline
func (v Value) Float() (float64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v.b), 64)
	return f, err == nil
}

// Bool returns v as a bool; ok is false unless v is true or false.
//
//go:noinline
func (v Value) Bool() (val, ok bool) {
	if v.Kind() != Bool {
		return false, false
	}
	return v.b[0] == 't', true
}

// The Decode methods read v as encoding/json decodes into a field of a Go
// type: a missing or null value leaves the zero value and succeeds, a value
// of another kind (or out of range for the given bit size) fails.

// DecodeString reads v as a string field.
//
//go:noinline
func (v Value) DecodeString() (string, bool) {
	if !v.Exists() || v.IsNull() {
		return "", true
	}
	return v.Str()
}

// DecodeBool reads v as a bool field.
//
//go:noinline
func (v Value) DecodeBool() (val, ok bool) {
	if !v.Exists() || v.IsNull() {
		return false, true
	}
	return v.Bool()
}

// DecodeInt reads v as a signed integer field of the given bit size.
//
//go:noinline
func (v Value) DecodeInt(bits int) (int64, bool) {
	if !v.Exists() || v.IsNull() {
		return 0, true
	}
	if v.Kind() != Number {
		return 0, false
	}
	return ParseInt(string(v.b), bits)
}

// DecodeUint reads v as an unsigned integer field of the given bit size.
//
//go:noinline
func (v Value) DecodeUint(bits int) (uint64, bool) {
	if !v.Exists() || v.IsNull() {
		return 0, true
	}
	if v.Kind() != Number {
		return 0, false
	}
	return ParseUint(string(v.b), bits)
}

// DecodeFloat reads v as a float64 field.
//
//go:noinline
func (v Value) DecodeFloat() (float64, bool) {
	if !v.Exists() || v.IsNull() {
		return 0, true
	}
	return v.Float()
}

// DecodeObject reports whether v can be decoded into a struct: an object,
// null or missing.
func (v Value) DecodeObject() bool { return !v.Exists() || v.IsNull() || v.Kind() == Object }

// DecodeArray reports whether v can be decoded into a slice: an array, null
// or missing.
func (v Value) DecodeArray() bool { return !v.Exists() || v.IsNull() || v.Kind() == Array }
