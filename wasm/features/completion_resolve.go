package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Completion resolve: completionItem/resolve when the server offers it, so
// documentation, detail and additionalTextEdits (TypeScript's auto-import
// lines) arrive for the item Monaco focuses or accepts.
//
// The completion answer was kept (Env.Keep) and each Monaco item carries
// "lsp":[key,index]. Request: {"uri","lsp":[key,index]}; the LSP item goes
// to the server as it came, with the list's itemDefaults.data when the
// item has none. Answer: the members Monaco merges into its item
// (Object.assign): {"detail"?,"documentation"?,"additionalTextEdits"?}, or
// null when the list is no longer kept.

// mergesData reports the list's applyKind.data is Merge (LSP 3.18).
func mergesData(list j.Value) bool {
	n, ok := list.Get("applyKind").Get("data").Uint()
	return ok && n == applyKindMerge
}

// withData is the raw item with data as its data member, first.
func withData(item j.Value, data []byte) []byte {
	out := append([]byte(`{"data":`), data...)
	for k, v := range item.Members() {
		if k != "data" {
			out = append(appendKey(out, k), v.Raw()...)
		}
	}
	return append(out, '}')
}

func resolveCompletion(r *Request, e *Env) (string, error) {
	item, whole, ok := kept(r, e)
	if !ok {
		return "null", nil
	}
	send := []byte(item.Raw())
	d := whole.Get("itemDefaults").Get("data")
	own := item.Get("data")
	switch {
	case d.Exists() && (!own.Exists() || own.IsNull()):
		send = withData(item, d.Raw())
	case d.Kind() == j.Object && own.Kind() == j.Object && mergesData(whole):
		// ApplyKind Merge (LSP 3.18): the defaults' members, each
		// overwritten by the item's of the same name; no deeper.
		merged := []byte{'{'}
		for k, v := range d.Members() {
			if !own.Get(k).Exists() {
				merged = append(appendKey(merged, k), v.Raw()...)
			}
		}
		for k, v := range own.Members() {
			merged = append(appendKey(merged, k), v.Raw()...)
		}
		send = withData(item, append(merged, '}'))
	}
	raw, err := e.Call(lsptypes.MethodCompletionResolve, j.Raw(send))
	if err != nil {
		return "", err
	}
	s := scanner{b: raw}
	var it rawItem
	it.parse(&s)
	if s.err != nil {
		return "", s.err
	}
	b := append(make([]byte, 0, len(raw)), '{')
	if nonEmpty(it.detail) {
		b = append(appendKey(b, "detail"), it.detail...)
	}
	if nonEmpty(it.doc) {
		b = appendKey(b, "documentation")
		if it.docMarkdown {
			b = append(append(append(b, `{"value":`...), it.doc...), '}')
		} else {
			b = append(b, it.doc...)
		}
	}
	if len(it.additional) > 0 {
		b = appendKey(b, "additionalTextEdits")
		b = appendAdditional(b, it.additional)
	}
	return string(append(b, '}')), nil
}
