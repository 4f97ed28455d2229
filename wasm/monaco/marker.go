// Package monaco maps LSP values to the shapes Monaco's editor API takes.
// It holds plain Go structs with Monaco's JSON field names; the binding
// encodes them once per update and crosses into JavaScript with one string.
package monaco

import (
	"strconv"
	"unsafe"

	j "github.com/kandev/lsp/wasm/jsonlite"

	"github.com/kandev/lsp/wasm/lsptypes"
)

// MarkerOwner is the owner string under which lsp.wasm sets model markers.
const MarkerOwner = "kandev-lsp"

// MarkerSeverity is monaco.MarkerSeverity.
type MarkerSeverity int

// Monaco marker severities (monaco.MarkerSeverity).
const (
	SeverityHint    MarkerSeverity = 1
	SeverityInfo    MarkerSeverity = 2
	SeverityWarning MarkerSeverity = 4
	SeverityError   MarkerSeverity = 8
)

// Marker is monaco.editor.IMarkerData. Lines and columns are 1-based;
// columns count UTF-16 code units, as LSP characters do.
type Marker struct {
	StartLineNumber uint32         `json:"startLineNumber"`
	StartColumn     uint32         `json:"startColumn"`
	EndLineNumber   uint32         `json:"endLineNumber"`
	EndColumn       uint32         `json:"endColumn"`
	Message         string         `json:"message"`
	Severity        MarkerSeverity `json:"severity"`
	Source          string         `json:"source,omitempty"`
	Code            string         `json:"code,omitempty"`
	// Href makes the code a link: Monaco's code {value, target}.
	Href string `json:"-"`
	// Tags are MarkerTag values, the same numbers as LSP's DiagnosticTag
	// (1 unnecessary: faded, 2 deprecated: struck through).
	Tags []int `json:"tags,omitempty"`
	// Related is relatedInformation with model URIs as resource; the
	// binding turns each resource into a Uri.
	Related []Related `json:"relatedInformation,omitempty"`
}

// Related is Monaco's IRelatedInformation.
type Related struct {
	_        [0]func() // incomparable: spares lsp.wasm an equality function
	Resource string
	Message  string
	Range    lsptypes.Range
}

// Severity maps an LSP severity to Monaco's. An omitted severity is shown as
// an error, as VS Code does.
func Severity(s lsptypes.DiagnosticSeverity) MarkerSeverity {
	switch s {
	case lsptypes.SeverityWarning:
		return SeverityWarning
	case lsptypes.SeverityInformation:
		return SeverityInfo
	case lsptypes.SeverityHint:
		return SeverityHint
	default:
		return SeverityError
	}
}

// FromDiagnostic converts one LSP diagnostic. LSP positions are 0-based with
// UTF-16 character offsets and Monaco columns are 1-based UTF-16 offsets, so
// the conversion is +1 on both axes and needs no document text. mapURI
// turns the server URIs of related information into model URIs (nil keeps
// them).
func FromDiagnostic(d lsptypes.Diagnostic, mapURI func(string) string) Marker {
	var rel []Related
	for _, r := range d.Related {
		uri := r.Location.URI
		if mapURI != nil {
			uri = mapURI(uri)
		}
		rel = append(rel, Related{Resource: uri, Message: r.Message, Range: r.Location.Range})
	}
	return Marker{
		Href:            d.Href,
		Tags:            d.Tags,
		Related:         rel,
		StartLineNumber: d.Range.Start.Line + 1,
		StartColumn:     d.Range.Start.Character + 1,
		EndLineNumber:   d.Range.End.Line + 1,
		EndColumn:       d.Range.End.Character + 1,
		Message:         d.Message,
		Severity:        Severity(d.Severity),
		Source:          d.Source,
		Code:            codeString(d.Code),
	}
}

// FromDiagnostics converts a publishDiagnostics list; never nil, so that it
// encodes as [] and clears the model's markers.
func FromDiagnostics(ds []lsptypes.Diagnostic, mapURI func(string) string) []Marker {
	out := make([]Marker, 0, len(ds))
	for _, d := range ds {
		out = append(out, FromDiagnostic(d, mapURI))
	}
	return out
}

