// Package hierarchy maps the LSP requests a page asks for itself, rather
// than Monaco through a provider: symbols across the workspace (Go to
// Symbol in Workspace, workspace/symbol with workspaceSymbol/resolve) and
// call and type hierarchies (prepare, then incoming/outgoing calls or
// supertypes/subtypes). Monaco's standalone editor has no UI for these, so
// the page builds it (the demo: a symbol picker and a call-hierarchy
// panel) on the JS API this package's answers feed.
//
// It is pure Go. Each answer is one JSON string in the page's terms:
// model URIs instead of server file URIs, Monaco's one-based ranges and
// SymbolKind (LSP's minus one). An item carries what the next step needs
// back: "conn", the connection that produced it (the server that
// understands it), and "lsp", the server's own item as a JSON string, sent
// back unchanged (servers keep state in its data).
package hierarchy

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// Op is one request the page can make.
type Op struct {
	// Name is the op's name in the page's request.
	Name string
	// Method is the LSP request it sends.
	Method string
	// Capability is the server capability that offers it, and Register
	// the client/registerCapability method that registers it.
	Capability, Register string
	// Item: the request is about an item of an earlier answer (its conn
	// and lsp members), not a position in a model.
	Item bool
	// result maps the server's answer.
	result func(b []byte, v j.Value, conn string, mapURI func(string) string) []byte
}

// The ops, by name.
var ops = []Op{
	{Name: "workspaceSymbols", Method: "workspace/symbol", Capability: "workspaceSymbolProvider", Register: "workspace/symbol", result: symbols},
	{Name: "resolveWorkspaceSymbol", Method: "workspaceSymbol/resolve", Capability: "workspaceSymbolProvider", Register: "workspace/symbol", Item: true, result: symbol},
	{Name: "callHierarchy", Method: "textDocument/prepareCallHierarchy", Capability: "callHierarchyProvider", Register: "textDocument/prepareCallHierarchy", result: items},
	{Name: "incomingCalls", Method: "callHierarchy/incomingCalls", Capability: "callHierarchyProvider", Register: "textDocument/prepareCallHierarchy", Item: true, result: calls("from")},
	{Name: "outgoingCalls", Method: "callHierarchy/outgoingCalls", Capability: "callHierarchyProvider", Register: "textDocument/prepareCallHierarchy", Item: true, result: calls("to")},
	{Name: "typeHierarchy", Method: "textDocument/prepareTypeHierarchy", Capability: "typeHierarchyProvider", Register: "textDocument/prepareTypeHierarchy", result: items},
	{Name: "supertypes", Method: "typeHierarchy/supertypes", Capability: "typeHierarchyProvider", Register: "textDocument/prepareTypeHierarchy", Item: true, result: items},
	{Name: "subtypes", Method: "typeHierarchy/subtypes", Capability: "typeHierarchyProvider", Register: "textDocument/prepareTypeHierarchy", Item: true, result: items},
}

// Lookup returns the op named name.
func Lookup(name string) (Op, bool) {
	for _, o := range ops {
		if o.Name == name {
			return o, true
		}
	}
	return Op{}, false
}

// Methods lists the LSP requests of every op, for the client's capability
// documentation and tests.
func Methods() []string {
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = o.Method
	}
	return out
}

// Request is the page's request:
//
//	{"op","model","lineNumber","column"}  prepare a hierarchy at a position
//	{"op":"workspaceSymbols","model","query"}  the model's server, searched
//	{"op","item":{"conn","lsp",…}}          a step from an earlier item
type Request struct {
	Op     Op
	Model  string
	Line   uint32 // one-based, as Monaco's
	Column uint32
	Query  string
	// Conn and LSP are the item's: the connection to ask, and its LSP
	// object (raw JSON).
	Conn string
	LSP  j.Raw
}

// ErrBadRequest reports a request of the wrong shape or an unknown op.
var ErrBadRequest = errors.New("hierarchy: malformed request")

