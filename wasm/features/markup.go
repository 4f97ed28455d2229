package features

import (
	"strings"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
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
func documentation(raw []byte) (doc, bool) {
	v, err := j.Parse(raw)
	if err != nil || v.IsNull() {
		return doc{}, false
	}
	if v.Kind() == j.String {
		s := v.String()
		return doc{value: s}, s != ""
	}
	m, ok := lsptypes.ParseMarkupContent(v)
	if !ok || v.Kind() != j.Object || m.Value == "" {
		return doc{}, false
	}
	return doc{value: m.Value, markdown: m.Kind == "markdown"}, true
}

// markdownOf renders one hover content element as markdown: a MarkedString
// string is markdown already; {language, value} becomes a fenced code
// block; MarkupContent markdown is kept; plaintext is escaped so that it
// shows literally.
func markdownOf(raw []byte) (string, bool) {
	v, err := j.Parse(raw)
	if err != nil || v.IsNull() {
		return "", false
	}
	if v.Kind() == j.String {
		s := v.String()
		return s, s != ""
	}
	if v.Kind() != j.Object {
		return "", false
	}
	kind, ok1 := v.Get("kind").DecodeString()
	lang, ok2 := v.Get("language").DecodeString()
	value, ok3 := v.Get("value").DecodeString()
	if !ok1 || !ok2 || !ok3 || value == "" {
		return "", false
	}
	switch {
	case kind == "markdown":
		return value, true
	case kind == "plaintext":
		return EscapeMarkdown(value), true
	default: // MarkedString {language, value}
		return fence(lang, value), true
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
	// A loop rather than strings.Repeat, which lsp.wasm links for this
	// one call.
	f := make([]byte, n)
	for i := range f {
		f[i] = '`'
	}
	return string(f) + lang + "\n" + code + "\n" + string(f)
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
