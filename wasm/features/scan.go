package features

import "errors"

// errSyntax reports a server answer that is not the JSON it should be.
var errSyntax = errors.New("features: malformed JSON in server result")

// scanner is a minimal pull parser over one JSON value. It hands out raw
// tokens (slices of the input) instead of decoded values: a string is
// copied into Monaco's JSON exactly as the server escaped it, so mapping a
// completion list allocates nothing per item. Strings are checked well
// enough (escapes, no raw control characters) that JSON.parse accepts what
// is copied.
type scanner struct {
	b   []byte
	i   int
	err error
}

func (s *scanner) fail() {
	if s.err == nil {
		s.err = errSyntax
	}
	s.i = len(s.b)
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// null consumes a null literal if one is next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// str consumes a string and returns its raw token, quotes included.
func (s *scanner) str() []byte {
	if s.peek() != '"' {
		s.fail()
		return nil
	}
	start := s.i
	s.i++
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start:s.i]
		case c == '\\':
			if s.i+1 >= len(s.b) {
				s.fail()
				return nil
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex(s.b[s.i+2]) || !isHex(s.b[s.i+3]) || !isHex(s.b[s.i+4]) || !isHex(s.b[s.i+5]) {
					s.fail()
					return nil
				}
				s.i += 6
			default:
				s.fail()
				return nil
			}
		case c < 0x20:
			s.fail()
			return nil
		default:
			s.i++
		}
	}
	s.fail()
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// strOrNull returns a string's raw token, or nil for null.
func (s *scanner) strOrNull() []byte {
	if s.null() {
		return nil
	}
	return s.str()
}

// uint consumes a non-negative integer (LSP's uinteger and enums). A
// negative, fractional or exponent number is consumed and reads as 0.
func (s *scanner) uint() uint32 {
	s.ws()
	start := s.i
	var n uint64
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		n = n*10 + uint64(s.b[s.i]-'0')
		if n > 1<<32-1 {
			n = 1<<32 - 1
		}
		s.i++
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '-', '.', 'e', 'E', '+':
			s.skipNumber()
			return 0
		}
	}
	if s.i == start {
		if !s.null() {
			s.fail()
		}
		return 0
	}
	return uint32(n)
}

func (s *scanner) skipNumber() {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			s.i++
		default:
			return
		}
	}
}

// boolean consumes true, false or null (false).
func (s *scanner) boolean() bool {
	s.ws()
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		s.i += 4
		return true
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		s.i += 5
		return false
	case s.null():
		return false
	}
	s.fail()
	return false
}

// value consumes any value and returns its raw bytes.
func (s *scanner) value() []byte {
	s.ws()
	start := s.i
	s.skip(0)
	return s.b[start:s.i]
}

func (s *scanner) skip(depth int) {
	if depth > 200 {
		s.fail()
		return
	}
	switch c := s.peek(); {
	case c == '"':
		s.str()
	case c == '{':
		for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
			_ = k
			s.skip(depth + 1)
		}
	case c == '[':
		for ok := s.arrayStart(); ok; ok = s.nextElem() {
			s.skip(depth + 1)
		}
	case c == 't' || c == 'f':
		s.boolean()
	case c == 'n':
		if !s.null() {
			s.fail()
		}
	case c == '-' || '0' <= c && c <= '9':
		s.skipNumber()
	default:
		s.fail()
	}
}

// objectStart consumes '{' and the first key with its colon; ok is false
// for an empty object (or an error).
func (s *scanner) objectStart() (key []byte, ok bool) {
	if s.peek() != '{' {
		s.fail()
		return nil, false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return nil, false
	}
	return s.key()
}

// nextKey consumes ',' and the next key, or the closing '}'.
func (s *scanner) nextKey() (key []byte, ok bool) {
	switch s.peek() {
	case ',':
		s.i++
		return s.key()
	case '}':
		s.i++
		return nil, false
	}
	s.fail()
	return nil, false
}

func (s *scanner) key() ([]byte, bool) {
	k := s.str()
	if s.err != nil || s.peek() != ':' {
		s.fail()
		return nil, false
	}
	s.i++
	return k, true
}

// arrayStart consumes '['; ok is false for an empty array.
func (s *scanner) arrayStart() bool {
	if s.peek() != '[' {
		s.fail()
		return false
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		return false
	}
	return true
}

// nextElem consumes ',' (true) or the closing ']' (false).
func (s *scanner) nextElem() bool {
	switch s.peek() {
	case ',':
		s.i++
		return true
	case ']':
		s.i++
		return false
	}
	s.fail()
	return false
}

// position reads an LSP Position.
func (s *scanner) position() (p [2]uint32) {
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		switch string(k) {
		case `"line"`:
			p[0] = s.uint()
		case `"character"`:
			p[1] = s.uint()
		default:
			s.skip(0)
		}
	}
	return p
}

// lspRange reads an LSP Range as a Monaco range (+1 on every number).
func (s *scanner) lspRange() monacoRange {
	var st, en [2]uint32
	for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
		switch string(k) {
		case `"start"`:
			st = s.position()
		case `"end"`:
			en = s.position()
		default:
			s.skip(0)
		}
	}
	return monacoRange{st[0] + 1, st[1] + 1, en[0] + 1, en[1] + 1}
}
