package lsptypes

import "strings"

// A diagnostic's message is a string or, since LSP 3.18 (the client
// capability textDocument.diagnostic.markupMessageSupport), MarkupContent.
// Monaco's markers show plain text only, so a Markdown message is read as
// the text a reader sees: links keep their text, code spans and emphasis
// lose their marks, escapes their backslash. Anything else of Markdown
// stays as written, which reads well enough in a hover.

// diagnosticMessage reads a message of either form.
func diagnosticMessage(s string, kind string, isMarkup bool) string {
	if !isMarkup || kind != "markdown" {
		return s
	}
	return plainMarkdown(s)
}

// plainMarkdown drops the inline marks of Markdown text.
func plainMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>", s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case c == '`' || c == '*' || c == '_' && (i == 0 || i+1 == len(s) || !isWord(s[i-1]) || !isWord(s[i+1])):
			// a mark, not a letter of an identifier like snake_case
		case c == '[':
			// [text](url): the text alone.
			end := strings.Index(s[i:], "](")
			close := -1
			if end >= 0 {
				close = strings.IndexByte(s[i+end:], ')')
			}
			if end < 0 || close < 0 || strings.IndexByte(s[i+1:i+end], '\n') >= 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(plainMarkdown(s[i+1 : i+end]))
			i += end + close
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
