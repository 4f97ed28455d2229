// Package mdparse answers the VS Code Markdown server's markdown/parse: the
// block tokens of a Markdown text in markdown-it's shape, which the server
// builds its outline, header links, folding and the ranges where no link is
// looked for from. VS Code's client runs markdown-it; lsp.wasm is Go, so
// this is a small block scanner that yields the tokens the server reads —
// headings (ATX and setext) with their inline title, fenced and indented
// code, HTML blocks — each with its line range (map). Paragraphs, lists and
// inline markup other than a heading's title are not tokens here: the
// server finds links in the text itself.
package mdparse

import (
	"strconv"
	"strings"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// Token is one markdown-it block token as the server reads it.
type Token struct {
	// Type is markdown-it's: heading_open, inline, heading_close, fence,
	// code_block or html_block.
	Type string
	// Tag is the HTML tag (h1…h6, code) or "".
	Tag string
	// Start and End are the token's lines, End exclusive (markdown-it's
	// map).
	Start, End int
	// Nesting is 1 for an opening token, -1 for a closing one, else 0.
	Nesting int
	// Markup is the heading's marker ("##", "=" or "-") or the fence's.
	Markup string
	// Info is a fence's info string.
	Info string
	// Content is the heading's title (inline), a block's text.
	Content string
}

// Parse returns the block tokens of text.
func Parse(text string) []Token {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	var out []Token
	para := -1 // first line of the paragraph being read, or -1
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		indent, rest := leading(line)
		if strings.TrimSpace(line) == "" {
			para = -1
			continue
		}
		if indent >= 4 && para < 0 {
			end := i + 1
			for j := i + 1; j < len(lines); j++ {
				if ind, _ := leading(lines[j]); ind >= 4 {
					end = j + 1
				} else if strings.TrimSpace(lines[j]) != "" {
					break
				}
			}
			var body strings.Builder
			for _, l := range lines[i:end] {
				body.WriteString(dedent(l, 4) + "\n")
			}
			out = append(out, Token{Type: "code_block", Tag: "code", Start: i, End: end, Content: body.String()})
			i = end - 1
			continue
		}
		if indent < 4 {
			if level, title, ok := atxHeading(rest); ok {
				para = -1
				out = heading(out, i, i+1, strings.Repeat("#", level), level, title)
				continue
			}
			if marker, info, ok := fenceOpen(rest); ok {
				para = -1
				end, last := len(lines), len(lines) // last: the first line after the body
				for j := i + 1; j < len(lines); j++ {
					if ind, r := leading(lines[j]); ind < 4 && fenceClose(r, marker) {
						end, last = j+1, j
						break
					}
				}
				body := ""
				if i+1 < last {
					body = strings.Join(lines[i+1:last], "\n") + "\n"
				}
				out = append(out, Token{Type: "fence", Tag: "code", Start: i, End: end, Markup: marker, Info: info, Content: body})
				i = end - 1
				continue
			}
			if closer, ok := htmlOpen(rest); ok && para < 0 {
				end := len(lines)
				for j := i; j < len(lines); j++ {
					if closer == "" && j > i && strings.TrimSpace(lines[j]) == "" {
						end = j
						break
					}
					if closer != "" && strings.Contains(lines[j], closer) {
						end = j + 1
						break
					}
				}
				out = append(out, Token{Type: "html_block", Start: i, End: end, Content: strings.Join(lines[i:end], "\n") + "\n"})
				i = end - 1
				continue
			}
			if para >= 0 {
				if c := setext(rest); c != 0 {
					level := 1
					if c == '-' {
						level = 2
					}
					title := make([]string, 0, i-para)
					for _, l := range lines[para:i] {
						title = append(title, strings.TrimSpace(l))
					}
					out = heading(out, para, i+1, string(c), level, strings.Join(title, "\n"))
					out[len(out)-2].End = i // the title's lines, not the underline
					para = -1
					continue
				}
			}
		}
		if para < 0 {
			para = i
		}
	}
	return out
}

// heading appends a heading's three tokens.
func heading(out []Token, start, end int, markup string, level int, title string) []Token {
	tag := "h" + string(rune('0'+level))
	return append(out,
		Token{Type: "heading_open", Tag: tag, Start: start, End: end, Nesting: 1, Markup: markup},
		Token{Type: "inline", Start: start, End: end, Content: title},
		Token{Type: "heading_close", Tag: tag, Nesting: -1, Markup: markup, Start: -1})
}

// leading counts a line's indentation (a tab to the next multiple of 4)
// and returns the rest.
func leading(line string) (int, string) {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n, line[i:]
		}
	}
	return n, ""
}

// dedent removes up to n columns of indentation.
func dedent(line string, n int) string {
	col := 0
	for i := 0; i < len(line); i++ {
		switch {
		case col >= n:
			return line[i:]
		case line[i] == ' ':
			col++
		case line[i] == '\t':
			col += 4 - col%4
		default:
			return line[i:]
		}
	}
	return ""
}

// atxHeading reads "## Title ##".
func atxHeading(s string) (int, string, bool) {
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	title := strings.TrimSpace(s[level:])
	// A closing sequence of #s goes when a space precedes it (or it is all).
	if t := strings.TrimRight(title, "#"); t != title && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		title = strings.TrimSpace(t)
	}
	return level, title, true
}

