// Package logging builds the slog.Logger of the programs (kandev-relay,
// kandev-agent, webdemo) from their -log-format flag: text for people,
// json for log pipelines (one object per line, every attribute a field,
// so a stream's session, language and conn can be filtered on).
package logging

import (
	"fmt"
	"io"
	"log/slog"
)

// Formats are the values -log-format accepts.
const (
	Text = "text"
	JSON = "json"
)

// Usage is the flag's help text.
const Usage = "log format: text or json (one JSON object per line)"

// New returns a logger writing format records of level and above to w.
func New(format string, w io.Writer, level slog.Level) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case Text, "":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case JSON:
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format %q: want %s or %s", format, Text, JSON)
}