// codeString renders an LSP diagnostic code (integer or string) as text.
func codeString(raw []byte) string {
	v, err := j.Parse(raw)
	if err != nil {
		return ""
	}
	switch v.Kind() {
	case j.String:
		return v.String()
	case j.Number:
		if i, ok := v.Int(); ok {
			return strconv.FormatInt(i, 10)
		}
		return string(v.Raw())
	}
	return ""
}

// MarkersJSON encodes markers as one JSON array, ready for JSON.parse.
func MarkersJSON(ms []Marker) string {
	// One buffer of about the right size: growing it by doubling copied a
	// 2,000-marker frame's JSON a dozen times (a quarter of the time).
	size := 2
	for i := range ms {
		m := &ms[i]
		size += 112 + len(m.Message) + len(m.Source) + len(m.Code) + len(m.Href) + 4*len(m.Tags)
		for _, r := range m.Related {
			size += 96 + len(r.Resource) + len(r.Message)
		}
	}
	b := make([]byte, 0, size+size/8)
	b = append(b, '[')
	for i := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = ms[i].AppendJSON(b)
	}
	b = append(b, ']')
	// The buffer is never written again: the string may share it, which
	// spares a copy of the whole frame.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// AppendJSON appends m as JSON, as encoding/json would for its tags.
func (m Marker) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = AppendIRange(b, m.StartLineNumber, m.StartColumn, m.EndLineNumber, m.EndColumn)
	b = j.AppendLit(b, `,"message":`)
	b = j.AppendString(b, m.Message)
	b = j.AppendLit(b, `,"severity":`)
	b = j.AppendInt(b, int64(m.Severity))
	if m.Source != "" {
		b = j.AppendLit(b, `,"source":`)
		b = j.AppendString(b, m.Source)
	}
	if m.Code != "" && m.Href != "" {
		b = j.AppendLit(b, `,"code":{"value":`)
		b = j.AppendString(b, m.Code)
		b = j.AppendLit(b, `,"target":`)
		b = j.AppendString(b, m.Href)
		b = append(b, '}')
	} else if m.Code != "" {
		b = j.AppendLit(b, `,"code":`)
		b = j.AppendString(b, m.Code)
	}
	if len(m.Tags) > 0 {
		b = j.AppendLit(b, `,"tags":[`)
		for i, t := range m.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = j.AppendInt(b, int64(t))
		}
		b = append(b, ']')
	}
	if len(m.Related) > 0 {
		b = j.AppendLit(b, `,"relatedInformation":[`)
		for i, r := range m.Related {
			if i > 0 {
				b = append(b, ',')
			}
			b = j.AppendLit(b, `{"resource":`)
			b = j.AppendString(b, r.Resource)
			b = j.AppendLit(b, `,"message":`)
			b = j.AppendString(b, r.Message)
			b = append(b, ',')
			b = AppendRangeFields(b, r.Range)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendRange appends an LSP range as Monaco's IRange: one-based lines and
// columns (both count UTF-16 code units, so it is a shift by one).
func AppendRange(b []byte, r lsptypes.Range) []byte {
	return append(AppendRangeFields(append(b, '{'), r), '}')
}

// AppendRangeFields appends the four IRange members of an LSP range
// without braces, for objects that carry them inline (markers, related
// information).
func AppendRangeFields(b []byte, r lsptypes.Range) []byte {
	return AppendIRange(b, r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1)
}

// AppendIRange appends the four IRange members, without braces.
func AppendIRange(b []byte, sl, sc, el, ec uint32) []byte {
	b = j.AppendLit(b, `"startLineNumber":`)
	b = j.AppendUint(b, uint64(sl))
	b = j.AppendLit(b, `,"startColumn":`)
	b = j.AppendUint(b, uint64(sc))
	b = j.AppendLit(b, `,"endLineNumber":`)
	b = j.AppendUint(b, uint64(el))
	b = j.AppendLit(b, `,"endColumn":`)
	return j.AppendUint(b, uint64(ec))
}
