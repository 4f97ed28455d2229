package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Inlay hints: textDocument/inlayHint for the visible range, inlayHint/resolve
// when the server resolves hints, and workspace/inlayHint/refresh (the
// client's Editor.Refresh fires the provider's onDidChangeInlayHints).
//
// Request: {"uri","range":IRange}. Answer: {"hints":[Monaco InlayHint]}:
// {"label": string | [{"label","tooltip"?,"location"?:{uri,range}}],
// "position":{lineNumber,column},"kind"?,"tooltip"?,"paddingLeft"?,
// "paddingRight"?,"textEdits"?, "lsp"?:[key,index]} — "lsp" names the LSP
// hint for the "inlayHintResolve" step when the server resolves hints.
// Label locations are model URIs the shim turns into Uris.

func inlayResult(raw []byte, _ *Request, e *Env) (string, error) {
	return keptArray(`{"hints":`, raw, e, InlayHints, appendHint)
}

// appendHint appends one hint; key < 0 leaves out "lsp".
func appendHint(b []byte, v j.Value, e *Env, key, index int) []byte {
	p, ok := lsptypes.ParsePosition(v.Get("position"))
	label := v.Get("label")
	if !ok || !v.Get("position").Exists() || !label.Exists() {
		return b
	}
	b = append(b, `{"label":`...)
	switch label.Kind() {
	case j.String:
		b = append(b, label.Raw()...)
	case j.Array:
		b, _ = mapArray(b, []byte(label.Raw()), func(b []byte, part j.Value) []byte {
			s, ok := part.Get("value").DecodeString()
			if !ok || part.Kind() != j.Object {
				return b
			}
			b = appendString(append(b, `{"label":`...), s)
			b = appendDocumentation(b, "tooltip", part.Get("tooltip"))
			if loc, ok := lsptypes.ParseLocation(part.Get("location")); ok && loc.URI != "" {
				uri := loc.URI
				if e.MapURI != nil {
					uri = e.MapURI(uri)
				}
				b = appendString(append(b, `,"location":{"uri":`...), uri)
				b = append(appendLSPRange(append(b, `,"range":`...), loc.Range), '}')
			}
			return append(b, '}')
		})
	default:
		return b[:0]
	}
	b = append(b, `,"position":{"lineNumber":`...)
	b = appendUint(b, uint64(p.Line)+1)
	b = appendUint(append(b, `,"column":`...), uint64(p.Character)+1)
	b = append(b, '}')
	b = appendMember(b, v, "kind", "kind")
	b = appendDocumentation(b, "tooltip", v.Get("tooltip"))
	b = appendMember(b, v, "paddingLeft", "paddingLeft")
	b = appendMember(b, v, "paddingRight", "paddingRight")
	if te := v.Get("textEdits"); te.Kind() == j.Array {
		b, _ = appendEdits(append(b, `,"textEdits":`...), []byte(te.Raw()))
	}
	return append(appendRef(b, key, index), '}')
}

// appendDocumentation appends ,"key": with LSP documentation (string |
// MarkupContent) as Monaco's (string | IMarkdownString), if there is any.
func appendDocumentation(b []byte, key string, v j.Value) []byte {
	if d, ok := documentation(v.Raw()); ok {
		b = d.append(appendKey(b, key))
	}
	return b
}