// ParseRequest reads the page's request.
func ParseRequest(js string) (Request, error) {
	v, err := j.Parse([]byte(js))
	if err != nil || v.Kind() != j.Object {
		return Request{}, ErrBadRequest
	}
	name, _ := v.Get("op").Str()
	op, ok := Lookup(name)
	if !ok {
		return Request{}, ErrBadRequest
	}
	r := Request{Op: op}
	if op.Item {
		it := v.Get("item")
		conn, ok1 := it.Get("conn").Str()
		lsp, ok2 := it.Get("lsp").Str()
		if !ok1 || !ok2 || !j.Valid([]byte(lsp)) {
			return Request{}, ErrBadRequest
		}
		r.Conn, r.LSP = conn, j.Raw(lsp)
		return r, nil
	}
	var ok1 bool
	r.Model, ok1 = v.Get("model").Str()
	if !ok1 || r.Model == "" {
		return Request{}, ErrBadRequest
	}
	if op.Name == "workspaceSymbols" {
		r.Query, _ = v.Get("query").Str()
		return r, nil
	}
	line, ok2 := v.Get("lineNumber").Uint()
	col, ok3 := v.Get("column").Uint()
	if !ok2 || !ok3 || line < 1 || col < 1 {
		return Request{}, ErrBadRequest
	}
	r.Line, r.Column = uint32(line), uint32(col)
	return r, nil
}

// Params are the request's LSP params; docURI is the server's URI of the
// model (unused for item steps and workspace symbols).
func (r Request) Params(docURI string) j.Raw {
	switch {
	case r.Op.Item && r.Op.Name == "resolveWorkspaceSymbol":
		return r.LSP
	case r.Op.Item:
		return j.Raw(append(append([]byte(`{"item":`), r.LSP...), '}'))
	case r.Op.Name == "workspaceSymbols":
		return j.Raw(append(j.AppendString([]byte(`{"query":`), r.Query), '}'))
	}
	b := j.AppendString([]byte(`{"textDocument":{"uri":`), docURI)
	b = j.AppendLit(b, `},"position":{"line":`)
	b = j.AppendUint(b, uint64(r.Line-1))
	b = j.AppendLit(b, `,"character":`)
	b = j.AppendUint(b, uint64(r.Column-1))
	return j.Raw(j.AppendLit(b, `}}`))
}

// Result maps the server's answer to r into the page's JSON; conn is the
// connection that asked and mapURI turns server URIs into model URIs. null
// is an empty list ("null" for resolve).
func Result(r Request, raw []byte, conn string, mapURI func(string) string) (string, error) {
	if len(raw) == 0 || j.Raw(raw).IsNull() {
		if r.Op.Name == "resolveWorkspaceSymbol" {
			return "null", nil
		}
		return "[]", nil
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	return string(r.Op.result(nil, v, conn, mapURI)), nil
}

// items maps CallHierarchyItem[] or TypeHierarchyItem[].
func items(b []byte, v j.Value, conn string, mapURI func(string) string) []byte {
	return list(b, v, func(e j.Value) []byte { return item(nil, e, conn, mapURI) })
}

// list appends a JSON array of each element of v mapped by one, leaving
// out the elements one maps to nothing (malformed ones).
func list(b []byte, v j.Value, one func(j.Value) []byte) []byte {
	b = append(b, '[')
	first := true
	for _, e := range v.Elems() {
		m := one(e)
		if len(m) == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, m...)
	}
	return append(b, ']')
}

// item appends one hierarchy item; one without a name, kind, uri or
// ranges is left out.
func item(b []byte, v j.Value, conn string, mapURI func(string) string) []byte {
	name, ok1 := v.Get("name").Str()
	kind, ok2 := v.Get("kind").Uint()
	uri, ok3 := v.Get("uri").Str()
	rng, ok4 := lsptypes.ParseRange(v.Get("range"))
	sel, ok5 := lsptypes.ParseRange(v.Get("selectionRange"))
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || kind < 1 || kind > 26 || !v.Get("range").Exists() || !v.Get("selectionRange").Exists() {
		return b
	}
	b = j.AppendString(j.AppendLit(b, `{"name":`), name)
	b = j.AppendUint(j.AppendLit(b, `,"kind":`), kind-1)
	if d, _ := v.Get("detail").Str(); d != "" {
		b = j.AppendString(j.AppendLit(b, `,"detail":`), d)
	}
	b = appendTags(b, v.Get("tags"))
	b = j.AppendString(j.AppendLit(b, `,"model":`), mapURI(uri))
	b = monaco.AppendRange(j.AppendLit(b, `,"range":`), rng)
	b = monaco.AppendRange(j.AppendLit(b, `,"selectionRange":`), sel)
	b = j.AppendString(j.AppendLit(b, `,"conn":`), conn)
	b = j.AppendString(j.AppendLit(b, `,"lsp":`), string(v.Raw()))
	return append(b, '}')
}

