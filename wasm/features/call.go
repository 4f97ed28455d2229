package features

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Request is one call from the binding's shim: the JSON it built from
// Monaco's provider arguments, always with the model's "uri", and the
// members each call reads ("lineNumber"/"column", "range", "options"...).
type Request struct {
	URI string
	v   j.Value
}

// ParseRequest decodes a binding request: an object with a string "uri".
func ParseRequest(js string) (Request, error) {
	v, err := parseRequest(js)
	if err != nil {
		return Request{}, err
	}
	uri, ok := v.Get("uri").DecodeString()
	if !ok || uri == "" {
		return Request{}, errRequest
	}
	return Request{URI: uri, v: v}, nil
}

// Env is what a call needs from the connection that runs it. The client
// fills it per call; tests fill it with fakes.
type Env struct {
	// DocURI is the server's URI of the document (clean file://), and
	// Version the version the server holds (pending edits sent).
	DocURI  string
	Version int32
	// Providers are the server's providers for the document's language.
	Providers Providers
	// MapURI maps server URIs to model URIs.
	MapURI URIMapper
	// Diagnostics are the server's last published diagnostics of the
	// document, raw JSON kept.
	Diagnostics []lsptypes.Diagnostic
	// Call sends a request to the server and returns its raw result.
	Call func(method string, params j.Appender) (j.Raw, error)
	// Apply applies a WorkspaceEdit (raw LSP JSON) and reports whether it
	// was applied, or why not.
	Apply func(edit j.Raw) (applied bool, reason string)
	// Keep stores a raw result for a later resolve call and returns its
	// key; Kept returns it again (nil once forgotten).
	Keep func(raw []byte) int
	Kept func(key int) []byte
}

// call is one kind of call the shim makes: a provider method, or a step
// after one (resolve, apply). Providers send method with params built by
// params and answer result's mapping; run replaces that for calls that need
// several steps.
type call struct {
	name   string
	f      Feature // the capability that must be in force
	method string
	params func(r *Request, e *Env) (j.Appender, error)
	result func(raw []byte, r *Request, e *Env) (string, error)
	run    func(r *Request, e *Env) (string, error)
}

// Call is a call kind of the binding, found by name.
type Call struct{ c *call }

// Lookup returns the call named as the shim names it: a feature's name
// (Feature.String) or a step such as "completionResolve".
func Lookup(name string) (Call, bool) {
	for i := range table {
		if table[i].name == name {
			return Call{&table[i].call}, true
		}
	}
	for i := range steps {
		if steps[i].name == name {
			return Call{&steps[i]}, true
		}
	}
	return Call{}, false
}

// Feature is the feature whose capability guards the call.
func (c Call) Feature() Feature { return c.c.f }

// Name is the call's name.
func (c Call) Name() string { return c.c.name }

// Run performs the call for the request in env: the server request and
// the mapping of its answer to Monaco's JSON. A server error is returned
// as it is (the client logs it and answers null), except where the call
// turns it into Monaco's own shape (a rename's reject reason).
func (c Call) Run(r *Request, e *Env) (string, error) {
	if c.c.run != nil {
		return c.c.run(r, e)
	}
	var p j.Appender = j.Raw(nil)
	if c.c.params != nil {
		var err error
		if p, err = c.c.params(r, e); err != nil {
			return "", err
		}
	} else {
		p = docParams(e.DocURI)
	}
	raw, err := e.Call(c.c.method, p)
	if err != nil {
		return "", err
	}
	out, err := c.c.result(raw, r, e)
	if err != nil {
		return "", errors.Join(ErrMalformedAnswer, err)
	}
	return out, nil
}

// ErrMalformedAnswer marks an answer the server sent in the wrong shape.
var ErrMalformedAnswer = errors.New("malformed answer")

// docParams is {"textDocument":{"uri":uri}}, the params of every request
// about a whole document.
func docParams(uri string) j.Raw {
	return append(appendDoc(nil, uri), '}')
}

// appendDoc opens params with {"textDocument":{"uri":uri}; the caller adds
// members and the closing brace.
func appendDoc(b []byte, uri string) []byte {
	b = append(b, `{"textDocument":{"uri":`...)
	b = appendString(b, uri)
	return append(b, '}')
}

// position reads the request's Monaco position as an LSP position.
func (r *Request) position() (lsptypes.Position, bool) {
	p, ok := parsePositionRequest(r.v)
	return p.LSPPosition(), ok
}

// appendPosParams appends {"textDocument":…,"position":…; the caller adds
// members and the closing brace.
func (r *Request) appendPosParams(b []byte, e *Env) ([]byte, error) {
	p, ok := r.position()
	if !ok {
		return nil, errRequest
	}
	b = append(appendDoc(b, e.DocURI), `,"position":`...)
	return p.AppendJSON(b), nil
}

