package wire

import (
	"net/url"
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

// FileURI turns an absolute slash-separated path (a Windows path such as
// C:/work is accepted too) into a percent-encoded file:// URI, the form LSP
// servers expect for rootUri and document URIs.
func FileURI(p string) string {
	if len(p) >= 2 && p[1] == ':' { // Windows drive path
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p}
	// url.URL.String leaves the authority empty as file:///path only when
	// Host is empty and Path starts with "/", which holds here.
	return u.String()
}

// PathFromFileURI is the inverse of FileURI. It reports false for anything
// that is not an absolute file:// URI without a host.
func PathFromFileURI(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !strings.HasPrefix(u.Path, "/") {
		return "", false
	}
	p := u.Path
	if len(p) >= 3 && p[2] == ':' { // /C:/... on Windows
		p = p[1:]
	}
	return p, true
}