// calls maps CallHierarchyIncomingCall[] (key "from") or
// CallHierarchyOutgoingCall[] (key "to"): the other item and the ranges
// of the calls, in the caller.
func calls(key string) func([]byte, j.Value, string, func(string) string) []byte {
	return func(b []byte, v j.Value, conn string, mapURI func(string) string) []byte {
		b = append(b, '[')
		first := true
		for _, c := range v.Elems() {
			it := item(nil, c.Get(key), conn, mapURI)
			if len(it) == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(append(append(j.AppendLit(b, `{"`), key...), `":`...), it...)
			b = j.AppendLit(b, `,"fromRanges":[`)
			k := 0
			for _, r := range c.Get("fromRanges").Elems() {
				if rr, ok := lsptypes.ParseRange(r); ok && r.Exists() {
					if k > 0 {
						b = append(b, ',')
					}
					b = monaco.AppendRange(b, rr)
					k++
				}
			}
			b = j.AppendLit(b, `]}`)
		}
		return append(b, ']')
	}
}

// symbols maps SymbolInformation[] or WorkspaceSymbol[].
func symbols(b []byte, v j.Value, conn string, mapURI func(string) string) []byte {
	return list(b, v, func(e j.Value) []byte {
		if one := symbol(nil, e, conn, mapURI); string(one) != "null" {
			return one
		}
		return nil
	})
}

// symbol maps one SymbolInformation or WorkspaceSymbol:
// {"name","kind","containerName"?,"tags","model","range"?,"conn","lsp"}.
// A WorkspaceSymbol whose location has no range (the server fills it in
// on workspaceSymbol/resolve) has no "range": the page resolves it when
// the user picks it. Anything malformed is null.
func symbol(b []byte, v j.Value, conn string, mapURI func(string) string) []byte {
	name, ok1 := v.Get("name").Str()
	kind, ok2 := v.Get("kind").Uint()
	loc := v.Get("location")
	uri, ok3 := loc.Get("uri").Str()
	if !ok1 || !ok2 || !ok3 || kind < 1 || kind > 26 {
		return j.AppendLit(b, "null")
	}
	b = j.AppendString(j.AppendLit(b, `{"name":`), name)
	b = j.AppendUint(j.AppendLit(b, `,"kind":`), kind-1)
	if c, _ := v.Get("containerName").Str(); c != "" {
		b = j.AppendString(j.AppendLit(b, `,"containerName":`), c)
	}
	b = appendTags(b, v.Get("tags"))
	b = j.AppendString(j.AppendLit(b, `,"model":`), mapURI(uri))
	if r := loc.Get("range"); r.Exists() {
		if rr, ok := lsptypes.ParseRange(r); ok {
			b = monaco.AppendRange(j.AppendLit(b, `,"range":`), rr)
		}
	}
	b = j.AppendString(j.AppendLit(b, `,"conn":`), conn)
	b = j.AppendString(j.AppendLit(b, `,"lsp":`), string(v.Raw()))
	return append(b, '}')
}

// appendTags appends ,"tags":[…] with the numeric tags (SymbolTag 1:
// deprecated, Monaco's number too).
func appendTags(b []byte, v j.Value) []byte {
	b = j.AppendLit(b, `,"tags":[`)
	k := 0
	for _, t := range v.Elems() {
		if n, ok := t.Uint(); ok {
			if k > 0 {
				b = append(b, ',')
			}
			b = j.AppendUint(b, n)
			k++
		}
	}
	return append(b, ']')
}
