package features

import (
	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// SignatureHelpRequest is the JSON the binding builds in
// provideSignatureHelp(model, position, token, context):
//
//	JSON.stringify({uri: model.uri.toString(), lineNumber: position.lineNumber,
//	  column: position.column, context})
//
// Monaco's SignatureHelpContext and LSP's use the same trigger kind numbers
// (Invoke 1, TriggerCharacter 2, ContentChange 3).
type SignatureHelpRequest struct {
	PositionRequest
	Context struct {
		TriggerKind      int    `json:"triggerKind"`
		TriggerCharacter string `json:"triggerCharacter"`
		IsRetrigger      bool   `json:"isRetrigger"`
		// ActiveSignatureHelp is the Monaco SignatureHelp on screen, as
		// JSON; nil when there is none.
		ActiveSignatureHelp j.Raw `json:"activeSignatureHelp"`
	} `json:"context"`
}

// ParseSignatureHelpRequest decodes the binding's signature-help request.
func ParseSignatureHelpRequest(js string) (SignatureHelpRequest, error) {
	v, err := parseRequest(js)
	if err != nil {
		return SignatureHelpRequest{}, err
	}
	var r SignatureHelpRequest
	var ok bool
	if r.PositionRequest, ok = parsePositionRequest(v); !ok {
		return SignatureHelpRequest{}, errRequest
	}
	c := v.Get("context")
	if !c.DecodeObject() {
		return SignatureHelpRequest{}, errRequest
	}
	kind, ok1 := c.Get("triggerKind").DecodeInt(64)
	char, ok2 := c.Get("triggerCharacter").DecodeString()
	re, ok3 := c.Get("isRetrigger").DecodeBool()
	a := c.Get("activeSignatureHelp")
	_, ok4 := lspSigHelp(nil, a)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return SignatureHelpRequest{}, errRequest
	}
	r.Context.TriggerKind, r.Context.TriggerCharacter, r.Context.IsRetrigger = int(kind), char, re
	if a.Exists() && !a.IsNull() {
		r.Context.ActiveSignatureHelp = a.Raw()
	}
	return r, nil
}

