package jsonlite

// Raw is an encoded JSON value kept as bytes, in place of
// encoding/json.RawMessage. An empty Raw means "absent".
type Raw []byte

// MarshalJSON returns r, or null when r is empty, so a Raw inside a struct
// still encodes with encoding/json (tests use it as an oracle).
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of data.
func (r *Raw) UnmarshalJSON(data []byte) error {
	*r = append((*r)[:0], data...)
	return nil
}

// IsNull reports whether r is absent or the literal null.
func (r Raw) IsNull() bool {
	v := Value{b: trim(r)}
	return len(v.b) == 0 || v.IsNull()
}

// Value parses r. An empty r gives the missing Value and no error.
func (r Raw) Value() (Value, error) {
	if len(trim(r)) == 0 {
		return Value{}, nil
	}
	return Parse(r)
}

func trim(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
