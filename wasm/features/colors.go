package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Document colors: textDocument/documentColor for Monaco's color
// decorators and picker, and textDocument/colorPresentation (the
// "colorPresentation" step) for the picker's text forms of a chosen color.
//
// Colors are LSP's and Monaco's alike: red, green, blue and alpha in
// [0, 1], copied as they are.
//
// documentColor answer: Monaco IColorInformation[] [{"range","color"}].
// colorPresentation request: {"uri","params":{"color","range"}}, LSP's
// ColorPresentationParams without the document (lspParams);
// answer: Monaco IColorPresentation[] [{"label","textEdit"?,
// "additionalTextEdits"?}], edits as {range, text}.

func colorsResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := mapArray(nil, raw, func(b []byte, v j.Value) []byte {
		c := v.Get("color")
		if c.Kind() != j.Object {
			return b
		}
		b, ok := appendRangeOf(append(b, `{"range":`...), v.Get("range"))
		if !ok {
			return b[:0]
		}
		return append(append(append(b, `,"color":`...), c.Raw()...), '}')
	})
	return string(b), err
}

func presentationsResult(raw []byte, _ *Request, _ *Env) (string, error) {
	b, err := mapArray(nil, raw, func(b []byte, v j.Value) []byte {
		label, ok := v.Get("label").Str()
		if !ok {
			return b
		}
		b = appendString(append(b, `{"label":`...), label)
		if ed := appendEdit(nil, v.Get("textEdit")); len(ed) > 0 {
			b = append(appendKey(b, "textEdit"), ed...)
		}
		if ae := v.Get("additionalTextEdits"); ae.Kind() == j.Array {
			b, _ = appendEdits(appendKey(b, "additionalTextEdits"), []byte(ae.Raw()))
		}
		return append(b, '}')
	})
	return string(b), err
}
