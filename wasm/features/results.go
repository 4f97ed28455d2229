package features

import (
	"encoding/json"

	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/protocol"
)

// ParsePositionRequest decodes the binding's position request JSON.
func ParsePositionRequest(js string) (PositionRequest, error) {
	var r PositionRequest
	err := json.Unmarshal([]byte(js), &r)
	return r, err
}

// ParseCompletionRequest decodes the binding's completion request JSON.
func ParseCompletionRequest(js string) (CompletionRequest, error) {
	var r CompletionRequest
	err := json.Unmarshal([]byte(js), &r)
	return r, err
}

// PositionParams builds the params of textDocument/hover and
// textDocument/definition for the server's document URI.
func (r PositionRequest) PositionParams(docURI string) lsptypes.TextDocumentPositionParams {
	return lsptypes.TextDocumentPositionParams{
		TextDocument: lsptypes.TextDocumentIdentifier{URI: docURI},
		Position:     r.LSPPosition(),
	}
}

// ReferenceParams is LSP ReferenceParams.
type ReferenceParams struct {
	lsptypes.TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// ReferenceParams builds textDocument/references params. The declaration
// is included, as Monaco's references view expects.
func (r PositionRequest) ReferenceParams(docURI string) ReferenceParams {
	p := ReferenceParams{TextDocumentPositionParams: r.PositionParams(docURI)}
	p.Context.IncludeDeclaration = true
	return p
}

// SemanticTokensParams is LSP SemanticTokensParams.
type SemanticTokensParams struct {
	TextDocument lsptypes.TextDocumentIdentifier `json:"textDocument"`
}

// SemanticTokensParams builds textDocument/semanticTokens/full params (the
// request's position is ignored).
func (r PositionRequest) SemanticTokensParams(docURI string) SemanticTokensParams {
	return SemanticTokensParams{TextDocument: lsptypes.TextDocumentIdentifier{URI: docURI}}
}

// HoverResult turns a textDocument/hover result into the JSON of Monaco's
// Hover, {"contents":[{"value":markdown}...],"range":IRange?}, or "null"
// when there is nothing to show. contents may be a MarkedString, a
// MarkedString[] or a MarkupContent.
func HoverResult(raw json.RawMessage) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "null", nil
	}
	var h struct {
		Contents json.RawMessage `json:"contents"`
		Range    *lsptypes.Range `json:"range"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", err
	}
	var parts []json.RawMessage
	if c := trimSpace(h.Contents); len(c) > 0 && c[0] == '[' {
		if err := json.Unmarshal(c, &parts); err != nil {
			return "", err
		}
	} else {
		parts = []json.RawMessage{c}
	}
	b := append(make([]byte, 0, 64+len(raw)), `{"contents":[`...)
	n := 0
	for _, p := range parts {
		md, ok := markdownOf(p)
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"value":`...)
		b = appendString(b, md)
		b = append(b, '}')
	}
	if n == 0 {
		return "null", nil
	}
	b = append(b, ']')
	if h.Range != nil {
		b = append(b, `,"range":`...)
		b = appendLSPRange(b, *h.Range)
	}
	return string(append(b, '}')), nil
}

// URIMapper maps a server's target URI to the URI Monaco should use (the
// session-scoped model URI; see package navigate). nil keeps URIs as they
// are.
type URIMapper func(serverURI string) string

// location is the union of Location and LocationLink.
type location struct {
	URI                  string          `json:"uri"`
	Range                *lsptypes.Range `json:"range"`
	TargetURI            string          `json:"targetUri"`
	TargetRange          *lsptypes.Range `json:"targetRange"`
	TargetSelectionRange *lsptypes.Range `json:"targetSelectionRange"`
	OriginSelectionRange *lsptypes.Range `json:"originSelectionRange"`
}