// lspParams is the params the shim built in LSP's own form ("params": an
// object, the server's document left out), with the document added: for
// calls whose Monaco arguments take no more than subtracting one from line
// numbers and columns, which costs less in the shim than in lsp.wasm.
func lspParams(r *Request, e *Env) (j.Appender, error) {
	p := r.v.Get("params")
	if p.Kind() != j.Object || p.Len() == 0 {
		return nil, errRequest
	}
	return j.Raw(append(append(appendDoc(nil, e.DocURI), ','), p.Raw()[1:]...)), nil
}

// posParams is TextDocumentPositionParams.
func posParams(r *Request, e *Env) (j.Appender, error) {
	b, err := r.appendPosParams(nil, e)
	return j.Raw(append(b, '}')), err
}

// monacoRange reads a Monaco IRange member as an LSP range.
func (r *Request) monacoRange(key string) (lsptypes.Range, bool) {
	return monacoRangeOf(r.v.Get(key))
}

// monacoRangeOf reads a Monaco IRange as an LSP range.
func monacoRangeOf(v j.Value) (lsptypes.Range, bool) {
	var n [4]uint64
	for i, k := range [4]string{"startLineNumber", "startColumn", "endLineNumber", "endColumn"} {
		u, ok := v.Get(k).Uint()
		if !ok {
			return lsptypes.Range{}, false
		}
		n[i] = u
	}
	return lsptypes.Range{
		Start: lsptypes.Position{Line: dec(uint32(n[0])), Character: dec(uint32(n[1]))},
		End:   lsptypes.Position{Line: dec(uint32(n[2])), Character: dec(uint32(n[3]))},
	}, true
}

// nullish reports an absent or null result.
func nullish(raw []byte) bool {
	raw = trimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// mapArray appends a JSON array of each element of the result array,
// written by each (which may skip an element by returning b unchanged). A
// null result is an empty array; anything else but an array is an error.
func mapArray(b []byte, raw []byte, each func(b []byte, v j.Value) []byte) ([]byte, error) {
	b = append(b, '[')
	if nullish(raw) {
		return append(b, ']'), nil
	}
	v, err := j.Parse(raw)
	if err != nil {
		return nil, err
	}
	if v.Kind() != j.Array {
		return nil, errSyntax
	}
	start := len(b)
	for _, e := range v.Elems() {
		n := len(b)
		if n > start {
			b = append(b, ',')
		}
		if out := each(b, e); len(out) > len(b) {
			b = out
		} else {
			b = b[:n]
		}
	}
	return append(b, ']'), nil
}

// appendRangeOf appends the LSP range v as a Monaco IRange; ok is false
// when v is no range.
func appendRangeOf(b []byte, v j.Value) ([]byte, bool) {
	r, ok := lsptypes.ParseRange(v)
	if !ok || !v.Exists() {
		return b, false
	}
	return appendLSPRange(b, r), true
}

// appendMember copies member key of v as it is (a raw JSON value) under
// the name out, when it is present and not null.
func appendMember(b []byte, v j.Value, key, out string) []byte {
	m := v.Get(key)
	if !m.Exists() || m.IsNull() {
		return b
	}
	b = appendKey(b, out)
	return append(b, m.Raw()...)
}

// appendEdits appends LSP TextEdits (or AnnotatedTextEdits) as Monaco's
// TextEdit[] ({range, text}); edits of the wrong shape are left out.
func appendEdits(b []byte, raw []byte) ([]byte, error) {
	return mapArray(b, raw, appendEdit)
}

// appendEdit appends one edit; an LSP 3.18 SnippetTextEdit (a "snippet"
// StringValue instead of newText) keeps its snippet beside the text it
// reads as, so the binding can run it as a snippet where an editor shows
// the file and apply the text elsewhere.
func appendEdit(b []byte, v j.Value) []byte {
	text, ok := v.Get("newText").DecodeString()
	snippet, isSnippet := "", false
	if sv := v.Get("snippet"); !v.Get("newText").Exists() {
		if k, _ := sv.Get("kind").Str(); k == "snippet" && sv.Kind() == j.Object {
			snippet, isSnippet = sv.Get("value").Str()
			text = SnippetText(snippet)
		}
		ok = isSnippet
	}
	if !ok || v.Kind() != j.Object {
		return b
	}
	b = append(b, `{"range":`...)
	b, ok = appendRangeOf(b, v.Get("range"))
	if !ok {
		return b[:0]
	}
	b = append(b, `,"text":`...)
	b = appendString(b, text)
	if isSnippet {
		b = appendString(append(b, `,"snippet":`...), snippet)
	}
	return append(b, '}')
}
