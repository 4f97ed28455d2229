package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Formatting: document, range and on-type formatting with the model's
// options, and formatting before a save.
//
// Requests: {"uri","options":{"tabSize","insertSpaces"}} plus "range"
// (range formatting) or "lineNumber","column","ch" (on type), as Monaco's
// FormattingOptions and arguments give them. Answers: Monaco TextEdit[]
// ({range, text}); Monaco applies them to the model.

// appendOptions appends ,"options":FormattingOptions.
func (r *Request) appendOptions(b []byte) []byte {
	o := r.v.Get("options")
	tab, ok := o.Get("tabSize").Uint()
	if !ok || tab == 0 {
		tab = 4
	}
	spaces, ok := o.Get("insertSpaces").Bool()
	b = appendUint(append(b, `,"options":{"tabSize":`...), tab)
	return append(appendBool(append(b, `,"insertSpaces":`...), spaces || !ok), '}')
}

func formattingParams(r *Request, e *Env) (j.Appender, error) {
	return j.Raw(append(r.appendOptions(appendDoc(nil, e.DocURI)), '}')), nil
}

func rangeFormattingParams(r *Request, e *Env) (j.Appender, error) {
	rng, ok := r.monacoRange("range")
	if !ok {
		return nil, errRequest
	}
	b := rng.AppendJSON(append(appendDoc(nil, e.DocURI), `,"range":`...))
	return j.Raw(append(r.appendOptions(b), '}')), nil
}

// rangesFormatting formats several ranges at once (LSP 3.18, the server's
// documentRangeFormattingProvider.rangesSupport): Monaco's "Format
// Selection" with several selections. Request: {"uri","ranges":[Monaco
// ranges],"options"}; answer: Monaco TextEdit[].
func rangesFormatting(r *Request, e *Env) (string, error) {
	b := append(appendDoc(nil, e.DocURI), `,"ranges":[`...)
	n := 0
	for _, v := range r.v.Get("ranges").Elems() {
		rng, ok := monacoRangeOf(v)
		if !ok {
			return "", errRequest
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = rng.AppendJSON(b)
		n++
	}
	if n == 0 {
		return "", errRequest
	}
	b = append(r.appendOptions(append(b, ']')), '}')
	raw, err := e.Call(MethodRangesFormatting, j.Raw(b))
	if err != nil {
		return "", err
	}
	return editsResult(raw, r, e)
}

func onTypeFormattingParams(r *Request, e *Env) (j.Appender, error) {
	b, err := r.appendPosParams(nil, e)
	if err != nil {
		return nil, err
	}
	ch, _ := r.v.Get("ch").DecodeString()
	b = appendString(append(b, `,"ch":`...), ch)
	return j.Raw(append(r.appendOptions(b), '}')), nil
}

func editsResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := appendEdits(nil, raw)
	return string(b), err
}

// formatOnSave formats the document before the page writes it
// ({"uri","options"}): textDocument/formatting, then its edits applied to
// the model as a workspace edit at the version the server formatted, so
// a model that changed meanwhile is left alone. Answers
// {"formatted":bool}.
func formatOnSave(r *Request, e *Env) (string, error) {
	p, _ := formattingParams(r, e)
	raw, err := e.Call(lsptypes.MethodFormatting, p)
	if err != nil {
		return "", err
	}
	if nullish(raw) || string(trimSpace(raw)) == "[]" {
		return `{"formatted":false}`, nil
	}
	b := appendString(append([]byte(nil), `{"documentChanges":[{"textDocument":{"uri":`...), e.DocURI)
	b = appendInt(append(b, `,"version":`...), int64(e.Version))
	b = append(append(append(b, `},"edits":`...), raw...), "}]}"...)
	if ok, _ := e.Apply(b); !ok {
		return `{"formatted":false}`, nil
	}
	return `{"formatted":true}`, nil
}
