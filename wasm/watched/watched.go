// Package watched is lsp.wasm's side of workspace/didChangeWatchedFiles:
// it reads a server's file-watcher registrations (the registerOptions of
// client/registerCapability: glob patterns, relative patterns with a base
// URI or workspace folder, watch kinds) and turns the task host's files
// frames (wire.Files) into the notification those watchers ask for.
//
// A plain pattern is matched against the file's absolute task-host path
// (gopls registers "/abs/folder/**/*.{go,mod}" when relative patterns are
// not supported), a relative pattern against the path below its base.
// Each change is sent at most once, however many watchers match it.
package watched

import (
	"errors"
	"path"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/glob"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

// watcher is one FileSystemWatcher of a registration.
type watcher struct {
	_       [0]func() // incomparable: spares lsp.wasm an equality function
	base    string    // absolute path of a relative pattern's base; "" for a plain one
	pattern string
	kind    int // WatchKind bits: 1 create, 2 change, 4 delete
}

// parseWatchers reads DidChangeWatchedFilesRegistrationOptions.watchers;
// a malformed watcher is skipped, and so is a relative pattern whose base
// is no file:// URI (it can never match a task-host path).
func parseWatchers(opts j.Raw) []watcher {
	v, err := opts.Value()
	if err != nil {
		return nil
	}
	var out []watcher
	for _, w := range v.Get("watchers").Elems() {
		g := w.Get("globPattern")
		kind := 7
		if k, ok := w.Get("kind").Int(); ok {
			kind = int(k)
		}
		if pat, ok := g.Str(); ok {
			out = append(out, watcher{pattern: pat, kind: kind})
			continue
		}
		// A RelativePattern: baseUri is a URI or a WorkspaceFolder.
		base := g.Get("baseUri")
		if base.Kind() == j.Object {
			base = base.Get("uri")
		}
		uri, _ := base.Str()
		pat, ok := g.Get("pattern").Str()
		if abs, isFile := wire.PathFromFileURI(uri); ok && isFile {
			out = append(out, watcher{base: strings.TrimSuffix(abs, "/"), pattern: pat, kind: kind})
		}
	}
	return out
}

// Frame reads a files frame (wire.Files): every valid change goes to
// each, as its workspace-relative path and type, and the result is the
// workspace/didChangeWatchedFiles params for the changes that a watcher
// of the registrations (their registerOptions) asks for — with the
// server's URIs under root, the task host's absolute workspace path — or
// nil for none. Entries with an unknown type, or a path that is empty,
// absolute or leaves the workspace, are skipped.
func Frame(frame []byte, root string, registrations []j.Raw, each func(rel string, typ int)) (j.Raw, error) {
	v, err := j.Parse(frame)
	if err != nil {
		return nil, err
	}
	list := v.Get("files")
	if list.Kind() != j.Array {
		return nil, errors.New("watched: malformed files frame")
	}
	var ws []watcher
	for _, r := range registrations {
		ws = append(ws, parseWatchers(r)...)
	}
	var b []byte
	for _, e := range list.Elems() {
		rel, ok := e.Get("path").Str()
		typ, _ := e.Get("type").Int()
		if !ok || rel == "" || path.Clean("/" + rel)[1:] != rel || typ < wire.FileCreated || typ > wire.FileDeleted {
			continue
		}
		each(rel, int(typ))
		abs := path.Join(root, rel)
		if !wants(ws, abs, int(typ)) {
			continue
		}
		if b == nil {
			b = j.AppendLit(b, `{"changes":[`)
		} else {
			b = append(b, ',')
		}
		b = j.AppendString(j.AppendLit(b, `{"uri":`), wire.FileURI(abs))
		b = append(j.AppendInt(j.AppendLit(b, `,"type":`), typ), '}')
	}
	if b == nil {
		return nil, nil
	}
	return j.AppendLit(b, "]}"), nil
}

// wants reports whether a watcher asks for a change of type typ to abs.
func wants(ws []watcher, abs string, typ int) bool {
	bit := 1 << (typ - 1)
	for _, w := range ws {
		name, ok := abs, true
		if w.base != "" {
			name, ok = strings.CutPrefix(abs, w.base+"/")
		}
		if ok && w.kind&bit != 0 && glob.Match(w.pattern, name) {
			return true
		}
	}
	return false
}
