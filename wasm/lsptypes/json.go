package lsptypes

import j "github.com/kandev/lsp/wasm/jsonlite"

// The types are written and read by hand (package jsonlite) rather than by
// encoding/json: reflection would cost lsp.wasm a quarter of its size
// budget. AppendJSON writes exactly what encoding/json would for the tags
// above; the Parse functions fail where encoding/json would.

// AppendJSON appends p as JSON.
func (p Position) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"line":`)
	b = j.AppendUint(b, uint64(p.Line))
	b = j.AppendLit(b, `,"character":`)
	b = j.AppendUint(b, uint64(p.Character))
	return append(b, '}')
}

// AppendJSON appends r as JSON.
func (r Range) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"start":`)
	b = r.Start.AppendJSON(b)
	b = j.AppendLit(b, `,"end":`)
	b = r.End.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON appends l as JSON.
func (l Location) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"uri":`)
	b = j.AppendString(b, l.URI)
	b = j.AppendLit(b, `,"range":`)
	b = l.Range.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON appends t as JSON.
func (t TextDocumentIdentifier) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"uri":`)
	b = j.AppendString(b, t.URI)
	return append(b, '}')
}

// AppendJSON appends t as JSON.
func (t VersionedTextDocumentIdentifier) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"uri":`)
	b = j.AppendString(b, t.URI)
	b = j.AppendLit(b, `,"version":`)
	b = j.AppendInt(b, int64(t.Version))
	return append(b, '}')
}

// AppendJSON appends t as JSON.
func (t TextDocumentItem) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"uri":`)
	b = j.AppendString(b, t.URI)
	b = j.AppendLit(b, `,"languageId":`)
	b = j.AppendString(b, t.LanguageID)
	b = j.AppendLit(b, `,"version":`)
	b = j.AppendInt(b, int64(t.Version))
	b = j.AppendLit(b, `,"text":`)
	b = j.AppendString(b, t.Text)
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p TextDocumentPositionParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"textDocument":`)
	b = p.TextDocument.AppendJSON(b)
	b = j.AppendLit(b, `,"position":`)
	b = p.Position.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON appends c as JSON.
func (c TextDocumentContentChangeEvent) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	if c.Range != nil {
		b = j.AppendLit(b, `"range":`)
		b = c.Range.AppendJSON(b)
		b = append(b, ',')
	}
	b = j.AppendLit(b, `"text":`)
	b = j.AppendString(b, c.Text)
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p DidOpenTextDocumentParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"textDocument":`)
	b = p.TextDocument.AppendJSON(b)
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p DidChangeTextDocumentParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"textDocument":`)
	b = p.TextDocument.AppendJSON(b)
	b = j.AppendLit(b, `,"contentChanges":`)
	if p.ContentChanges == nil {
		b = j.AppendNull(b)
	} else {
		b = append(b, '[')
		for i, c := range p.ContentChanges {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.AppendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p DidSaveTextDocumentParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"textDocument":`)
	b = p.TextDocument.AppendJSON(b)
	if p.Text != nil {
		b = j.AppendLit(b, `,"text":`)
		b = j.AppendString(b, *p.Text)
	}
	return append(b, '}')
}

// AppendJSON appends p as JSON.
func (p DidCloseTextDocumentParams) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"textDocument":`)
	b = p.TextDocument.AppendJSON(b)
	return append(b, '}')
}

// ParsePosition reads a Position.
func ParsePosition(v j.Value) (Position, bool) {
	if !v.DecodeObject() {
		return Position{}, false
	}
	var m [2]j.Value
	v.Lookup(positionKeys, m[:])
	line, ok1 := m[0].DecodeUint(32)
	char, ok2 := m[1].DecodeUint(32)
	return Position{Line: uint32(line), Character: uint32(char)}, ok1 && ok2
}

// The members ParsePosition and ParseRange read, each object walked once
// (jsonlite.Value.Lookup): a big answer holds thousands of them.
var (
	positionKeys = []string{"line", "character"}
	rangeKeys    = []string{"start", "end"}
	locationKeys = []string{"uri", "range"}
)

// ParseRange reads a Range.
func ParseRange(v j.Value) (Range, bool) {
	if !v.DecodeObject() {
		return Range{}, false
	}
	var m [2]j.Value
	v.Lookup(rangeKeys, m[:])
	s, ok1 := ParsePosition(m[0])
	e, ok2 := ParsePosition(m[1])
	return Range{Start: s, End: e}, ok1 && ok2
}

// ParseLocation reads a Location.
func ParseLocation(v j.Value) (Location, bool) {
	if !v.DecodeObject() {
		return Location{}, false
	}
	var m [2]j.Value
	v.Lookup(locationKeys, m[:])
	uri, ok1 := m[0].DecodeString()
	r, ok2 := ParseRange(m[1])
	return Location{URI: uri, Range: r}, ok1 && ok2
}

// ParseLocationLink reads a LocationLink.
func ParseLocationLink(v j.Value) (LocationLink, bool) {
	if !v.DecodeObject() {
		return LocationLink{}, false
	}
	var l LocationLink
	ok := true
	if o := v.Get("originSelectionRange"); o.Exists() && !o.IsNull() {
		r, rok := ParseRange(o)
		l.OriginSelectionRange, ok = &r, rok
	}
	var ok1, ok2, ok3 bool
	l.TargetURI, ok1 = v.Get("targetUri").DecodeString()
	l.TargetRange, ok2 = ParseRange(v.Get("targetRange"))
	l.TargetSelectionRange, ok3 = ParseRange(v.Get("targetSelectionRange"))
	return l, ok && ok1 && ok2 && ok3
}

// ParseTextEdit reads a TextEdit.
func ParseTextEdit(v j.Value) (TextEdit, bool) {
	if !v.DecodeObject() {
		return TextEdit{}, false
	}
	r, ok1 := ParseRange(v.Get("range"))
	text, ok2 := v.Get("newText").DecodeString()
	return TextEdit{Range: r, NewText: text}, ok1 && ok2
}

// ParseMarkupContent reads a MarkupContent.
func ParseMarkupContent(v j.Value) (MarkupContent, bool) {
	if !v.DecodeObject() {
		return MarkupContent{}, false
	}
	kind, ok1 := v.Get("kind").DecodeString()
	value, ok2 := v.Get("value").DecodeString()
	return MarkupContent{Kind: kind, Value: value}, ok1 && ok2
}
