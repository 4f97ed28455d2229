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

func inlayParams(r *Request, e *Env) (j.Appender, error) {
	rng, ok := r.monacoRange("range")
	if !ok {
		return nil, errRequest
	}
	return j.Raw(append(rng.AppendJSON(append(appendDoc(nil, e.DocURI), `,"range":`...)), '}')), nil
}

func inlayResult(raw []byte, _ *Request, e *Env) (string, error) {
	key := -1
	if e.Providers.InlayHintResolve && e.Keep != nil && !nullish(raw) {
		key = e.Keep(raw)
	}
	i := -1
	b, err := mapArray(append(make([]byte, 0, 2*len(raw)), `{"hints":`...), raw, func(b []byte, v j.Value) []byte {
		i++
		return appendHint(b, v, e, key, i)
	})
	if err != nil {
		return "", err
	}
	return string(append(b, '}')), nil
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
	if key >= 0 {
		b = appendInt(append(b, `,"lsp":[`...), int64(key))
		b = append(appendInt(append(b, ','), int64(index)), ']')
	}
	return append(b, '}')
}

// appendDocumentation appends ,"key": with LSP documentation (string |
// MarkupContent) as Monaco's (string | IMarkdownString), if there is any.
func appendDocumentation(b []byte, key string, v j.Value) []byte {
	if d, ok := documentation(v.Raw()); ok {
		b = d.append(appendKey(b, key))
	}
	return b
}

// kept returns element index of the kept result key (an array, or the
// "items" of a CompletionList) and the kept result itself.
func kept(r *Request, e *Env) (item, whole j.Value, ok bool) {
	k := r.v.Get("lsp")
	key, ok1 := k.Index(0).Int()
	index, ok2 := k.Index(1).Int()
	if !ok1 || !ok2 || e.Kept == nil {
		return item, whole, false
	}
	raw := e.Kept(int(key))
	whole, err := j.Parse(raw)
	if err != nil || raw == nil {
		return item, whole, false
	}
	list := whole
	if list.Kind() == j.Object {
		list = list.Get("items")
	}
	item = list.Index(int(index))
	return item, whole, item.Kind() == j.Object
}

// resolveInlayHint sends the kept LSP hint to inlayHint/resolve and answers
// the resolved hint (null when the hint is no longer kept).
func resolveInlayHint(r *Request, e *Env) (string, error) {
	h, _, ok := kept(r, e)
	if !ok {
		return "null", nil
	}
	raw, err := e.Call(lsptypes.MethodInlayHintResolve, h.Raw())
	if err != nil {
		return "", err
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	if b := appendHint(nil, v, e, -1, 0); len(b) > 0 {
		return string(b), nil
	}
	return "null", nil
}
