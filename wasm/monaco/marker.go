// Package monaco maps LSP values to the shapes Monaco's editor API takes.
// It holds plain Go structs with Monaco's JSON field names; the binding
// encodes them once per update and crosses into JavaScript with one string.
package monaco

import (
	"encoding/json"
	"strconv"

	"github.com/kandev/lsp/wasm/protocol"
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
}

// Severity maps an LSP severity to Monaco's. An omitted severity is shown as
// an error, as VS Code does.
func Severity(s protocol.DiagnosticSeverity) MarkerSeverity {
	switch s {
	case protocol.SeverityWarning:
		return SeverityWarning
	case protocol.SeverityInformation:
		return SeverityInfo
	case protocol.SeverityHint:
		return SeverityHint
	default:
		return SeverityError
	}
}

// FromDiagnostic converts one LSP diagnostic. LSP positions are 0-based with
// UTF-16 character offsets and Monaco columns are 1-based UTF-16 offsets, so
// the conversion is +1 on both axes and needs no document text.
func FromDiagnostic(d protocol.Diagnostic) Marker {
	return Marker{
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
func FromDiagnostics(ds []protocol.Diagnostic) []Marker {
	out := make([]Marker, 0, len(ds))
	for _, d := range ds {
		out = append(out, FromDiagnostic(d))
	}
	return out
}

// codeString renders an LSP diagnostic code (integer or string) as text.
func codeString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		return n.String()
	}
	return ""
}

// MarkersJSON encodes markers as one JSON array, ready for JSON.parse.
func MarkersJSON(ms []Marker) string {
	if ms == nil {
		ms = []Marker{}
	}
	b, err := json.Marshal(ms)
	if err != nil { // unreachable: Marker holds only strings and integers
		return "[]"
	}
	return string(b)
}
