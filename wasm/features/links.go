package features

import (
	"strings"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Document links: textDocument/documentLink for Monaco's links (followed
// with Ctrl/Cmd+click), and documentLink/resolve for links that come
// without a target when the server resolves them (the
// "documentLinkResolve" step, see kept.go).
//
// Answer: {"links":[{"range","url"?,"tooltip"?,"lsp"?}]}: a file://
// target in the workspace becomes this session's model URI (its #L10,5
// fragment kept), so it opens through the page's tabs like a definition;
// other targets (http, https) stay as they are.

func linksResult(raw []byte, _ *Request, e *Env) (string, error) {
	return keptArray(`{"links":`, raw, e, DocumentLink, appendLink)
}

// appendLink appends one link (an itemFunc).
func appendLink(b []byte, v j.Value, e *Env, key, index int) []byte {
	b, ok := appendRangeOf(append(b, `{"range":`...), v.Get("range"))
	if !ok || v.Kind() != j.Object {
		return b[:0]
	}
	if t, _ := v.Get("target").Str(); t != "" {
		// A file:// target is mapped without its fragment.
		if i := strings.IndexByte(t, '#'); strings.HasPrefix(t, "file:") && e.MapURI != nil {
			if i < 0 {
				i = len(t)
			}
			t = e.MapURI(t[:i]) + t[i:]
		}
		b = appendString(appendKey(b, "url"), t)
	} else {
		b = appendRef(b, key, index)
	}
	b = appendMember(b, v, "tooltip", "tooltip")
	return append(b, '}')
}
