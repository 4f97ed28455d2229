// Package navigate maps between the two names of a task file: the
// session-scoped Monaco model URI (kandev://<session>/<path>), which keeps
// two sessions' copies of the same task-host path apart, and the clean
// task-host file:// URI the language server sees. It also resolves a
// navigation target (go to definition, a reference, Monaco's own opener)
// to a tab to open or activate, with the Files-tree folders to expand.
//
// Pure Go; the binding passes and receives strings.
package navigate

import (
	"path"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Scheme is the Monaco model URI scheme of task files.
const Scheme = "kandev"

// LibraryScheme is the Monaco model URI scheme of library files: files
// outside the workspace (the Go toolchain's sources, a dependency in the
// module cache, the TypeScript server's lib.dom.d.ts) that the task host
// serves read-only. Its own scheme keeps them apart from workspace files
// in every map and lets the page tell a read-only tab at a glance.
const LibraryScheme = "kandev-lib"

// ContentScheme is the Monaco model URI scheme of documents a language
// server provides itself (LSP 3.18 workspace/textDocumentContent, such as
// jdtls's class files or Deno's built-in declarations): read-only, their
// text asked of the server, under a scheme of their own per session.
const ContentScheme = "kandev-doc"

// ContentURI is the session-scoped model URI of a server document's URI:
// kandev-doc://<session>/<server URI>, spelled as monaco.Uri.from({scheme:
// 'kandev-doc', authority: session, path: '/' + serverURI}).toString()
// spells it.
func ContentURI(session, serverURI string) string {
	var b strings.Builder
	b.WriteString(ContentScheme)
	b.WriteString("://")
	encode(&b, strings.ToLower(session), false)
	b.WriteByte('/')
	encode(&b, serverURI, true)
	return b.String()
}

// ParseContentURI splits a content model URI into its (lower-case)
// session and the server's URI; ok is false for other schemes and for a
// server URI without a scheme of its own.
func ParseContentURI(uri string) (session, serverURI string, ok bool) {
	rest, found := strings.CutPrefix(uri, ContentScheme+"://")
	if !found {
		return "", "", false
	}
	slash := strings.IndexByte(rest, '/')
	if slash <= 0 {
		return "", "", false
	}
	a, ok1 := wire.Unescape(rest[:slash])
	p, ok2 := wire.Unescape(rest[slash+1:])
	if !ok1 || !ok2 || SchemeOf(p) == "" {
		return "", "", false
	}
	return strings.ToLower(a), p, true
}

// SchemeOf is the scheme of a URI (before its first ':'), or "" when it
// has none.
func SchemeOf(uri string) string {
	i := strings.IndexByte(uri, ':')
	if i <= 0 || strings.ContainsAny(uri[:i], "/?#") {
		return ""
	}
	return uri[:i]
}

// ModelURI is the session-scoped model URI of a workspace-relative,
// slash-separated path, spelled exactly as monaco.Uri.from({scheme:
// 'kandev', authority: session, path: '/' + rel}).toString() spells it, so
// it can key maps shared with JavaScript. Note that Monaco lower-cases the
// authority, so session ids that differ only in case share models.
func ModelURI(session, rel string) string {
	var b strings.Builder
	b.Grow(len(Scheme) + 4 + len(session) + len(rel))
	b.WriteString(Scheme)
	b.WriteString("://")
	encode(&b, strings.ToLower(session), false)
	b.WriteByte('/')
	encode(&b, strings.TrimPrefix(rel, "/"), true)
	return b.String()
}

// LibraryURI is the session-scoped model URI of an absolute task-host path
// outside the workspace: kandev-lib://<session>/<absolute path>, spelled
// as monaco.Uri.from({scheme: 'kandev-lib', authority: session, path:
// abs}).toString() spells it.
func LibraryURI(session, abs string) string {
	var b strings.Builder
	b.WriteString(LibraryScheme)
	b.WriteString("://")
	encode(&b, strings.ToLower(session), false)
	encode(&b, abs, true)
	return b.String()
}

// ParseLibraryURI splits a library model URI into its (lower-case) session
// and the cleaned absolute task-host path; ok is false for other schemes,
// escapes that do not decode, and paths that are not absolute.
func ParseLibraryURI(uri string) (session, abs string, ok bool) {
	s, p, ok := split(uri, LibraryScheme)
	if !ok || p == "/" {
		return "", "", false
	}
	return s, path.Clean(p), true
}

// ParseModelURI splits a kandev model URI into its (lower-case) session and
// workspace-relative path. ok is false for other schemes, escapes that do
// not decode, and paths that are empty or leave the workspace.
func ParseModelURI(uri string) (session, rel string, ok bool) {
	s, p, ok := split(uri, Scheme)
	if !ok {
		return "", "", false
	}
	p, ok = cleanRel(p[1:])
	return s, p, ok
}

// split takes a scheme://authority/path URI apart: the lower-case,
// unescaped authority and the unescaped path from its leading slash, query
// and fragment dropped. ok is false for another scheme, an empty authority
// or path, and escapes that do not decode.
func split(uri, scheme string) (authority, p string, ok bool) {
	rest, found := strings.CutPrefix(uri, scheme+"://")
	if !found {
		return "", "", false
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	slash := strings.IndexByte(rest, '/')
	if slash <= 0 {
		return "", "", false
	}
	a, ok1 := wire.Unescape(rest[:slash])
	p, ok2 := wire.Unescape(rest[slash:])
	if !ok1 || !ok2 {
		return "", "", false
	}
	return strings.ToLower(a), p, true
}

// cleanRel cleans a workspace-relative path, refusing "", ".", absolute
// paths and anything that leaves the workspace.
func cleanRel(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// encode writes s as Monaco's Uri.toString does: RFC 3986 unreserved
// characters stay, '/' stays in paths and ':' '[' ']' in the authority;
// everything else is percent-encoded UTF-8 with upper-case hex.
func encode(b *strings.Builder, s string, isPath bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		case isPath && c == '/':
			b.WriteByte(c)
		case !isPath && (c == ':' || c == '[' || c == ']'):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}

// Workspace is one session's task workspace as its task host's ready
// frame described it. It stays valid after the connection stops, so
// navigation keeps using the canonical workspace even if the page's own
// session metadata hydrates later.
type Workspace struct {
	// Session is the session id (the model URI authority).
	Session string
	// Path is the absolute task-host workspace path (ready.workspacePath,
	// or decoded from ready.workspaceUri).
	Path string
	// RepoSubpaths are the repository roots inside the workspace,
	// relative ("" or "." is the workspace itself).
	RepoSubpaths []string
	// Library is whether files outside the workspace open read-only (the
	// page reads them through the task host's library route): their
	// locations then map to library model URIs and navigation to them is
	// handled. The task host decides which paths it serves.
	Library bool
}

// FromReady builds a Workspace from a task-host ready frame.
func FromReady(session string, st wire.Status) (Workspace, bool) {
	p := st.WorkspacePath
	if p == "" && st.WorkspaceURI != "" {
		var ok bool
		if p, ok = wire.PathFromFileURI(st.WorkspaceURI); !ok {
			return Workspace{}, false
		}
	}
	if p == "" {
		return Workspace{}, false
	}
	return Workspace{Session: session, Path: p, RepoSubpaths: st.RepoSubpaths}, true
}

// root is the cleaned workspace path without a trailing slash.
func (w Workspace) root() string {
	r := path.Clean(w.Path)
	if r == "/" {
		return ""
	}
	return r
}

// ServerURI is the clean task-host URI of a workspace-relative path, the
// URI every server of every session sees for that file.
func (w Workspace) ServerURI(rel string) string {
	return wire.FileURI(w.root() + "/" + rel)
}

// ModelURI is the model URI of a workspace-relative path in this session.
func (w Workspace) ModelURI(rel string) string { return ModelURI(w.Session, rel) }

// Rel returns the workspace-relative path of an absolute task-host path,
// and false outside the workspace.
func (w Workspace) Rel(abs string) (string, bool) {
	abs = path.Clean(abs)
	prefix := w.root() + "/"
	rel, ok := strings.CutPrefix(abs, prefix)
	if !ok {
		return "", false
	}
	return cleanRel(rel)
}

// ServerToModel maps a server URI to this session's model URI. It is the
// features.URIMapper for locations: targets outside the workspace get a
// library model URI when w.Library, else keep their URI (the opener then
// reports them unhandled).
func (w Workspace) ServerToModel(serverURI string) string {
	if p, ok := wire.PathFromFileURI(serverURI); ok {
		if rel, ok := w.Rel(p); ok {
			return w.ModelURI(rel)
		}
		if w.Library && w.Path != "" && strings.HasPrefix(p, "/") {
			return LibraryURI(w.Session, path.Clean(p))
		}
	}
	return serverURI
}

// ModelToServer maps one of this session's model URIs, or library model
// URIs, to the server URI.
func (w Workspace) ModelToServer(modelURI string) (string, bool) {
	if s, abs, ok := ParseLibraryURI(modelURI); ok {
		if !strings.EqualFold(s, w.Session) {
			return "", false
		}
		return wire.FileURI(abs), true
	}
	s, rel, ok := ParseModelURI(modelURI)
	if !ok || !strings.EqualFold(s, w.Session) {
		return "", false
	}
	return w.ServerURI(rel), true
}

// Target is where a navigation goes.
type Target struct {
	// Handled is false for targets outside the active session's workspace:
	// the opener returns false and Monaco's other openers run.
	Handled bool `json:"handled"`
	// Path is the workspace-relative path to open through the page's tabs
	// or, for a library file, its absolute task-host path.
	Path string `json:"path,omitempty"`
	// Library marks a file outside the workspace that the task host
	// serves read-only: the page opens it in a read-only tab.
	Library bool `json:"library,omitempty"`
	// Content marks a document a language server provides (Path is its
	// URI): the page opens it in a read-only tab with the text
	// documentContent reads.
	Content bool `json:"content,omitempty"`
	// Model is the session-scoped model URI.
	Model string `json:"model,omitempty"`
	// Ancestors are the Files-tree folders to load and expand, outermost
	// first.
	Ancestors []string `json:"ancestors,omitempty"`
	// Repo and RepoPath name the file relative to its repository, when it
	// lies in one of RepoSubpaths (the other identity a tab may carry).
	Repo     string `json:"repo,omitempty"`
	RepoPath string `json:"repoPath,omitempty"`
}

// Resolve maps a navigation target URI (from the editor opener, a
// definition or a reference) for the active session: one of this
// session's model URIs, or a file:// URI inside the workspace (Monaco's
// built-in intelligence produces those), is handled; with w.Library, so is
// this session's library model URI or a file:// URI outside the workspace,
// as a library target; so is this session's server document
// (ContentURI); anything else — another session's model, a file
// outside the workspace, another scheme — is not. A Workspace without Path
// (no task host reported one yet) handles only this session's model URIs.
func (w Workspace) Resolve(uri string) Target {
	var rel string
	if s, server, ok := ParseContentURI(uri); ok {
		if !strings.EqualFold(s, w.Session) {
			return Target{}
		}
		return Target{Handled: true, Path: server, Content: true, Model: ContentURI(w.Session, server)}
	}
	if s, abs, ok := ParseLibraryURI(uri); ok {
		if !w.Library || !strings.EqualFold(s, w.Session) {
			return Target{}
		}
		return w.library(abs)
	}
	if s, r, ok := ParseModelURI(uri); ok {
		if !strings.EqualFold(s, w.Session) {
			return Target{}
		}
		rel = r
	} else if p, ok := wire.PathFromFileURI(uri); ok && w.Path != "" {
		if rel, ok = w.Rel(p); !ok {
			if w.Library && strings.HasPrefix(p, "/") {
				return w.library(path.Clean(p))
			}
			return Target{}
		}
	} else {
		return Target{}
	}
	t := Target{Handled: true, Path: rel, Model: w.ModelURI(rel), Ancestors: Ancestors(rel)}
	t.Repo, t.RepoPath, _ = w.RepoRelative(rel)
	return t
}

// library is the target of an absolute path outside the workspace.
func (w Workspace) library(abs string) Target {
	return Target{Handled: true, Path: abs, Library: true, Model: LibraryURI(w.Session, abs)}
}

// ResolveJSON is Resolve as one JSON string for the binding's opener.
func (w Workspace) ResolveJSON(uri string) string {
	return string(w.Resolve(uri).AppendJSON(nil))
}

// AppendJSON appends t as JSON, as encoding/json would for its tags.
func (t Target) AppendJSON(b []byte) []byte {
	b = j.AppendLit(b, `{"handled":`)
	b = j.AppendBool(b, t.Handled)
	for _, f := range [...]struct{ key, val string }{{"path", t.Path}, {"model", t.Model}} {
		if f.val != "" {
			b = j.AppendString(j.AppendKey(b, f.key), f.val)
		}
		if f.key == "path" && t.Library {
			b = j.AppendLit(b, `,"library":true`)
		}
		if f.key == "path" && t.Content {
			b = j.AppendLit(b, `,"content":true`)
		}
	}
	if len(t.Ancestors) > 0 {
		b = j.AppendStrings(j.AppendKey(b, "ancestors"), t.Ancestors)
	}
	for _, f := range [...]struct{ key, val string }{{"repo", t.Repo}, {"repoPath", t.RepoPath}} {
		if f.val != "" {
			b = j.AppendString(j.AppendKey(b, f.key), f.val)
		}
	}
	return append(b, '}')
}

// Ancestors lists the folders above a workspace-relative path, outermost
// first: "a/b/c.go" → ["a", "a/b"]. The Files tree loads and expands each
// before marking the file.
func Ancestors(rel string) []string {
	var out []string
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			out = append(out, rel[:i])
		}
	}
	return out
}

// RepoRelative splits a workspace-relative path into the innermost
// repository (one of RepoSubpaths) containing it and the path inside it.
// ok is false when no listed repository contains it; the workspace itself
// ("" or ".") gives repo "" and the path unchanged.
func (w Workspace) RepoRelative(rel string) (repo, sub string, ok bool) {
	best := -1
	for _, r := range w.RepoSubpaths {
		r = strings.Trim(path.Clean("/"+r), "/")
		if r == "" {
			if best < 0 {
				repo, sub, ok, best = "", rel, true, 0
			}
			continue
		}
		if s, found := strings.CutPrefix(rel, r+"/"); found && len(r) > best {
			repo, sub, ok, best = r, s, true, len(r)
		}
	}
	return repo, sub, ok
}

// Tab is an open editor as the page identifies it: Path relative to the
// task root when Repo is "", else relative to repository Repo.
type Tab struct {
	_    [0]func() // incomparable: spares lsp.wasm an equality function
	ID   string    `json:"id"`
	Repo string    `json:"repo,omitempty"`
	Path string    `json:"path"`
}

// FindOpen returns the id of the open tab showing the workspace-relative
// path rel, under either identity — "repo/x.go" from the task root or
// "x.go" inside repository "repo" — so navigation activates it instead of
// opening the file twice.
func (w Workspace) FindOpen(rel string, tabs []Tab) (string, bool) {
	for _, t := range tabs {
		p := t.Path
		if t.Repo != "" && t.Repo != "." {
			p = t.Repo + "/" + p
		}
		if c, ok := cleanRel(p); ok && c == rel {
			return t.ID, true
		}
	}
	return "", false
}
