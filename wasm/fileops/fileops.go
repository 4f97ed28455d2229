// Package fileops is lsp.wasm's side of LSP's file operations
// (workspace/willCreateFiles, willRenameFiles, willDeleteFiles and their
// did* notifications): it reads the page's request, the filters a server
// declared (statically under capabilities.workspace.fileOperations, or by
// client/registerCapability of the method), and writes the params for
// the files a server asked to hear of.
//
// A filter's glob is matched against the file's absolute task-host path,
// as the URI's path (what VS Code matches too); for a rename, against the
// path before it. A filter's "matches" (file or folder) is checked
// against what the page says the entry is: by the time a did* goes out
// the old path no longer exists, so there is nothing left to stat.
package fileops

import (
	"errors"
	"path"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/glob"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Kind is one of the three operations.
type Kind uint8

// The operations, in LSP's order.
const (
	Create Kind = iota
	Rename
	Delete
)

var kindNames = [...]string{"create", "rename", "delete"}

// String is the kind's name in the page's requests: create, rename, delete.
func (k Kind) String() string { return kindNames[k] }

// Method is the request sent before the operation (will) or the
// notification sent after it.
func (k Kind) Method(will bool) string {
	verb := [...]string{"Create", "Rename", "Delete"}[k]
	if will {
		return "workspace/will" + verb + "Files"
	}
	return "workspace/did" + verb + "Files"
}

// capability is the member of ServerCapabilities.workspace.fileOperations
// that holds the method's FileOperationRegistrationOptions.
func (k Kind) capability(will bool) string {
	verb := [...]string{"Create", "Rename", "Delete"}[k]
	if will {
		return "will" + verb
	}
	return "did" + verb
}

// File is one entry of an operation: a workspace-relative path, the new
// path of a rename, and whether the entry is a folder.
type File struct {
	Path, NewPath string
	Folder        bool
}

// Request is the page's operation on one session's workspace.
type Request struct {
	Session string
	Kind    Kind
	Files   []File
}

// ErrMalformed reports a request lsp.wasm cannot read: no session, an
// unknown kind, no files, or a path that is empty, absolute or leaves
// the workspace.
var ErrMalformed = errors.New("fileops: malformed file operation")

// ParseRequest reads the page's JSON:
//
//	{"sessionId":"s","kind":"rename","files":[{"path":"a.ts","newPath":"b.ts","folder":false}]}
func ParseRequest(js string) (Request, error) {
	v, err := j.Parse([]byte(js))
	if err != nil || v.Kind() != j.Object {
		return Request{}, ErrMalformed
	}
	var r Request
	session, _ := v.Get("sessionId").Str()
	kind, _ := v.Get("kind").Str()
	found := false
	for i, name := range kindNames {
		if kind == name {
			r.Kind, found = Kind(i), true
		}
	}
	if session == "" || !found {
		return Request{}, ErrMalformed
	}
	r.Session = session
	for _, e := range v.Get("files").Elems() {
		var f File
		f.Path, _ = e.Get("path").Str()
		f.NewPath, _ = e.Get("newPath").Str()
		f.Folder, _ = e.Get("folder").Bool()
		if !relative(f.Path) || (r.Kind == Rename) != (f.NewPath != "") || f.NewPath != "" && !relative(f.NewPath) {
			return Request{}, ErrMalformed
		}
		r.Files = append(r.Files, f)
	}
	if len(r.Files) == 0 {
		return Request{}, ErrMalformed
	}
	return r, nil
}

// relative reports whether p is a clean workspace-relative path.
func relative(p string) bool {
	return p != "" && p != "." && !strings.HasPrefix(p, "/") && path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
}

// Filter is one FileOperationFilter.
type Filter struct {
	_          [0]func() // incomparable: spares lsp.wasm an equality function
	scheme     string    // "" for any
	glob       string
	matches    string // "file", "folder" or "" for both
	ignoreCase bool
}

// Filters returns the filters a server declared for one method: those of
// its initialize capabilities (caps) and those of each dynamic
// registration of the method still in force (their registerOptions).
func Filters(caps j.Raw, registrations []j.Raw, k Kind, will bool) []Filter {
	var out []Filter
	if v, err := caps.Value(); err == nil {
		out = appendFilters(out, v.Get("workspace").Get("fileOperations").Get(k.capability(will)))
	}
	for _, r := range registrations {
		if v, err := r.Value(); err == nil {
			out = appendFilters(out, v)
		}
	}
	return out
}

// appendFilters reads FileOperationRegistrationOptions.filters; a filter
// without a glob is skipped.
func appendFilters(out []Filter, opts j.Value) []Filter {
	for _, f := range opts.Get("filters").Elems() {
		p := f.Get("pattern")
		g, ok := p.Get("glob").Str()
		if !ok || g == "" {
			continue
		}
		scheme, _ := f.Get("scheme").Str()
		matches, _ := p.Get("matches").Str()
		ic, _ := p.Get("options").Get("ignoreCase").Bool()
		if ic {
			g = strings.ToLower(g)
		}
		out = append(out, Filter{scheme: scheme, glob: g, matches: matches, ignoreCase: ic})
	}
	return out
}

// wants reports whether a filter of fs asks for the file at abs.
func wants(fs []Filter, abs string, folder bool) bool {
	for _, f := range fs {
		if f.scheme != "" && f.scheme != "file" {
			continue
		}
		if f.matches == "file" && folder || f.matches == "folder" && !folder {
			continue
		}
		name := abs
		if f.ignoreCase {
			name = strings.ToLower(name)
		}
		if glob.Match(f.glob, name) {
			return true
		}
	}
	return false
}

// Params returns the params of k's will or did message for the files of
// r a filter of fs asks for, with the server's URIs under root (the task
// host's absolute workspace path), or nil when it asks for none:
//
//	{"files":[{"uri":"file:///w/a.ts"}]}                              create, delete
//	{"files":[{"oldUri":"file:///w/a.ts","newUri":"file:///w/b.ts"}]} rename
func Params(r Request, root string, fs []Filter) j.Raw {
	var b []byte
	for _, f := range r.Files {
		abs := path.Join(root, f.Path)
		if !wants(fs, abs, f.Folder) {
			continue
		}
		if b == nil {
			b = j.AppendLit(b, `{"files":[`)
		} else {
			b = append(b, ',')
		}
		if r.Kind == Rename {
			b = j.AppendString(j.AppendLit(b, `{"oldUri":`), wire.FileURI(abs))
			b = j.AppendString(j.AppendLit(b, `,"newUri":`), wire.FileURI(path.Join(root, f.NewPath)))
		} else {
			b = j.AppendString(j.AppendLit(b, `{"uri":`), wire.FileURI(abs))
		}
		b = append(b, '}')
	}
	if b == nil {
		return nil
	}
	return j.AppendLit(b, "]}")
}

// WatchFrame is the operation as the task host's watcher reports changes
// (a wire.Files frame): a create is created, a delete deleted, a rename
// the old path deleted and the new one created.
func WatchFrame(r Request) []byte {
	b := j.AppendLit(nil, `{"files":[`)
	add := func(p string, typ int) {
		if b[len(b)-1] != '[' {
			b = append(b, ',')
		}
		b = j.AppendString(j.AppendLit(b, `{"path":`), p)
		b = append(j.AppendInt(j.AppendLit(b, `,"type":`), int64(typ)), '}')
	}
	for _, f := range r.Files {
		switch r.Kind {
		case Create:
			add(f.Path, wire.FileCreated)
		case Delete:
			add(f.Path, wire.FileDeleted)
		case Rename:
			add(f.Path, wire.FileDeleted)
			add(f.NewPath, wire.FileCreated)
		}
	}
	return j.AppendLit(b, "]}")
}