// fenceOpen reads ``` or ~~~ (three or more) and the info string.
func fenceOpen(s string) (marker, info string, ok bool) {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return "", "", false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(s[n:])
	if s[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return s[:n], info, true
}

// fenceClose reports whether s closes a fence opened by marker.
func fenceClose(s, marker string) bool {
	n := 0
	for n < len(s) && s[n] == marker[0] {
		n++
	}
	return n >= len(marker) && strings.TrimSpace(s[n:]) == ""
}

// setext reports the underline character of a setext heading, or 0.
func setext(s string) byte {
	t := strings.TrimRight(s, " \t")
	if t == "" || (t[0] != '=' && t[0] != '-') || strings.Trim(t, t[:1]) != "" {
		return 0
	}
	return t[0]
}

// blockTags are the HTML block elements CommonMark starts an HTML block
// with (its kind 6), which a blank line ends.
var blockTags = []string{"address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul"}

// htmlOpen reports whether s starts an HTML block and what ends it: a
// string the block's last line holds (a comment's "-->", </pre> …), or ""
// for a blank line.
func htmlOpen(s string) (string, bool) {
	if !strings.HasPrefix(s, "<") {
		return "", false
	}
	if strings.HasPrefix(s, "<!--") {
		return "-->", true
	}
	lower := strings.ToLower(s)
	for _, t := range []string{"pre", "script", "style", "textarea"} {
		if strings.HasPrefix(lower, "<"+t) && (len(lower) == len(t)+1 || strings.IndexByte(" >\t", lower[len(t)+1]) >= 0) {
			return "</" + t + ">", true
		}
	}
	name := strings.TrimPrefix(lower[1:], "/")
	end := 0
	for end < len(name) && (name[end] >= 'a' && name[end] <= 'z' || name[end] >= '0' && name[end] <= '9') {
		end++
	}
	if end == 0 {
		return "", false
	}
	for _, t := range blockTags {
		if name[:end] == t && (end == len(name) || strings.IndexByte(" \t>/", name[end]) >= 0) {
			return "", true
		}
	}
	return "", false
}

// Title is a heading's title as the server's outline shows it and its
// slug is made from (the text of markdown-it's inline children): a link or
// image keeps its text, code keeps what is between its backticks, emphasis
// marks and line breaks go.
func Title(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			continue
		case c == '[':
			if close := strings.Index(s[i:], "]("); close > 0 {
				if end := strings.IndexByte(s[i+close:], ')'); end > 0 {
					b.WriteString(Title(s[i+1 : i+close]))
					i += close + end
					continue
				}
			}
			b.WriteByte(c)
		case c == '`', c == '\n':
			// A line break inside a setext title is a soft break, which
			// markdown-it's plain text drops.
		case c == '*' || (c == '_' && (i == 0 || i+1 == len(s) || s[i-1] == ' ' || s[i+1] == ' ' || s[i-1] == '_' || s[i+1] == '_')):
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// AppendJSON appends tokens as markdown-it's JSON: each with type, tag,
// map, nesting, level, markup, info, content, and children (an inline
// token's one text child, its plain title).
func AppendJSON(dst []byte, tokens []Token) []byte {
	dst = append(dst, '[')
	level := 0
	for i, t := range tokens {
		if i > 0 {
			dst = append(dst, ',')
		}
		if t.Nesting < 0 {
			level--
		}
		dst = append(dst, `{"type":`...)
		dst = jsonlite.AppendString(dst, t.Type)
		dst = append(dst, `,"tag":`...)
		dst = jsonlite.AppendString(dst, t.Tag)
		if t.Start >= 0 {
			dst = append(dst, `,"map":[`...)
			dst = strconv.AppendInt(dst, int64(t.Start), 10)
			dst = append(dst, ',')
			dst = strconv.AppendInt(dst, int64(t.End), 10)
			dst = append(dst, ']')
		} else {
			dst = append(dst, `,"map":null`...)
		}
		dst = append(dst, `,"nesting":`...)
		dst = strconv.AppendInt(dst, int64(t.Nesting), 10)
		dst = append(dst, `,"level":`...)
		dst = strconv.AppendInt(dst, int64(level), 10)
		dst = append(dst, `,"markup":`...)
		dst = jsonlite.AppendString(dst, t.Markup)
		dst = append(dst, `,"info":`...)
		dst = jsonlite.AppendString(dst, t.Info)
		dst = append(dst, `,"content":`...)
		dst = jsonlite.AppendString(dst, t.Content)
		if t.Type == "inline" {
			dst = append(dst, `,"children":[{"type":"text","tag":"","map":null,"nesting":0,"level":0,"markup":"","info":"","content":`...)
			dst = jsonlite.AppendString(dst, Title(t.Content))
			dst = append(dst, `,"children":null,"block":false}],"block":true}`...)
		} else {
			dst = append(dst, `,"children":null,"block":true}`...)
		}
		if t.Nesting > 0 {
			level++
		}
	}
	return append(dst, ']')
}
