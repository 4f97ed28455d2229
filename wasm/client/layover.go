package client

import "github.com/kandev/lsp/wasm/jsonlite"

// layOver returns the initializationOptions object made of the catalog
// entry's defaults (from the ready frame) with the client's own members
// laid over them: both objects' members in one, the client's last, so a
// member both name is the client's (JSON readers keep a repeated key's last
// value). Either may be empty; nil when both are.
func layOver(entry, own jsonlite.Raw) jsonlite.Raw {
	inner := func(o jsonlite.Raw) jsonlite.Raw {
		v, err := o.Value()
		if err != nil || v.Kind() != jsonlite.Object {
			return nil
		}
		b := bytesTrim(o)
		return b[1 : len(b)-1]
	}
	e, c := inner(entry), inner(own)
	switch {
	case len(bytesTrim(e)) == 0 && len(bytesTrim(c)) == 0:
		if len(entry) > 0 || len(own) > 0 {
			return jsonlite.Raw("{}")
		}
		return nil
	case len(bytesTrim(e)) == 0:
		return own
	case len(bytesTrim(c)) == 0:
		return entry
	}
	out := append(jsonlite.Raw{'{'}, e...)
	out = append(append(out, ','), c...)
	return append(out, '}')
}

// bytesTrim trims JSON white space.
func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
