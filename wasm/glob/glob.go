// Package glob matches slash-separated paths against the glob patterns of
// LSP 3.17 (the Pattern of a FileSystemWatcher):
//
//	"*"      any run of characters within one path segment
//	"?"      one character within a segment
//	"**"     any number of segments, none included, as a whole segment
//	         ("**/x", "a/**/x", "a/**"); elsewhere it is "*"
//	"{a,b}"  either alternative; alternatives may hold globs and groups
//	"[a-z]"  one character of the class; "[!a-z]" (or "[^a-z]") one outside it
//
// Matching is case-sensitive, like the task hosts' file systems. A "{" or
// "[" that is never closed stands for itself. Written by hand, without
// regexp, which would cost lsp.wasm more than this whole package.
package glob

import "unicode/utf8"

// Match reports whether name matches pattern in full.
func Match(pattern, name string) bool {
	return match(pattern, name, true)
}

// match matches p against all of s; atStart says p begins a segment (so
// that "**" there is a globstar).
func match(p, s string, atStart bool) bool {
	for len(p) > 0 {
		switch c := p[0]; {
		case c == '{':
			end := closing(p)
			if end < 0 {
				break // a lone "{" is a literal
			}
			rest := p[end+1:]
			for _, alt := range alternatives(p[1:end]) {
				if match(alt+rest, s, atStart) {
					return true
				}
			}
			return false
		case c == '*' && atStart && len(p) >= 2 && p[1] == '*' && (len(p) == 2 || p[2] == '/'):
			if len(p) == 2 {
				return true // a trailing "**" takes everything left
			}
			rest := p[3:]
			// Zero segments, then after each "/" of s.
			if match(rest, s, true) {
				return true
			}
			for i := 0; i < len(s); i++ {
				if s[i] == '/' && match(rest, s[i+1:], true) {
					return true
				}
			}
			return false
		case c == '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			for i := 0; ; i++ {
				if match(p, s[i:], false) {
					return true
				}
				if i == len(s) || s[i] == '/' {
					return false
				}
			}
		case c == '?' || c == '[':
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 || r == '/' {
				return false
			}
			if c == '[' {
				end := classEnd(p)
				if end < 0 {
					break // a lone "[" is a literal
				}
				if !inClass(p[1:end], r) {
					return false
				}
				p = p[end:]
			}
			p, s, atStart = p[1:], s[n:], false
			continue
		}
		// A literal byte (multi-byte characters compare byte by byte).
		if len(s) == 0 || s[0] != p[0] {
			return false
		}
		atStart = p[0] == '/'
		p, s = p[1:], s[1:]
	}
	return s == ""
}

// closing returns the index of the "}" that closes the "{" at p[0],
// counting nested groups, or -1.
func closing(p string) int {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// alternatives splits a group's body at its top-level commas.
func alternatives(body string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, body[from:i])
				from = i + 1
			}
		}
	}
	return append(out, body[from:])
}

// classEnd returns the index of the "]" closing the class at p[0], or -1.
// A "]" right after "[" or "[!" belongs to the class.
func classEnd(p string) int {
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++
	}
	for ; i < len(p); i++ {
		if p[i] == ']' {
			return i
		}
	}
	return -1
}

// inClass reports whether r is in the class body (between the brackets).
func inClass(body string, r rune) bool {
	negate := len(body) > 0 && (body[0] == '!' || body[0] == '^')
	if negate {
		body = body[1:]
	}
	in := false
	for len(body) > 0 {
		lo, n := utf8.DecodeRuneInString(body)
		body = body[n:]
		hi := lo
		if len(body) >= 2 && body[0] == '-' {
			hi, n = utf8.DecodeRuneInString(body[1:])
			body = body[1+n:]
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
	return in != negate
}
