package lsptypes

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// ErrMalformed reports a message that does not have the expected shape.
var ErrMalformed = errors.New("lsptypes: malformed message")

func parse(raw []byte) (j.Value, error) {
	v, err := j.Parse(raw)
	if err != nil {
		return j.Value{}, err
	}
	if !v.DecodeObject() {
		return j.Value{}, ErrMalformed
	}
	return v, nil
}

// ParseDiagnostic reads one Diagnostic; ok is false where encoding/json
// would fail.
func ParseDiagnostic(v j.Value) (Diagnostic, bool) { return parseDiagnostic(v) }

// diagnosticKeys are the members of a Diagnostic parseDiagnostic reads.
var diagnosticKeys = []string{"range", "severity", "code", "source", "message", "tags", "relatedInformation", "codeDescription"}

func parseDiagnostic(v j.Value) (Diagnostic, bool) {
	if !v.DecodeObject() {
		return Diagnostic{}, false
	}
	var d Diagnostic
	var ok [5]bool
	var f [8]j.Value // diagnosticKeys, in one walk of the object
	v.Lookup(diagnosticKeys, f[:])
	d.Range, ok[0] = ParseRange(f[0])
	sev, ok1 := f[1].DecodeInt(64)
	d.Severity, ok[1] = DiagnosticSeverity(sev), ok1
	d.Code = f[2].Raw()
	d.Source, ok[2] = f[3].DecodeString()
	if m := f[4]; m.Kind() == j.Object {
		// MarkupContent (LSP 3.18): its value, as plain text.
		kind, _ := m.Get("kind").DecodeString()
		value, vok := m.Get("value").Str()
		d.Message, ok[3] = diagnosticMessage(value, kind, true), vok
	} else {
		d.Message, ok[3] = m.DecodeString()
	}
	ok[4] = true
	// The details below are optional: one of the wrong shape is left out
	// rather than losing the diagnostic.
	// Most diagnostics have neither tags nor related information: no
	// iterator is made for those.
	if f[5].Kind() == j.Array {
		for _, t := range f[5].Elems() {
			if n, ok := t.Int(); ok {
				d.Tags = append(d.Tags, int(n))
			}
		}
	}
	if f[6].Kind() == j.Array {
		for _, r := range f[6].Elems() {
			loc, lok := ParseLocation(r.Get("location"))
			msg, mok := r.Get("message").DecodeString()
			if lok && mok {
				d.Related = append(d.Related, Related{Location: loc, Message: msg})
			}
		}
	}
	d.Href, _ = f[7].Get("href").DecodeString()
	d.Raw = append(j.Raw(nil), v.Raw()...) // a copy: the message buffer is not ours
	return d, ok == [5]bool{true, true, true, true, true}
}

// publishDiagnosticsKeys are the members ParsePublishDiagnosticsParams reads.
var publishDiagnosticsKeys = []string{"uri", "version", "diagnostics"}

// ParsePublishDiagnosticsParams decodes textDocument/publishDiagnostics
// params.
func ParsePublishDiagnosticsParams(raw []byte) (PublishDiagnosticsParams, error) {
	v, err := parse(raw)
	if err != nil {
		return PublishDiagnosticsParams{}, err
	}
	var p PublishDiagnosticsParams
	// One walk over the members: the diagnostics array may be most of
	// a megabyte, and each Get would walk past it.
	var f [3]j.Value
	v.Lookup(publishDiagnosticsKeys, f[:])
	uri, ok := f[0].DecodeString()
	if !ok {
		return PublishDiagnosticsParams{}, ErrMalformed
	}
	p.URI = uri
	if ver := f[1]; ver.Exists() && !ver.IsNull() {
		n, ok := ver.DecodeInt(32)
		if !ok {
			return PublishDiagnosticsParams{}, ErrMalformed
		}
		n32 := int32(n)
		p.Version = &n32
	}
	ds := f[2]
	if !ds.DecodeArray() {
		return PublishDiagnosticsParams{}, ErrMalformed
	}
	if ds.Kind() == j.Array {
		p.Diagnostics = make([]Diagnostic, 0, ds.Len())
		for _, e := range ds.Elems() {
			d, ok := parseDiagnostic(e)
			if !ok {
				return PublishDiagnosticsParams{}, ErrMalformed
			}
			p.Diagnostics = append(p.Diagnostics, d)
		}
	}
	return p, nil
}

// ParseConfigurationParams decodes workspace/configuration params.
func ParseConfigurationParams(raw []byte) (ConfigurationParams, error) {
	v, err := parse(raw)
	if err != nil {
		return ConfigurationParams{}, err
	}
	var p ConfigurationParams
	items := v.Get("items")
	if !items.DecodeArray() {
		return ConfigurationParams{}, ErrMalformed
	}
	if items.Kind() == j.Array {
		p.Items = []ConfigurationItem{}
		for _, e := range items.Elems() {
			scope, ok1 := e.Get("scopeUri").DecodeString()
			section, ok2 := e.Get("section").DecodeString()
			if !e.DecodeObject() || !ok1 || !ok2 {
				return ConfigurationParams{}, ErrMalformed
			}
			p.Items = append(p.Items, ConfigurationItem{ScopeURI: scope, Section: section})
		}
	}
	return p, nil
}

