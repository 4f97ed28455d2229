package wire

import (
	"path"
	"strings"
)

// Language identifies a language family: the files one choice of servers
// serves, as the language query parameter and the user settings carry it.
// A family may hold several LSP languages (typescript with javascript and
// the React variants; css with scss and less; go with go.mod and go.work).
type Language string

// The languages table (Languages) is data: the built-in catalog's
// (agent/catalog/builtin.json), written into languages.go by langgen.go.
// Anything it does not hold is rejected before a connection is upgraded or
// a process is started.
//
//go:generate go run langgen.go

// Names of the languages the code itself refers to; a language needs no
// constant to be served.
const (
	Go         Language = "go"
	TypeScript Language = "typescript"
	Python     Language = "python"
	Rust       Language = "rust"
	Kotlin     Language = "kotlin"
	JSON       Language = "json"
	CSS        Language = "css"
	HTML       Language = "html"
	Markdown   Language = "markdown"
	YAML       Language = "yaml"
	Shell      Language = "shell"
	Dockerfile Language = "dockerfile"
	C          Language = "c"
)

// LanguageInfo describes a language for every tier: which files belong to
// it, which Monaco language ids its servers serve, the LSP languageId of
// each of its files, and which servers of the agent's built-in catalog may
// serve it.
//
// A file belongs to the language whose FileNames hold its base name, else
// whose Patterns match it, else whose Extensions hold its extension (the
// order VS Code uses); the comparison ignores case.
type LanguageInfo struct {
	Language Language
	// DisplayName is the language's English name for texts; the page's
	// locale catalogs name it under "language.<id>".
	DisplayName string
	// Extensions are lower-case file name suffixes, dot included.
	Extensions []string
	// FileNames are whole base names, lower case ("go.mod", "dockerfile").
	FileNames []string
	// Patterns are path.Match patterns on the lower-cased base name
	// ("dockerfile.*").
	Patterns []string
	// MonacoIDs are the Monaco language ids whose models this server serves.
	MonacoIDs []string
	// LanguageIDs maps an entry of FileNames, Patterns or Extensions to the
	// LSP languageId of its files (didOpen's textDocument.languageId) where
	// that is not the first of MonacoIDs: ".tsx" is "typescriptreact",
	// "go.mod" is "go.mod", ".sh" is "shellscript".
	LanguageIDs map[string]string
	// Servers are the ids of the agent's built-in catalog entries that
	// serve this language, the default first: the stream routes' server
	// parameter names one of them (or an entry of the task host's operator
	// catalog), and lsp_language_servers may choose among them.
	Servers []string
	// BesideDefault are servers of Servers (never the default) that a file
	// of the language gets beside the default when the user chose none:
	// servers the default one needs to work, as Vue's language server needs
	// a TypeScript server running its plugin.
	BesideDefault []string
	// Experimental marks languages whose upstream server is not yet stable.
	Experimental bool
	// AutoInstallable is the task-host-independent answer to "may the user
	// save this language as an auto-install preference": some built-in
	// server of it has an installer. Whether the actual task host has an
	// installer for the chosen server is decided there, not here.
	AutoInstallable bool
}

// Lookup returns the description of a language and whether it is known.
func Lookup(name string) (LanguageInfo, bool) {
	for _, l := range Languages {
		if string(l.Language) == name {
			return l, true
		}
	}
	return LanguageInfo{}, false
}

// ForFile returns the language serving a file (by its base name, a
// pattern on it, or its extension; see LanguageInfo) and whether there is
// one. name may be a path; only its last element counts.
func ForFile(name string) (LanguageInfo, bool) {
	l, _, ok := forFile(name)
	return l, ok
}

// LanguageID returns the LSP languageId of a file, the textDocument's
// languageId its didOpen carries ("typescriptreact" for a.tsx, "go.mod" for
// go.mod, "shellscript" for a.sh, "cpp" for a.hpp), or "" for a file no
// language serves.
func LanguageID(name string) string {
	l, key, ok := forFile(name)
	if !ok {
		return ""
	}
	if id, ok := l.LanguageIDs[key]; ok {
		return id
	}
	return l.MonacoIDs[0]
}

