package features

import (
	"slices"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Inline completions (LSP 3.18): textDocument/inlineCompletion for
// Monaco's inline suggestions, the ghost text Tab accepts.
//
// Request: a position, "trigger" (LSP's InlineCompletionTriggerKind: 1
// invoked, 2 automatic; the shim maps Monaco's 1 explicit and 0
// automatic) and "selected" ({"range":IRange,"text"}), the suggest
// widget's chosen item, which the server may extend.
//
// Answer: {"items":[{"insertText":string|{"snippet"},"filterText"?,
// "range"?:IRange,"run"?:"<LSP Command>","title"?}]}, or null. A command
// is kept ("run") only when the server runs it (executeCommandProvider):
// the shim makes it Monaco's command, which hands it back to the
// "inlineCompletionRun" step once the suggestion is accepted; any other
// command is dropped, since nothing here could run it.

func inlineParams(r *Request, e *Env) (j.Appender, error) {
	b, err := r.appendPosParams(nil, e)
	if err != nil {
		return nil, err
	}
	kind := uint64(2)
	if t, _ := r.v.Get("trigger").Uint(); t == 1 {
		kind = 1
	}
	b = appendUint(append(b, `,"context":{"triggerKind":`...), kind)
	if sel := r.v.Get("selected"); sel.Kind() == j.Object {
		text, ok := sel.Get("text").DecodeString()
		rng, rok := monacoRangeOf(sel.Get("range"))
		if ok && rok {
			b = rng.AppendJSON(append(b, `,"selectedCompletionInfo":{"range":`...))
			b = append(appendString(append(b, `,"text":`...), text), '}')
		}
	}
	return j.Raw(append(b, '}', '}')), nil
}

func inlineResult(raw []byte, _ *Request, e *Env) (string, error) {
	if nullish(raw) {
		return "null", nil
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	if v.Kind() == j.Object { // InlineCompletionList
		v = v.Get("items")
	}
	if v.Kind() != j.Array {
		return "", errSyntax
	}
	b, err := mapArray(append(make([]byte, 0, len(raw)+32), `{"items":`...), []byte(v.Raw()), func(b []byte, it j.Value) []byte {
		return appendInlineItem(b, it, e)
	})
	if err != nil {
		return "", err
	}
	return string(append(b, '}')), nil
}

// appendInlineItem appends one InlineCompletionItem in Monaco's form, or
// nothing for an item without text.
func appendInlineItem(b []byte, v j.Value, e *Env) []byte {
	text := v.Get("insertText")
	if s, ok := text.DecodeString(); ok && text.Kind() == j.String {
		b = appendString(append(b, `{"insertText":`...), s)
	} else if k, _ := text.Get("kind").Str(); k == "snippet" {
		s, ok := text.Get("value").DecodeString()
		if !ok {
			return b
		}
		b = append(appendString(append(b, `{"insertText":{"snippet":`...), s), '}')
	} else {
		return b
	}
	if f, ok := v.Get("filterText").DecodeString(); ok && v.Get("filterText").Kind() == j.String {
		b = appendString(appendKey(b, "filterText"), f)
	}
	if r := v.Get("range"); r.Exists() && !r.IsNull() {
		if rb, ok := appendRangeOf(appendKey(b, "range"), r); ok {
			b = rb
		}
	}
	c := v.Get("command")
	if name, ok := c.Get("command").Str(); ok && slices.Contains(e.Providers.Commands, name) {
		b = appendString(appendKey(b, "run"), string(c.Raw()))
		title, _ := c.Get("title").DecodeString()
		b = appendString(appendKey(b, "title"), title)
	}
	return append(b, '}')
}
