package wire

import (
	"path"
	"strings"
)

// Language identifies a language server family. Its value is what the
// language query parameter and the user settings carry.
type Language string

// The languages Kandev LSP knows. Anything else is rejected before a
// connection is upgraded or a process is started.
const (
	Go         Language = "go"
	TypeScript Language = "typescript"
	Python     Language = "python"
	Rust       Language = "rust"
	Kotlin     Language = "kotlin"
)

// LanguageInfo describes a language for every tier: which files belong to
// it and which Monaco language ids its server serves.
type LanguageInfo struct {
	Language Language
	// Extensions are lower-case file name suffixes, dot included.
	Extensions []string
	// MonacoIDs are the Monaco language ids whose models this server serves.
	MonacoIDs []string
	// Experimental marks languages whose upstream server is not yet stable.
	Experimental bool
	// AutoInstallable is the task-host-independent answer to "may the user
	// save this language as an auto-install preference". Whether the actual
	// task host has an installer is decided there, not here.
	AutoInstallable bool
}

// Languages lists every supported language in a stable order.
var Languages = []LanguageInfo{
	{Language: TypeScript, Extensions: []string{".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"}, MonacoIDs: []string{"typescript", "javascript"}, AutoInstallable: true},
	{Language: Python, Extensions: []string{".py", ".pyi"}, MonacoIDs: []string{"python"}, AutoInstallable: true},
	{Language: Go, Extensions: []string{".go"}, MonacoIDs: []string{"go"}, AutoInstallable: true},
	{Language: Rust, Extensions: []string{".rs"}, MonacoIDs: []string{"rust"}, AutoInstallable: true},
	{Language: Kotlin, Extensions: []string{".kt", ".kts"}, MonacoIDs: []string{"kotlin"}, Experimental: true},
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

// ForFile returns the language serving a file name (by extension) and
// whether there is one.
func ForFile(name string) (LanguageInfo, bool) {
	ext := strings.ToLower(path.Ext(name))
	if ext == "" {
		return LanguageInfo{}, false
	}
	for _, l := range Languages {
		for _, e := range l.Extensions {
			if e == ext {
				return l, true
			}
		}
	}
	return LanguageInfo{}, false
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
