package jsonlite

// ParseInt and ParseUint read decimal integers as strconv.ParseInt and
// strconv.ParseUint do with base 10, reporting only success. lsp.wasm reads
// integers only here, and strconv's parsers return a *strconv.NumError whose
// Error method quotes the input with strconv.Quote, which links Go's
// quoting code and its Unicode printability tables into the binary.

// ParseUint parses s, decimal digits with no sign, as an unsigned integer
// that fits in bits bits (0 means 64); ok is false for anything else,
// including an empty s and a value out of range.
func ParseUint(s string, bits int) (n uint64, ok bool) {
	if bits == 0 {
		bits = 64
	}
	if s == "" || bits < 0 || bits > 64 {
		return 0, false
	}
	limit := uint64(1<<64-1) >> uint(64-bits)
	for i := 0; i < len(s); i++ {
		d := uint64(s[i] - '0')
		if d > 9 || n > limit/10 {
			return 0, false
		}
		n *= 10 // at most limit, so limit-n below cannot wrap
		if d > limit-n {
			return 0, false
		}
		n += d
	}
	return n, true
}

// ParseInt parses s, decimal digits after an optional + or - sign, as a
// signed integer that fits in bits bits (0 means 64); ok is false for
// anything else.
func ParseInt(s string, bits int) (n int64, ok bool) {
	if bits == 0 {
		bits = 64
	}
	if bits < 0 || bits > 64 {
		return 0, false
	}
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	u, ok := ParseUint(s, 64)
	if !ok {
		return 0, false
	}
	limit := uint64(1) << uint(bits-1) // magnitude of the smallest value
	if neg {
		if u > limit {
			return 0, false
		}
		return -int64(u), true
	}
	if u >= limit {
		return 0, false
	}
	return int64(u), true
}
