package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Folding ranges: textDocument/foldingRange for Monaco's folding controls.
//
// Answer: Monaco FoldingRange[] {"start","end","kind"?}: one-based lines
// (LSP's are zero-based; both ends are inclusive), and the LSP kind
// ("comment", "imports", "region") as a string the shim turns into
// monaco.languages.FoldingRangeKind. Ranges that end before they start
// are left out.
//
// workspace/foldingRange/refresh (LSP 3.18; the client capability
// workspace.foldingRange.refreshSupport) fires the provider's onDidChange,
// so Monaco asks for every open model's ranges again.

func foldingResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := mapArray(nil, raw, func(b []byte, v j.Value) []byte {
		s, ok1 := v.Get("startLine").Uint()
		e, ok2 := v.Get("endLine").Uint()
		if !ok1 || !ok2 || e < s {
			return b
		}
		b = appendUint(append(b, `{"start":`...), s+1)
		b = appendUint(append(b, `,"end":`...), e+1)
		b = appendMember(b, v, "kind", "kind")
		return append(b, '}')
	})
	return string(b), err
}
