package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Document symbols: textDocument/documentSymbol for Go to Symbol, the
// outline (lsp.outline) and breadcrumbs, in either of the server's forms.
//
// Answer: Monaco DocumentSymbol[] {"name","detail","kind","tags",
// "containerName"?,"range","selectionRange","children"?}. Hierarchical
// DocumentSymbols keep their children; flat SymbolInformation becomes
// symbols whose range and selection are the location's range (only its
// own document's are listed). Monaco's SymbolKind is LSP's minus one.

func symbolsResult(raw []byte, r *Request, e *Env) (string, error) {
	b, err := mapArray(make([]byte, 0, len(raw)), raw, func(b []byte, v j.Value) []byte {
		return appendSymbol(b, v, r.URI, e)
	})
	return string(b), err
}

func appendSymbol(b []byte, v j.Value, model string, e *Env) []byte {
	name, ok1 := v.Get("name").DecodeString()
	kind, ok2 := v.Get("kind").Uint()
	rng, sel := v.Get("range"), v.Get("selectionRange")
	if loc := v.Get("location"); loc.Exists() {
		if uri, _ := loc.Get("uri").DecodeString(); uri != e.DocURI {
			return b // another document's symbol
		}
		rng, sel = loc.Get("range"), loc.Get("range")
	}
	if !ok1 || !ok2 || name == "" || kind < 1 || kind > 26 {
		return b
	}
	detail, _ := v.Get("detail").DecodeString()
	b = appendString(append(b, `{"name":`...), name)
	b = appendString(append(b, `,"detail":`...), detail)
	b = appendUint(append(b, `,"kind":`...), kind-1)
	b = appendTags(append(b, `,"tags":`...), v.Get("tags"))
	if c, _ := v.Get("containerName").DecodeString(); c != "" {
		b = appendString(appendKey(b, "containerName"), c)
	}
	var ok bool
	if b, ok = appendRangeOf(append(b, `,"range":`...), rng); !ok {
		return b[:0]
	}
	if b, ok = appendRangeOf(append(b, `,"selectionRange":`...), sel); !ok {
		return b[:0]
	}
	if ch := v.Get("children"); ch.Kind() == j.Array {
		b, _ = mapArray(append(b, `,"children":`...), []byte(ch.Raw()), func(b []byte, c j.Value) []byte {
			return appendSymbol(b, c, model, e)
		})
	}
	return append(b, '}')
}

// appendTags appends an array of the numeric tags in v (SymbolTag and
// DiagnosticTag have Monaco's numbers).
func appendTags(b []byte, v j.Value) []byte {
	b = append(b, '[')
	n := 0
	for _, t := range v.Elems() {
		if x, ok := t.Uint(); ok {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendUint(b, x)
		}
	}
	return append(b, ']')
}