// lspSigHelp appends a Monaco SignatureHelp (as JSON.stringify renders it)
// converted back to LSP: documentation IMarkdownString → MarkupContent.
// ok is false when the value does not have Monaco's shape.
func lspSigHelp(b []byte, v j.Value) ([]byte, bool) {
	if !v.DecodeObject() {
		return nil, false
	}
	as, ok1 := v.Get("activeSignature").DecodeUint(32)
	ap, ok2 := v.Get("activeParameter").DecodeUint(32)
	sigs := v.Get("signatures")
	if !ok1 || !ok2 || !sigs.DecodeArray() {
		return nil, false
	}
	b = append(b, `{"signatures":`...)
	if sigs.Kind() != j.Array {
		b = j.AppendNull(b)
	} else {
		b = append(b, '[')
		for i, s := range sigs.Elems() {
			if i > 0 {
				b = append(b, ',')
			}
			label, ok1 := s.Get("label").DecodeString()
			sap, ok2 := s.Get("activeParameter").DecodeUint(32)
			params := s.Get("parameters")
			if !s.DecodeObject() || !ok1 || !ok2 || !params.DecodeArray() {
				return nil, false
			}
			b = append(b, `{"label":`...)
			b = j.AppendString(b, label)
			var ok bool
			if b, ok = appendLSPDoc(b, s.Get("documentation")); !ok {
				return nil, false
			}
			b = append(b, `,"parameters":`...)
			if params.Kind() != j.Array {
				b = j.AppendNull(b)
			} else {
				b = append(b, '[')
				for k, p := range params.Elems() {
					if !p.DecodeObject() {
						return nil, false
					}
					if k > 0 {
						b = append(b, ',')
					}
					b = append(b, `{"label":`...)
					b = j.AppendRaw(b, p.Get("label").Raw())
					if b, ok = appendLSPDoc(b, p.Get("documentation")); !ok {
						return nil, false
					}
					b = append(b, '}')
				}
				b = append(b, ']')
			}
			if a := s.Get("activeParameter"); a.Exists() && !a.IsNull() {
				b = append(b, `,"activeParameter":`...)
				b = j.AppendUint(b, sap)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"activeSignature":`...)
	b = j.AppendUint(b, as)
	b = append(b, `,"activeParameter":`...)
	b = j.AppendUint(b, ap)
	return append(b, '}'), true
}

// appendLSPDoc appends ,"documentation": with Monaco documentation (string |
// {value}) turned into LSP's (string | MarkupContent markdown); nothing when
// it is absent or an object without a usable value.
func appendLSPDoc(b []byte, v j.Value) ([]byte, bool) {
	if !v.Exists() {
		return b, true
	}
	if v.Kind() != j.Object {
		b = append(b, `,"documentation":`...)
		return append(b, v.Raw()...), true
	}
	value, ok := v.Get("value").DecodeString()
	if !ok {
		return b, true
	}
	b = append(b, `,"documentation":{"kind":"markdown","value":`...)
	b = j.AppendString(b, value)
	return append(b, '}'), true
}

// SignatureHelpParams is LSP SignatureHelpParams.
type SignatureHelpParams struct {
	lsptypes.TextDocumentPositionParams
	Context signatureHelpContext `json:"context"`
}

type signatureHelpContext struct {
	TriggerKind         int    `json:"triggerKind"`
	TriggerCharacter    string `json:"triggerCharacter,omitempty"`
	IsRetrigger         bool   `json:"isRetrigger"`
	ActiveSignatureHelp j.Raw  `json:"activeSignatureHelp,omitempty"`
}

// AppendJSON appends p as JSON.
func (p SignatureHelpParams) AppendJSON(b []byte) []byte {
	b = append(b, `{"textDocument":`...)
	b = p.TextDocument.AppendJSON(b)
	b = append(b, `,"position":`...)
	b = p.Position.AppendJSON(b)
	b = append(b, `,"context":{"triggerKind":`...)
	b = j.AppendInt(b, int64(p.Context.TriggerKind))
	if p.Context.TriggerCharacter != "" {
		b = append(b, `,"triggerCharacter":`...)
		b = j.AppendString(b, p.Context.TriggerCharacter)
	}
	b = append(b, `,"isRetrigger":`...)
	b = j.AppendBool(b, p.Context.IsRetrigger)
	if len(p.Context.ActiveSignatureHelp) > 0 {
		b = append(b, `,"activeSignatureHelp":`...)
		b = append(b, p.Context.ActiveSignatureHelp...)
	}
	return append(b, '}', '}')
}

// Params builds textDocument/signatureHelp params. The active signature
// help Monaco shows is converted back to LSP (documentation
// IMarkdownString → MarkupContent) so the server can keep the user's
// selected overload on retrigger.
func (r SignatureHelpRequest) Params(docURI string) SignatureHelpParams {
	kind := r.Context.TriggerKind
	if kind < 1 || kind > 3 {
		kind = 1
	}
	c := signatureHelpContext{TriggerKind: kind, IsRetrigger: r.Context.IsRetrigger}
	if kind == 2 {
		c.TriggerCharacter = r.Context.TriggerCharacter
	}
	if a, err := r.Context.ActiveSignatureHelp.Value(); err == nil && a.Exists() {
		c.ActiveSignatureHelp, _ = lspSigHelp(nil, a)
	}
	return SignatureHelpParams{TextDocumentPositionParams: r.PositionParams(docURI), Context: c}
}

// SignatureHelpResult turns a textDocument/signatureHelp result into the
// JSON of Monaco's SignatureHelpResult without its dispose method,
//
//	{"value":{"signatures":[{"label","documentation"?,"parameters":[{"label":string|[start,end],"documentation"?}],"activeParameter"?}],
//	          "activeSignature":n,"activeParameter":n}}
//
// or "null" when there is no signature. The binding adds dispose after
// JSON.parse: r && (r.dispose = () => {}).
func SignatureHelpResult(raw []byte) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "null", nil
	}
	h, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	sigs := h.Get("signatures")
	hs, ok1 := h.Get("activeSignature").DecodeUint(32)
	hp, ok2 := h.Get("activeParameter").DecodeUint(32)
	if !h.DecodeObject() || !sigs.DecodeArray() || !ok1 || !ok2 {
		return "", errSyntax
	}
	n := sigs.Len()
	if n == 0 {
		return "null", nil
	}
	b := append(make([]byte, 0, len(raw)+64), `{"value":{"signatures":[`...)
	for i, s := range sigs.Elems() {
		label, ok1 := s.Get("label").DecodeString()
		sap, ok2 := s.Get("activeParameter").DecodeUint(32)
		params := s.Get("parameters")
		if !s.DecodeObject() || !ok1 || !ok2 || !params.DecodeArray() {
			return "", errSyntax
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"label":`...)
		b = appendString(b, label)
		if d, ok := documentation(s.Get("documentation").Raw()); ok {
			b = append(b, `,"documentation":`...)
			b = d.append(b)
		}
		b = append(b, `,"parameters":[`...)
		for k, p := range params.Elems() {
			if !p.DecodeObject() {
				return "", errSyntax
			}
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"label":`...)
			b = appendParamLabel(b, p.Get("label"))
			if d, ok := documentation(p.Get("documentation").Raw()); ok {
				b = append(b, `,"documentation":`...)
				b = d.append(b)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
		if a := s.Get("activeParameter"); a.Exists() && !a.IsNull() {
			b = append(b, `,"activeParameter":`...)
			b = appendUint(b, sap)
		}
		b = append(b, '}')
	}
	var as, ap uint32
	if int(hs) < n {
		as = uint32(hs)
	}
	ap = uint32(hp)
	b = append(b, `],"activeSignature":`...)
	b = appendUint(b, uint64(as))
	b = append(b, `,"activeParameter":`...)
	b = appendUint(b, uint64(ap))
	return string(append(b, '}', '}')), nil
}

// appendParamLabel writes a parameter label: a string, or the [start, end]
// UTF-16 offsets into the signature label, which Monaco takes as they are.
func appendParamLabel(b []byte, v j.Value) []byte {
	if v.Kind() == j.Array {
		start, ok1 := v.Index(0).DecodeUint(32)
		end, ok2 := v.Index(1).DecodeUint(32)
		if ok1 && ok2 {
			b = append(b, '[')
			b = appendUint(b, start)
			b = append(b, ',')
			b = appendUint(b, end)
			return append(b, ']')
		}
	}
	return appendString(b, v.String())
}
