package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Document highlights: textDocument/documentHighlight, the other
// occurrences of the symbol under the cursor.
//
// Answer: Monaco DocumentHighlight[] {"range","kind"}: LSP's kinds 1 text,
// 2 read, 3 write are Monaco's 0, 1, 2; an absent kind is text.

func highlightResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := mapArray(nil, raw, func(b []byte, v j.Value) []byte {
		kind, ok := v.Get("kind").Uint()
		if !ok || kind < 1 || kind > 3 {
			kind = 1
		}
		b, ok = appendRangeOf(append(b, `{"range":`...), v.Get("range"))
		if !ok {
			return b[:0]
		}
		return append(appendUint(append(b, `,"kind":`...), kind-1), '}')
	})
	return string(b), err
}
