package features

import (
	"encoding/json"

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
		TriggerKind         int              `json:"triggerKind"`
		TriggerCharacter    string           `json:"triggerCharacter"`
		IsRetrigger         bool             `json:"isRetrigger"`
		ActiveSignatureHelp *monacoSigHelpIn `json:"activeSignatureHelp"`
	} `json:"context"`
}

// ParseSignatureHelpRequest decodes the binding's signature-help request.
func ParseSignatureHelpRequest(js string) (SignatureHelpRequest, error) {
	var r SignatureHelpRequest
	err := json.Unmarshal([]byte(js), &r)
	return r, err
}

// monacoSigHelpIn is a Monaco SignatureHelp as JSON.stringify renders it.
type monacoSigHelpIn struct {
	Signatures []struct {
		Label         string          `json:"label"`
		Documentation json.RawMessage `json:"documentation,omitempty"`
		Parameters    []struct {
			Label         json.RawMessage `json:"label"`
			Documentation json.RawMessage `json:"documentation,omitempty"`
		} `json:"parameters"`
		ActiveParameter *uint32 `json:"activeParameter,omitempty"`
	} `json:"signatures"`
	ActiveSignature uint32 `json:"activeSignature"`
	ActiveParameter uint32 `json:"activeParameter"`
}

// SignatureHelpParams is LSP SignatureHelpParams.
type SignatureHelpParams struct {
	lsptypes.TextDocumentPositionParams
	Context signatureHelpContext `json:"context"`
}

type signatureHelpContext struct {
	TriggerKind         int             `json:"triggerKind"`
	TriggerCharacter    string          `json:"triggerCharacter,omitempty"`
	IsRetrigger         bool            `json:"isRetrigger"`
	ActiveSignatureHelp json.RawMessage `json:"activeSignatureHelp,omitempty"`
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
	if a := r.Context.ActiveSignatureHelp; a != nil {
		for i := range a.Signatures {
			s := &a.Signatures[i]
			s.Documentation = lspDoc(s.Documentation)
			for j := range s.Parameters {
				s.Parameters[j].Documentation = lspDoc(s.Parameters[j].Documentation)
			}
		}
		c.ActiveSignatureHelp, _ = json.Marshal(a)
	}
	return SignatureHelpParams{TextDocumentPositionParams: r.PositionParams(docURI), Context: c}
}

// lspDoc turns Monaco documentation (string | {value}) into LSP's
// (string | MarkupContent markdown).
func lspDoc(raw json.RawMessage) json.RawMessage {
	raw = trimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return raw
	}
	var m struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	b := append([]byte(nil), `{"kind":"markdown","value":`...)
	b = appendString(b, m.Value)
	return append(b, '}')
}

type lspSignature struct {
	Label         string          `json:"label"`
	Documentation json.RawMessage `json:"documentation"`
	Parameters    []struct {
		Label         json.RawMessage `json:"label"`
		Documentation json.RawMessage `json:"documentation"`
	} `json:"parameters"`
	ActiveParameter *uint32 `json:"activeParameter"`
}

// SignatureHelpResult turns a textDocument/signatureHelp result into the
// JSON of Monaco's SignatureHelpResult without its dispose method,
//
//	{"value":{"signatures":[{"label","documentation"?,"parameters":[{"label":string|[start,end],"documentation"?}],"activeParameter"?}],
//	          "activeSignature":n,"activeParameter":n}}
//
// or "null" when there is no signature. The binding adds dispose after
// JSON.parse: r && (r.dispose = () => {}).
func SignatureHelpResult(raw json.RawMessage) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "null", nil
	}
	var h struct {
		Signatures      []lspSignature `json:"signatures"`
		ActiveSignature *uint32        `json:"activeSignature"`
		ActiveParameter *uint32        `json:"activeParameter"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", err
	}
	if len(h.Signatures) == 0 {
		return "null", nil
	}
	b := append(make([]byte, 0, len(raw)+64), `{"value":{"signatures":[`...)
	for i := range h.Signatures {
		s := &h.Signatures[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"label":`...)
		b = appendString(b, s.Label)
		if d, ok := documentation(s.Documentation); ok {
			b = append(b, `,"documentation":`...)
			b = d.append(b)
		}
		b = append(b, `,"parameters":[`...)
		for j, p := range s.Parameters {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"label":`...)
			b = appendParamLabel(b, p.Label)
			if d, ok := documentation(p.Documentation); ok {
				b = append(b, `,"documentation":`...)
				b = d.append(b)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
		if s.ActiveParameter != nil {
			b = append(b, `,"activeParameter":`...)
			b = appendUint(b, uint64(*s.ActiveParameter))
		}
		b = append(b, '}')
	}
	var as, ap uint32
	if h.ActiveSignature != nil && int(*h.ActiveSignature) < len(h.Signatures) {
		as = *h.ActiveSignature
	}
	if h.ActiveParameter != nil {
		ap = *h.ActiveParameter
	}
	b = append(b, `],"activeSignature":`...)
	b = appendUint(b, uint64(as))
	b = append(b, `,"activeParameter":`...)
	b = appendUint(b, uint64(ap))
	return string(append(b, '}', '}')), nil
}

// appendParamLabel writes a parameter label: a string, or the [start, end]
// UTF-16 offsets into the signature label, which Monaco takes as they are.
func appendParamLabel(b []byte, raw json.RawMessage) []byte {
	raw = trimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var off [2]uint32
		if json.Unmarshal(raw, &off) == nil {
			b = append(b, '[')
			b = appendUint(b, uint64(off[0]))
			b = append(b, ',')
			b = appendUint(b, uint64(off[1]))
			return append(b, ']')
		}
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return appendString(b, s)
}
