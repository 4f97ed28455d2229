package jsonlite

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as a JSON string. It escapes what JSON requires plus
// U+2028/U+2029, and replaces invalid UTF-8 with U+FFFD, as encoding/json
// does (but without its HTML escaping of <, > and &).
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendStrings appends a JSON array of strings.
func AppendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return append(b, ']')
}

// AppendKey appends "key": inside an object, with the comma that separates
// it from a previous member (none right after the opening brace). key is
// escaped.
func AppendKey(b []byte, key string) []byte {
	b = Sep(b)
	b = AppendString(b, key)
	return append(b, ':')
}

// Sep appends the comma that separates an array element or object member
// from the previous one; nothing right after an opening bracket or brace, or
// at the very start.
func Sep(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] != '{' && b[n-1] != '[' && b[n-1] != ':' {
		b = append(b, ',')
	}
	return b
}

// AppendInt appends a decimal integer.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendUint appends a decimal unsigned integer.
func AppendUint(b []byte, n uint64) []byte { return strconv.AppendUint(b, n, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendNull appends null.
func AppendNull(b []byte) []byte { return append(b, "null"...) }

// AppendLit appends s as it is: JSON text already, such as `,"key":`. It
// is append(b, s...) behind a call, for lsp.wasm's size: Go's wasm code
// for an append of a literal in place is several times larger than a call,
// and the writers of the client's JSON have hundreds of them.
func AppendLit(b []byte, s string) []byte { return append(b, s...) }

// AppendFloat appends f formatted as encoding/json formats a float64. NaN
// and infinities, which JSON cannot hold, are written as null.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return AppendNull(b)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendRaw appends an encoded value, or null when r is empty.
func AppendRaw(b []byte, r Raw) []byte {
	if len(r) == 0 {
		return AppendNull(b)
	}
	return append(b, r...)
}

// Appender writes one JSON value by appending to b. Messages that are sent
// implement it instead of being marshalled by reflection.
type Appender interface {
	AppendJSON(b []byte) []byte
}

// AppendJSON lets a Raw be sent where an Appender is expected.
func (r Raw) AppendJSON(b []byte) []byte { return AppendRaw(b, r) }

// Marshal returns the encoding of a, or nil for a nil Appender.
func Marshal(a Appender) Raw {
	if a == nil {
		return nil
	}
	return a.AppendJSON(nil)
}
