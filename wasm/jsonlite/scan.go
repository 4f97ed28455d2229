package jsonlite

import (
	"bytes"
	"strconv"
)

// maxDepth bounds nesting as encoding/json does, so a hostile message cannot
// exhaust the stack.
const maxDepth = 10000

// SyntaxError reports invalid JSON and where it was found.
type SyntaxError struct {
	Offset int // byte offset of the first invalid byte
}

func (e *SyntaxError) Error() string {
	return "jsonlite: invalid JSON at offset " + strconv.Itoa(e.Offset)
}

// Valid reports whether b is exactly one JSON value, with optional
// surrounding whitespace.
func Valid(b []byte) bool {
	_, err := Parse(b)
	return err == nil
}

// Parse validates b and returns its value. b is not copied: the Value (and
// every Value and Raw taken from it) shares it.
func Parse(b []byte) (Value, error) {
	i := ws(b, 0)
	end, err := check(b, i, 0)
	if err != nil {
		return Value{}, err
	}
	if j := ws(b, end); j != len(b) {
		return Value{}, &SyntaxError{Offset: j}
	}
	return Value{b: b[i:end]}, nil
}

func ws(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// check validates the value starting at b[i] and returns where it ends.
func check(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, &SyntaxError{Offset: i}
	}
	switch c := b[i]; {
	case c == '{':
		if depth >= maxDepth {
			return i, &SyntaxError{Offset: i}
		}
		i = ws(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return i, &SyntaxError{Offset: i}
			}
			end, err := checkString(b, i)
			if err != nil {
				return end, err
			}
			i = ws(b, end)
			if i >= len(b) || b[i] != ':' {
				return i, &SyntaxError{Offset: i}
			}
			if i, err = check(b, ws(b, i+1), depth+1); err != nil {
				return i, err
			}
			i = ws(b, i)
			if i >= len(b) {
				return i, &SyntaxError{Offset: i}
			}
			switch b[i] {
			case ',':
				i = ws(b, i+1)
			case '}':
				return i + 1, nil
			default:
				return i, &SyntaxError{Offset: i}
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return i, &SyntaxError{Offset: i}
		}
		i = ws(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = check(b, i, depth+1); err != nil {
				return i, err
			}
			i = ws(b, i)
			if i >= len(b) {
				return i, &SyntaxError{Offset: i}
			}
			switch b[i] {
			case ',':
				i = ws(b, i+1)
			case ']':
				return i + 1, nil
			default:
				return i, &SyntaxError{Offset: i}
			}
		}
	case c == '"':
		return checkString(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return checkNumber(b, i)
	}
	return i, &SyntaxError{Offset: i}
}

func literal(b []byte, i int, lit string) (int, error) {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit), nil
	}
	return i, &SyntaxError{Offset: i}
}

// checkString validates the string starting at the quote b[i]. Invalid UTF-8
// is accepted, as encoding/json accepts it (decoding turns it into U+FFFD).
func checkString(b []byte, i int) (int, error) {
	for i++; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(b) {
				return len(b), &SyntaxError{Offset: len(b)}
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(b) || !isHex(b[i+k]) {
						return i + k, &SyntaxError{Offset: i + k}
					}
				}
				i += 6
			default:
				return i + 1, &SyntaxError{Offset: i + 1}
			}
		case c < 0x20:
			return i, &SyntaxError{Offset: i}
		default:
			i++
		}
	}
	return i, &SyntaxError{Offset: i}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// checkNumber validates -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func checkNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i, &SyntaxError{Offset: i}
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, &SyntaxError{Offset: i}
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, &SyntaxError{Offset: i}
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, nil
}

// skip returns the end of the value at b[i], which must be valid (it was
// checked by Parse), without validating it again.
func skip(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			case '"':
				i = skipString(b, i) - 1
			}
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

func skipString(b []byte, i int) int {
	// bytes.IndexByte to the next quote (assembly on every port, wasm's
	// included) rather than a switch on every byte: most of a big answer's
	// bytes are inside strings (a 2,000-diagnostic list read 6% faster
	// under GOOS=js). A quote after an odd run of backslashes is escaped.
	for i++; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		q += i
		n := 0
		for k := q - 1; k >= i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
	return i
}

// ParseObject validates b as Parse does and, in the same pass, calls member
// with each member of the object b must hold (the key unescaped). It is
// Parse followed by Members without a second walk over the values, which
// matters for a message whose one member is a large result. On an error,
// the members already seen are to be discarded: b is not valid JSON.
func ParseObject(b []byte, member func(key string, v Value)) error {
	i := ws(b, 0)
	if i >= len(b) || b[i] != '{' {
		return &SyntaxError{Offset: i}
	}
	i = ws(b, i+1)
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				return &SyntaxError{Offset: i}
			}
			kend, err := checkString(b, i)
			if err != nil {
				return err
			}
			key := Value{b: b[i:kend]}
			i = ws(b, kend)
			if i >= len(b) || b[i] != ':' {
				return &SyntaxError{Offset: i}
			}
			start := ws(b, i+1)
			end, err := check(b, start, 1)
			if err != nil {
				return err
			}
			k, _ := key.Str()
			member(k, Value{b: b[start:end]})
			i = ws(b, end)
			if i >= len(b) {
				return &SyntaxError{Offset: i}
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return &SyntaxError{Offset: i}
			}
			i = ws(b, i+1)
		}
	}
	if j := ws(b, i); j != len(b) {
		return &SyntaxError{Offset: j}
	}
	return nil
}
