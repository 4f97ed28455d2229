package lsptypes

import (
	"bytes"
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
func ParseDiagnostic(v j.Value) (Diagnostic, bool) {
	r := v.Reader()
	d, ok := readDiagnostic(&r, nil)
	d.Raw = append(j.Raw(nil), d.Raw...) // a copy: the message buffer is not ours
	return d, ok
}

// readDiagnostic reads a Diagnostic in one walk over its bytes: a big
// publishDiagnostics holds thousands. Its Raw shares the reader's bytes.
// prev, the list's diagnostic before it, lends its strings where they
// repeat: a long list has one source and one code link throughout.
func readDiagnostic(r *j.Reader, prev *Diagnostic) (Diagnostic, bool) {
	if prev == nil {
		prev = &Diagnostic{}
	}
	start := r.Start()
	if !r.Object() {
		// null is a zero diagnostic, as encoding/json decodes it; any
		// other kind fails.
		v := r.Value()
		return Diagnostic{Raw: v.Raw()}, v.DecodeObject()
	}
	var d Diagnostic
	// A member that repeats counts as its last occurrence, as with
	// encoding/json; a missing one decodes as its zero value.
	rangeOK, sevOK, sourceOK, messageOK := true, true, true, true
	for key, more := r.Member(); more; key, more = r.Member() {
		switch key {
		case "range":
			d.Range, rangeOK = readRange(r)
		case "severity":
			sev, ok := r.Value().DecodeInt(64)
			d.Severity, sevOK = DiagnosticSeverity(sev), ok
		case "code":
			d.Code = r.Value().Raw()
		case "source":
			d.Source, sourceOK = decodeAgain(r.Value(), prev.Source)
		case "message":
			if m := r.Value(); m.Kind() == j.Object {
				// MarkupContent (LSP 3.18): its value, as plain text.
				kind, _ := m.Get("kind").DecodeString()
				value, vok := m.Get("value").Str()
				d.Message, messageOK = diagnosticMessage(value, kind, true), vok
			} else {
				d.Message, messageOK = m.DecodeString()
			}
		// The details below are optional: one of the wrong shape is left
		// out rather than losing the diagnostic.
		case "tags":
			d.Tags = nil
			if v := r.Value(); v.Kind() == j.Array {
				for _, t := range v.Elems() {
					if n, ok := t.Int(); ok {
						d.Tags = append(d.Tags, int(n))
					}
				}
			}
		case "relatedInformation":
			d.Related = nil
			if v := r.Value(); v.Kind() == j.Array {
				for _, e := range v.Elems() {
					loc, lok := ParseLocation(e.Get("location"))
					msg, mok := e.Get("message").DecodeString()
					if lok && mok {
						d.Related = append(d.Related, Related{Location: loc, Message: msg})
					}
				}
			}
		case "codeDescription":
			d.Href, _ = decodeAgain(r.Value().Get("href"), prev.Href)
		default:
			r.Value()
		}
	}
	d.Raw = r.Since(start)
	return d, rangeOK && sevOK && sourceOK && messageOK
}

// readRange reads a Range where it stands, as ParseRange would.
func readRange(r *j.Reader) (Range, bool) {
	if !r.Object() {
		return Range{}, r.Value().DecodeObject()
	}
	var rg Range
	startOK, endOK := true, true
	for key, more := r.Member(); more; key, more = r.Member() {
		switch key {
		case "start":
			rg.Start, startOK = readPosition(r)
		case "end":
			rg.End, endOK = readPosition(r)
		default:
			r.Value()
		}
	}
	return rg, startOK && endOK
}

// readPosition reads a Position where it stands, as ParsePosition would.
func readPosition(r *j.Reader) (Position, bool) {
	if !r.Object() {
		return Position{}, r.Value().DecodeObject()
	}
	var p Position
	lineOK, charOK := true, true
	for key, more := r.Member(); more; key, more = r.Member() {
		switch key {
		case "line":
			n, ok := r.Value().DecodeUint(32)
			p.Line, lineOK = uint32(n), ok
		case "character":
			n, ok := r.Value().DecodeUint(32)
			p.Character, charOK = uint32(n), ok
		default:
			r.Value()
		}
	}
	return p, lineOK && charOK
}

// ParsePublishDiagnosticsParams decodes textDocument/publishDiagnostics
// params: the whole checked, then read once (ReadPublishDiagnosticsParams).
func ParsePublishDiagnosticsParams(raw []byte) (PublishDiagnosticsParams, error) {
	v, err := parse(raw)
	if err != nil {
		return PublishDiagnosticsParams{}, err
	}
	return ReadPublishDiagnosticsParams(v)
}

// ReadPublishDiagnosticsParams decodes publishDiagnostics params already
// checked as JSON (jsonlite.Checked: a message's params are), in one walk
// over their bytes.
func ReadPublishDiagnosticsParams(v j.Value) (PublishDiagnosticsParams, error) {
	var p PublishDiagnosticsParams
	// One copy of the whole, which every diagnostic's Raw shares: the
	// message buffer is not ours.
	v = j.Checked(append(j.Raw(nil), v.Raw()...))
	r := v.Reader()
	if !r.Object() {
		if !r.Value().DecodeObject() {
			return p, ErrMalformed
		}
		return p, nil // null: encoding/json leaves the params zero
	}
	// A member that repeats counts as its last occurrence: uri and version
	// are decoded after the walk, and a diagnostics list that fails is
	// read to its end, in case another follows.
	var uri, ver j.Value
	diagnosticsOK := true
	for key, more := r.Member(); more; key, more = r.Member() {
		switch key {
		case "uri":
			uri = r.Value()
		case "version":
			ver = r.Value()
		case "diagnostics":
			p.Diagnostics, diagnosticsOK = readDiagnostics(&r)
		default:
			r.Value()
		}
	}
	var ok bool
	if p.URI, ok = uri.DecodeString(); !ok || !diagnosticsOK {
		return PublishDiagnosticsParams{}, ErrMalformed
	}
	if ver.Exists() && !ver.IsNull() {
		n, ok := ver.DecodeInt(32)
		if !ok {
			return PublishDiagnosticsParams{}, ErrMalformed
		}
		n32 := int32(n)
		p.Version = &n32
	}
	return p, nil
}

// readDiagnostics reads a list of diagnostics where it stands: nil for
// null, false when it is no list or one of its diagnostics is malformed.
func readDiagnostics(r *j.Reader) ([]Diagnostic, bool) {
	if !r.Array() {
		return nil, r.Value().DecodeArray()
	}
	// About right for a list of compiler errors (gopls's run near 280
	// bytes each), without a walk to count them first.
	ds := make([]Diagnostic, 0, r.Remaining()/256)
	var prev *Diagnostic
	for r.Elem() {
		d, ok := readDiagnostic(r, prev)
		if !ok {
			for r.Elem() {
				r.Value()
			}
			return nil, false
		}
		ds = append(ds, d)
		prev = &ds[len(ds)-1]
	}
	return ds, true
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

// decodeAgain decodes the string v, or returns prev without a copy when v
// is that very string unescaped.
func decodeAgain(v j.Value, prev string) (string, bool) {
	if raw := v.Raw(); len(raw) == len(prev)+2 && raw[0] == '"' && string(raw[1:len(raw)-1]) == prev && bytes.IndexByte(raw, '\\') < 0 {
		return prev, true
	}
	return v.DecodeString()
}