// LocationsResult turns a textDocument/definition result (Location,
// Location[], LocationLink[] or null) or a textDocument/references result
// (Location[] or null) into a JSON array of Monaco Location/LocationLink:
//
//	[{"uri":string,"range":IRange,"targetSelectionRange"?:IRange,"originSelectionRange"?:IRange}]
//
// uri is a string; the binding turns each into a Uri with
// monaco.Uri.parse after JSON.parse (a JS loop, no Go crossing).
func LocationsResult(raw json.RawMessage, mapURI URIMapper) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "[]", nil
	}
	var locs []location
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &locs); err != nil {
			return "", err
		}
	} else {
		locs = make([]location, 1)
		if err := json.Unmarshal(raw, &locs[0]); err != nil {
			return "", err
		}
	}
	b := append(make([]byte, 0, 16+len(locs)*160), '[')
	n := 0
	for i := range locs {
		l := &locs[i]
		uri, rng := l.URI, l.Range
		if l.TargetURI != "" { // LocationLink
			uri, rng = l.TargetURI, l.TargetRange
		}
		if uri == "" || rng == nil {
			continue
		}
		if mapURI != nil {
			uri = mapURI(uri)
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"uri":`...)
		b = appendString(b, uri)
		b = append(b, `,"range":`...)
		b = appendLSPRange(b, *rng)
		if l.TargetURI != "" && l.TargetSelectionRange != nil {
			b = append(b, `,"targetSelectionRange":`...)
			b = appendLSPRange(b, *l.TargetSelectionRange)
		}
		if l.OriginSelectionRange != nil {
			b = append(b, `,"originSelectionRange":`...)
			b = appendLSPRange(b, *l.OriginSelectionRange)
		}
		b = append(b, '}')
	}
	return string(append(b, ']')), nil
}

// SemanticTokensResult turns a textDocument/semanticTokens/full result
// into Monaco's SemanticTokens JSON, {"data":[...],"resultId"?:string}.
// data passes through without decoding. null, an absent or an empty data
// array all give a completed empty result {"data":[]}: returning null
// instead would make Monaco treat the request as failed and fetch again.
// The binding wraps data with new Uint32Array(r.data) after JSON.parse.
func SemanticTokensResult(raw json.RawMessage) (string, error) {
	// Scanned, not decoded: data can hold hundreds of thousands of numbers.
	s := scanner{b: raw}
	var resultID, data []byte
	switch s.peek() {
	case 0:
	case 'n':
		if !s.null() {
			s.fail()
		}
	case '{':
		for k, ok := s.objectStart(); ok; k, ok = s.nextKey() {
			switch string(k) {
			case `"resultId"`:
				resultID = s.strOrNull()
			case `"data"`:
				if s.peek() == '[' {
					data = s.value()
				} else {
					s.skip(0)
				}
			default:
				s.skip(0)
			}
		}
	default:
		s.fail()
	}
	if s.err != nil {
		return "", s.err
	}
	if data == nil {
		data = []byte("[]")
	}
	b := append(make([]byte, 0, len(data)+48), `{"data":`...)
	b = append(b, data...)
	if nonEmpty(resultID) {
		b = append(b, `,"resultId":`...)
		b = append(b, resultID...)
	}
	return string(append(b, '}')), nil
}

// LegendJSON is the legend for the binding's getLegend().
func LegendJSON(l Legend) string {
	b := append([]byte(nil), `{"tokenTypes":`...)
	b = appendStrings(b, nonNil(l.TokenTypes))
	b = append(b, `,"tokenModifiers":`...)
	b = appendStrings(b, nonNil(l.TokenModifiers))
	return string(append(b, '}'))
}

// ProvidersJSON tells the binding, in one string, which Monaco providers to
// register for a connection and language, with their options. Only
// advertised features appear:
//
//	{"completion":{"triggerCharacters":[...],"resolve":bool},
//	 "hover":{}, "definition":{}, "references":{},
//	 "signatureHelp":{"triggerCharacters":[...],"retriggerCharacters":[...]},
//	 "semanticTokens":{"legend":{"tokenTypes":[...],"tokenModifiers":[...]}}}
func ProvidersJSON(p Providers) string {
	b := append([]byte(nil), '{')
	if p.Set.Has(Completion) {
		b = appendKey(b, "completion")
		b = append(b, `{"triggerCharacters":`...)
		b = appendStrings(b, nonNil(p.CompletionTriggerCharacters))
		b = append(b, `,"resolve":`...)
		b = appendBool(b, p.CompletionResolve)
		b = append(b, '}')
	}
	for _, f := range []Feature{Hover, Definition, References} {
		if p.Set.Has(f) {
			b = appendKey(b, f.String())
			b = append(b, '{', '}')
		}
	}
	if p.Set.Has(SignatureHelp) {
		b = appendKey(b, "signatureHelp")
		b = append(b, `{"triggerCharacters":`...)
		b = appendStrings(b, nonNil(p.SignatureTriggerCharacters))
		b = append(b, `,"retriggerCharacters":`...)
		b = appendStrings(b, nonNil(p.SignatureRetriggerCharacters))
		b = append(b, '}')
	}
	if p.Set.Has(SemanticTokens) {
		b = appendKey(b, "semanticTokens")
		b = append(b, `{"legend":`...)
		b = append(b, LegendJSON(p.Legend)...)
		b = append(b, '}')
	}
	return string(append(b, '}'))
}

// MarkerOwner is the Monaco marker owner of one connection, so that its
// cleanup (monaco.editor.removeAllMarkers(owner)) touches no other
// connection's markers.
func MarkerOwner(sessionID, language string) string {
	return monaco.MarkerOwner + ":" + sessionID + ":" + language
}

// DiagnosticsResult turns textDocument/publishDiagnostics params into the
// server's document URI and the JSON array of Monaco markers for
// monaco.editor.setModelMarkers(model, MarkerOwner(...), markers); an empty
// list is "[]", which clears the model's markers.
func DiagnosticsResult(params json.RawMessage) (serverURI, markersJSON string, err error) {
	var p protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(params, &p); err != nil {
		return "", "", err
	}
	return string(p.URI), monaco.MarkersJSON(monaco.FromDiagnostics(p.Diagnostics)), nil
}
