package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Semantic tokens: textDocument/semanticTokens/full, or
// textDocument/semanticTokens/full/delta when the server advertises
// full.delta and Monaco holds the previous result (its lastResultId), and
// textDocument/semanticTokens/range for the visible range (a provider of
// its own, registered when the server advertises range). One legend serves
// both providers. Every answer is mapped by SemanticTokensResult.
//
// Request: {"uri","lastResultId"?} for the document, {"uri","range":IRange}
// for a range.

// semanticTokens sends full, or full/delta with the previous resultId.
func semanticTokens(r *Request, e *Env) (string, error) {
	method := lsptypes.MethodSemanticTokensFull
	b := appendDoc(nil, e.DocURI)
	if last, _ := r.v.Get("lastResultId").DecodeString(); last != "" && e.Providers.SemanticTokensDelta {
		method = MethodSemanticTokensDelta
		b = appendString(append(b, `,"previousResultId":`...), last)
	}
	raw, err := e.Call(method, j.Raw(append(b, '}')))
	if err != nil {
		return "", err
	}
	return SemanticTokensResult(raw)
}
