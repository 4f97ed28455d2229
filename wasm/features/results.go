package features

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// ParsePositionRequest decodes the binding's position request JSON.
func ParsePositionRequest(js string) (PositionRequest, error) {
	v, err := parseRequest(js)
	if err != nil {
		return PositionRequest{}, err
	}
	r, ok := parsePositionRequest(v)
	if !ok {
		return PositionRequest{}, errRequest
	}
	return r, nil
}

// ParseCompletionRequest decodes the binding's completion request JSON.
func ParseCompletionRequest(js string) (CompletionRequest, error) {
	v, err := parseRequest(js)
	if err != nil {
		return CompletionRequest{}, err
	}
	var r CompletionRequest
	var ok [5]bool
	r.PositionRequest, ok[0] = parsePositionRequest(v)
	ws, ok1 := v.Get("wordStart").DecodeUint(32)
	we, ok2 := v.Get("wordEnd").DecodeUint(32)
	tk, ok3 := v.Get("triggerKind").DecodeInt(64)
	r.TriggerCharacter, ok[4] = v.Get("triggerCharacter").DecodeString()
	ok[1], ok[2], ok[3] = ok1, ok2, ok3
	if ok != [5]bool{true, true, true, true, true} {
		return CompletionRequest{}, errRequest
	}
	r.WordStart, r.WordEnd, r.TriggerKind = uint32(ws), uint32(we), int(tk)
	return r, nil
}

// errRequest reports a binding request JSON of the wrong shape.
var errRequest = errors.New("features: malformed request from the binding")

// parseRequest parses a binding request, which must be an object (or null,
// which encoding/json decodes as the zero request).
func parseRequest(js string) (j.Value, error) {
	v, err := j.Parse([]byte(js))
	if err != nil {
		return j.Value{}, err
	}
	if !v.DecodeObject() {
		return j.Value{}, errRequest
	}
	return v, nil
}

