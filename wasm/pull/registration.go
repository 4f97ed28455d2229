package pull

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// LSP methods of pull diagnostics.
const (
	// MethodDocument is the request for one document's diagnostics.
	MethodDocument = "textDocument/diagnostic"
	// MethodRefresh is the server's request to pull every open document
	// again (its configuration or the workspace changed).
	MethodRefresh = "workspace/diagnostic/refresh"
)

// errMalformed reports capabilities or registration params of the wrong
// shape.
var errMalformed = errors.New("pull: malformed diagnostic registration")

// Registration is one diagnostic provider of a server: the static
// diagnosticProvider capability (ID "" unless the options carry an id) or
// one client/registerCapability entry for textDocument/diagnostic.
type Registration struct {
	// ID is the registration id, "" for a static provider without one.
	ID string
	// Identifier is the server's name for this set of diagnostics, sent
	// back with every pull; "" when the server gave none.
	Identifier string
	// InterFileDependencies: a change in one document may change another's
	// diagnostics, so every other open document is pulled after a change.
	InterFileDependencies bool
	// WorkspaceDiagnostics: the server also answers workspace/diagnostic.
	WorkspaceDiagnostics bool
	// Selector is the registration's documentSelector (absent or null:
	// every document of the connection).
	Selector j.Raw
}

// Set names the marker set the registration's diagnostics are kept in:
// apart from pushed diagnostics (set "") and from every other
// registration, so that one replacing its own never clears another's.
func (r Registration) Set() string {
	return "pull\x00" + r.ID + "\x00" + r.Identifier
}

// ParseStatic reads the diagnosticProvider member of a server's initialize
// capabilities; ok is false when the server does not offer pull
// diagnostics (absent, null, false, or not an object).
func ParseStatic(capabilities []byte) (r Registration, ok bool) {
	c, err := j.Parse(capabilities)
	if err != nil || c.Kind() != j.Object {
		return Registration{}, false
	}
	o := c.Get("diagnosticProvider")
	if o.Kind() != j.Object {
		return Registration{}, false
	}
	r, ok = parseOptions(o)
	if ok {
		r.ID, _ = o.Get("id").DecodeString()
	}
	return r, ok
}

// parseOptions reads DiagnosticOptions (or DiagnosticRegistrationOptions).
func parseOptions(o j.Value) (Registration, bool) {
	var r Registration
	var ok [3]bool
	r.Identifier, ok[0] = o.Get("identifier").DecodeString()
	r.InterFileDependencies, ok[1] = o.Get("interFileDependencies").DecodeBool()
	r.WorkspaceDiagnostics, ok[2] = o.Get("workspaceDiagnostics").DecodeBool()
	if ok != [3]bool{true, true, true} {
		return Registration{}, false
	}
	if sel := o.Get("documentSelector"); sel.Exists() && !sel.IsNull() {
		r.Selector = append(j.Raw(nil), sel.Raw()...)
	}
	return r, true
}

// ParseRegister returns the textDocument/diagnostic entries of
// client/registerCapability params; other methods are not this package's.
func ParseRegister(params []byte) ([]Registration, error) {
	p, err := j.Parse(params)
	if err != nil {
		return nil, err
	}
	regs := p.Get("registrations")
	if p.Kind() != j.Object || regs.Kind() != j.Array {
		return nil, errMalformed
	}
	var out []Registration
	for _, e := range regs.Elems() {
		if m, _ := e.Get("method").DecodeString(); m != MethodDocument {
			continue
		}
		id, ok := e.Get("id").Str()
		if !ok || e.Kind() != j.Object {
			return nil, errMalformed
		}
		r := Registration{}
		if o := e.Get("registerOptions"); o.Kind() == j.Object {
			if r, ok = parseOptions(o); !ok {
				return nil, errMalformed
			}
		}
		r.ID = id
		out = append(out, r)
	}
	return out, nil
}

// ParseUnregister returns the ids of client/unregisterCapability params
// that name textDocument/diagnostic (the array is misspelled
// "unregisterations" in LSP 3.17; both spellings are read).
func ParseUnregister(params []byte) ([]string, error) {
	p, err := j.Parse(params)
	if err != nil {
		return nil, err
	}
	if p.Kind() != j.Object {
		return nil, errMalformed
	}
	var ids []string
	for _, key := range []string{"unregisterations", "unregistrations"} {
		for _, e := range p.Get(key).Elems() {
			if m, _ := e.Get("method").DecodeString(); m != MethodDocument {
				continue
			}
			if id, ok := e.Get("id").DecodeString(); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}