// baseName is the last element of a path with either separator, as
// path.Base after turning `\` into `/`, but without strings.ReplaceAll,
// which would add 5 KB to lsp.wasm for this one call.
func baseName(name string) string {
	end := len(name)
	for end > 0 && (name[end-1] == '/' || name[end-1] == '\\') {
		end--
	}
	start := end
	for start > 0 && name[start-1] != '/' && name[start-1] != '\\' {
		start--
	}
	return name[start:end]
}

// forFile finds the language of a file and the entry of its FileNames,
// Patterns or Extensions that matched.
func forFile(name string) (LanguageInfo, string, bool) {
	base := strings.ToLower(baseName(name))
	if base == "" || base == "." {
		return LanguageInfo{}, "", false
	}
	for _, l := range Languages {
		for _, n := range l.FileNames {
			if n == base {
				return l, n, true
			}
		}
	}
	for _, l := range Languages {
		for _, p := range l.Patterns {
			if ok, _ := path.Match(p, base); ok {
				return l, p, true
			}
		}
	}
	ext := path.Ext(base)
	if ext == "" {
		return LanguageInfo{}, "", false
	}
	for _, l := range Languages {
		for _, e := range l.Extensions {
			if e == ext {
				return l, e, true
			}
		}
	}
	return LanguageInfo{}, "", false
}

// DefaultServer returns the id of the built-in server a language uses when
// a stream names none, and whether the language is known.
func DefaultServer(lang Language) (string, bool) {
	l, ok := Lookup(string(lang))
	if !ok || len(l.Servers) == 0 {
		return "", false
	}
	return l.Servers[0], true
}

// BuiltinServes reports whether the agent's built-in catalog lists server
// id for lang.
func BuiltinServes(lang Language, id string) bool {
	l, ok := Lookup(string(lang))
	if !ok {
		return false
	}
	for _, s := range l.Servers {
		if s == id {
			return true
		}
	}
	return false
}

// BuiltinServer returns the languages the built-in server id serves, in
// the order of Languages, and whether the built-in catalog has the id.
func BuiltinServer(id string) ([]Language, bool) {
	var out []Language
	for _, l := range Languages {
		for _, s := range l.Servers {
			if s == id {
				out = append(out, l.Language)
			}
		}
	}
	return out, len(out) > 0
}

// MaxServerIDLength bounds a server id.
const MaxServerIDLength = 64

// ValidServerID reports whether id has the shape of a catalog id: 1 to 64
// characters of lower-case letters, digits, '.', '_' and '-', starting with
// a letter or digit, and no "..". The shape alone keeps an id from ever
// being a path or a command line (no '/', '\', space or shell character);
// whether an entry of that id exists is the agent catalog's to say.
func ValidServerID(id string) bool {
	if id == "" || len(id) > MaxServerIDLength || strings.Contains(id, "..") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// FileURI turns an absolute slash-separated path (a Windows path such as
// C:/work is accepted too) into a percent-encoded file:// URI, the form LSP
// servers expect for rootUri and document URIs. It escapes as net/url does
// for paths, written out here because net/url costs lsp.wasm ~190 KB.
func FileURI(p string) string {
	if len(p) >= 2 && p[1] == ':' { // Windows drive path
		p = "/" + p
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len("file://") + len(p) + 8)
	b.WriteString("file://")
	for i := 0; i < len(p); i++ {
		c := p[i]
		if keepInPath(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// keepInPath reports whether c may stand unescaped in a URI path: RFC 3986
// unreserved characters plus the sub-delimiters, ':' and '@' that net/url
// also leaves alone.
func keepInPath(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/$&+,:;=@", c) >= 0
}

// PathFromFileURI is the inverse of FileURI. It reports false for anything
// that is not an absolute file:// URI without a host, query or fragment, or
// whose escapes are malformed.
func PathFromFileURI(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "file://")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, "localhost")
	if !strings.HasPrefix(rest, "/") || strings.ContainsAny(rest, "?#") {
		return "", false
	}
	p, ok := Unescape(rest)
	if !ok {
		return "", false
	}
	if len(p) >= 3 && p[2] == ':' { // /C:/... on Windows
		p = p[1:]
	}
	return p, true
}

// Unescape decodes %XX escapes in s (a URI path or authority, where '+'
// means '+'). It reports false for a malformed escape.
func Unescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
