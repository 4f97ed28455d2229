package features

import (
	"encoding/json"
	"strings"
)

// doc is documentation ready for Monaco: plain text (a JSON string, which
// Monaco shows verbatim) or markdown (an IMarkdownString {value}).
type doc struct {
	value    string
	markdown bool
}

func (d doc) append(b []byte) []byte {
	if !d.markdown {
		return appendString(b, d.value)
	}
	b = append(b, `{"value":`...)
	b = appendString(b, d.value)
	return append(b, '}')
}

// documentation decodes LSP documentation: string | MarkupContent. An
// empty value is no documentation.
func documentation(raw json.RawMessage) (doc, bool) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return doc{}, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return doc{}, false
		}
		return doc{value: s}, true
	}
	var m struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Value == "" {
		return doc{}, false
	}
	return doc{value: m.Value, markdown: m.Kind == "markdown"}, true
}

// markdownOf renders one hover content element as markdown: a MarkedString
// string is markdown already; {language, value} becomes a fenced code
// block; MarkupContent markdown is kept; plaintext is escaped so that it
// shows literally.
func markdownOf(raw json.RawMessage) (string, bool) {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return "", false
		}
		return s, true
	}
	var m struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Value == "" {
		return "", false
	}
	switch {
	case m.Kind == "markdown":
		return m.Value, true
	case m.Kind == "plaintext":
		return EscapeMarkdown(m.Value), true
	default: // MarkedString {language, value}
		return fence(m.Language, m.Value), true
	}
}

// fence wraps code in a fenced block longer than any backtick run inside.
func fence(lang, code string) string {
	n, run := 3, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + code + "\n" + f
}

// EscapeMarkdown makes plain text render literally as markdown, as
// Monaco's MarkdownString.appendText does: markdown punctuation gets a
// backslash and a newline becomes a paragraph break.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!', '|', '<', '>', '~':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString("\n\n")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