// ParseInitializeResult decodes the answer to initialize.
func ParseInitializeResult(raw []byte) (InitializeResult, error) {
	v, err := parse(raw)
	if err != nil {
		return InitializeResult{}, err
	}
	r := InitializeResult{Capabilities: v.Get("capabilities").Raw()}
	if si := v.Get("serverInfo"); si.Exists() && !si.IsNull() {
		name, ok1 := si.Get("name").DecodeString()
		version, ok2 := si.Get("version").DecodeString()
		if si.Kind() != j.Object || !ok1 || !ok2 {
			return InitializeResult{}, ErrMalformed
		}
		r.ServerInfo = &struct {
			Name    string `json:"name"`
			Version string `json:"version,omitempty"`
		}{Name: name, Version: version}
	}
	return r, nil
}

// AppendJSON appends p as JSON.
func (p InitializeParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"processId":`)
	if p.ProcessID == nil {
		b = j.AppendNull(b)
	} else {
		b = j.AppendInt(b, int64(*p.ProcessID))
	}
	if p.ClientInfo != nil {
		b = j.AppendLit(b, `,"clientInfo":{"name":`)
		b = j.AppendString(b, p.ClientInfo.Name)
		if p.ClientInfo.Version != "" {
			b = j.AppendLit(b, `,"version":`)
			b = j.AppendString(b, p.ClientInfo.Version)
		}
		b = append(b, '}')
	}
	b = j.AppendLit(b, `,"rootUri":`)
	b = j.AppendString(b, p.RootURI)
	b = j.AppendLit(b, `,"capabilities":`)
	b = p.Capabilities.AppendJSON(b)
	b = j.AppendLit(b, `,"workspaceFolders":`)
	b = AppendWorkspaceFolders(b, p.WorkspaceFolders)
	if len(p.WorkDoneToken) > 0 {
		b = j.AppendLit(b, `,"workDoneToken":`)
		b = append(b, p.WorkDoneToken...)
	}
	if len(p.InitializationOptions) > 0 {
		b = j.AppendLit(b, `,"initializationOptions":`)
		b = append(b, p.InitializationOptions...)
	}
	return append(b, '}')
}

// AppendWorkspaceFolders appends folders as a JSON array (null for nil):
// the initialize member and the answer to workspace/workspaceFolders.
func AppendWorkspaceFolders(b []byte, folders []WorkspaceFolder) []byte {
	if folders == nil {
		return j.AppendNull(b)
	}
	b = append(b, '[')
	for i, f := range folders {
		if i > 0 {
			b = append(b, ',')
		}
		b = j.AppendLit(b, `{"uri":`)
		b = j.AppendString(b, f.URI)
		b = j.AppendLit(b, `,"name":`)
		b = j.AppendString(b, f.Name)
		b = append(b, '}')
	}
	return append(b, ']')
}

// AppendJSON appends c as JSON.
func (c ClientCapabilities) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if w := c.Workspace; w != nil {
		b = j.AppendKey(b, "workspace")
		b = append(b, '{')
		if w.WorkspaceFolders {
			b = j.AppendBool(j.AppendKey(b, "workspaceFolders"), true)
		}
		if w.Configuration {
			b = j.AppendBool(j.AppendKey(b, "configuration"), true)
		}
		if d := w.DidChangeConfiguration; d != nil {
			b = append(j.AppendKey(b, "didChangeConfiguration"), '{')
			if d.DynamicRegistration {
				b = j.AppendBool(j.AppendKey(b, "dynamicRegistration"), true)
			}
			b = append(b, '}')
		}
		if len(w.More) > 0 {
			b = append(j.Sep(b), w.More...)
		}
		b = append(b, '}')
	}
	if len(c.TextDocument) > 0 {
		b = append(j.AppendKey(b, "textDocument"), c.TextDocument...)
	}
	if w := c.Window; w != nil {
		b = append(j.AppendKey(b, "window"), '{')
		if w.WorkDoneProgress {
			b = j.AppendBool(j.AppendKey(b, "workDoneProgress"), true)
		}
		if w.ShowDocument {
			b = append(j.AppendKey(b, "showDocument"), `{"support":true}`...)
		}
		b = append(b, '}')
	}
	if len(c.General) > 0 {
		b = append(j.AppendKey(b, "general"), c.General...)
	}
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p DidChangeConfigurationParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"settings":`)
	b = j.AppendRaw(b, p.Settings)
	return append(b, '}')
}
