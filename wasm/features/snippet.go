package features

import "strings"

// SnippetText is the text a snippet (LSP's snippet syntax) inserts when it
// is not run as a snippet: tab stops are empty, a placeholder is its text,
// a choice its first option, a variable its default or else its name (as
// LSP says for a variable the client does not know), escapes are undone.
// lsp.wasm knows no variables, since a snippet edit it applies as text is
// not the active editor's: nothing to take a selection or a clipboard from.
func SnippetText(s string) string {
	var b strings.Builder
	snippetInto(&b, s, 0, "")
	return b.String()
}

// snippetInto writes s[i:] up to one of the stop bytes (unescaped, at this
// nesting level) as text and returns where it stopped.
func snippetInto(b *strings.Builder, s string, i int, stop string) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`$}\`+stop, s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i += 2
		case strings.IndexByte(stop, c) >= 0:
			return i
		case c == '$':
			i = snippetMarker(b, s, i+1)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i
}

// snippetMarker writes the text of the marker after a '$' at s[i:]: $1,
// $name, ${1}, ${1:…}, ${1|a,b|}, ${name}, ${name:…}, ${name/…/…/…}. A '$'
// that starts none of them is itself.
func snippetMarker(b *strings.Builder, s string, i int) int {
	if i < len(s) && s[i] != '{' {
		j := nameEnd(s, i)
		if j == i {
			b.WriteByte('$')
			return i
		}
		if !isDigit(s[i]) {
			b.WriteString(s[i:j])
		}
		return j
	}
	j := nameEnd(s, i+1)
	if i >= len(s) || j == i+1 || j >= len(s) {
		b.WriteByte('$')
		return i
	}
	name, tabstop := s[i+1:j], isDigit(s[i+1])
	switch s[j] {
	case '}':
		if !tabstop {
			b.WriteString(name)
		}
		return j + 1
	case ':':
		k := snippetInto(b, s, j+1, "}")
		return min(k+1, len(s))
	case '|':
		var first strings.Builder
		k := snippetInto(&first, s, j+1, ",|")
		b.WriteString(first.String())
		for k < len(s) && s[k] != '|' { // the other options
			var skip strings.Builder
			k = snippetInto(&skip, s, k+1, ",|")
		}
		if k+1 < len(s) && s[k+1] == '}' {
			return k + 2
		}
		return min(k+1, len(s))
	case '/': // a transform: /regex/format/options}
		b.WriteString(name)
		k := j + 1
		for slash := 0; k < len(s) && slash < 2; k++ {
			if s[k] == '\\' {
				k++
			} else if s[k] == '/' {
				slash++
			}
		}
		if end := strings.IndexByte(s[min(k, len(s)):], '}'); end >= 0 {
			return k + end + 1
		}
		return len(s)
	}
	b.WriteByte('$')
	return i
}

// nameEnd is the end of the tab-stop number or variable name at s[i:].
func nameEnd(s string, i int) int {
	if i < len(s) && isDigit(s[i]) {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i
	}
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && isDigit(s[i]) && s[i-1] != '$' && s[i-1] != '{') {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