func parsePositionRequest(v j.Value) (PositionRequest, bool) {
	uri, ok1 := v.Get("uri").DecodeString()
	line, ok2 := v.Get("lineNumber").DecodeUint(32)
	col, ok3 := v.Get("column").DecodeUint(32)
	return PositionRequest{URI: uri, LineNumber: uint32(line), Column: uint32(col)}, ok1 && ok2 && ok3
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

// AppendJSON appends p as JSON.
func (p ReferenceParams) AppendJSON(b []byte) []byte {
	b = append(b, `{"textDocument":`...)
	b = p.TextDocument.AppendJSON(b)
	b = append(b, `,"position":`...)
	b = p.Position.AppendJSON(b)
	b = append(b, `,"context":{"includeDeclaration":`...)
	b = appendBool(b, p.Context.IncludeDeclaration)
	return append(b, '}', '}')
}

// AppendJSON appends p as JSON.
func (p SemanticTokensParams) AppendJSON(b []byte) []byte {
	b = append(b, `{"textDocument":`...)
	b = p.TextDocument.AppendJSON(b)
	return append(b, '}')
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
func HoverResult(raw []byte) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "null", nil
	}
	h, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	if !h.DecodeObject() {
		return "", errSyntax
	}
	var hr *lsptypes.Range
	if r := h.Get("range"); r.Exists() && !r.IsNull() {
		lr, ok := lsptypes.ParseRange(r)
		if !ok {
			return "", errSyntax
		}
		hr = &lr
	}
	var parts [][]byte
	if c := h.Get("contents"); c.Kind() == j.Array {
		for _, p := range c.Elems() {
			parts = append(parts, p.Raw())
		}
	} else {
		parts = [][]byte{c.Raw()}
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
	if hr != nil {
		b = append(b, `,"range":`...)
		b = appendLSPRange(b, *hr)
	}
	return string(append(b, '}')), nil
}

// URIMapper maps a server's target URI to the URI Monaco should use (the
// session-scoped model URI; see package navigate). nil keeps URIs as they
// are.
type URIMapper func(serverURI string) string

// location is the union of Location and LocationLink.
type location struct {
	_                    [0]func()       // incomparable: spares lsp.wasm an equality function
	URI                  string          `json:"uri"`
	Range                *lsptypes.Range `json:"range"`
	TargetURI            string          `json:"targetUri"`
	TargetRange          *lsptypes.Range `json:"targetRange"`
	TargetSelectionRange *lsptypes.Range `json:"targetSelectionRange"`
	OriginSelectionRange *lsptypes.Range `json:"originSelectionRange"`
}

// parseLocation reads a location as encoding/json would decode it: an
// object (or null, the zero location) whose members have the right types.
func parseLocation(v j.Value) (location, bool) {
	if !v.DecodeObject() {
		return location{}, false
	}
	var l location
	var ok1, ok2 bool
	l.URI, ok1 = v.Get("uri").DecodeString()
	l.TargetURI, ok2 = v.Get("targetUri").DecodeString()
	if !ok1 || !ok2 {
		return location{}, false
	}
	for _, f := range []struct {
		key string
		dst **lsptypes.Range
	}{
		{"range", &l.Range},
		{"targetRange", &l.TargetRange},
		{"targetSelectionRange", &l.TargetSelectionRange},
		{"originSelectionRange", &l.OriginSelectionRange},
	} {
		r := v.Get(f.key)
		if !r.Exists() || r.IsNull() {
			continue
		}
		lr, ok := lsptypes.ParseRange(r)
		if !ok {
			return location{}, false
		}
		*f.dst = &lr
	}
	return l, true
}

// LocationsResult turns a textDocument/definition result (Location,
// Location[], LocationLink[] or null) or a textDocument/references result
// (Location[] or null) into a JSON array of Monaco Location/LocationLink:
//
//	[{"uri":string,"range":IRange,"targetSelectionRange"?:IRange,"originSelectionRange"?:IRange}]
//
// uri is a string; the binding turns each into a Uri with
// monaco.Uri.parse after JSON.parse (a JS loop, no Go crossing).
func LocationsResult(raw []byte, mapURI URIMapper) (string, error) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "[]", nil
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	var locs []location
	if v.Kind() == j.Array {
		for _, e := range v.Elems() {
			l, ok := parseLocation(e)
			if !ok {
				return "", errSyntax
			}
			locs = append(locs, l)
		}
	} else {
		l, ok := parseLocation(v)
		if !ok {
			return "", errSyntax
		}
		locs = []location{l}
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

// SemanticTokensResult turns a textDocument/semanticTokens/full, /range or
// /full/delta result into Monaco's SemanticTokens JSON,
// {"data":[...],"resultId"?:string}, or for a delta Monaco's
// SemanticTokensEdits, {"edits":[{"start","deleteCount","data"?}],
// "resultId"?:string} (the shim sorts the edits by start: Monaco applies
// them back to front). data and edits pass through without decoding. null,
// an absent or an empty data array all give a completed empty result
// {"data":[]}: returning null instead would make Monaco treat the request
// as failed and fetch again. The binding wraps every data with new
// Uint32Array(data) after JSON.parse.
func SemanticTokensResult(raw []byte) (string, error) {
	// Scanned, not decoded: data can hold hundreds of thousands of numbers.
	s := scanner{b: raw}
	var resultID, data, edits []byte
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
			case `"data"`, `"edits"`:
				switch {
				case s.peek() != '[':
					s.skip(0)
				case string(k) == `"data"`:
					data = s.value()
				default:
					edits = s.value()
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
	b := make([]byte, 0, len(data)+len(edits)+48)
	if data == nil && edits != nil {
		b = append(append(b, `{"edits":`...), edits...)
	} else {
		if data == nil {
			data = []byte("[]")
		}
		b = append(append(b, `{"data":`...), data...)
	}
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
func DiagnosticsResult(params []byte) (serverURI, markersJSON string, err error) {
	p, err := lsptypes.ParsePublishDiagnosticsParams(params)
	if err != nil {
		return "", "", err
	}
	return string(p.URI), monaco.MarkersJSON(monaco.FromDiagnostics(p.Diagnostics, nil)), nil
}
