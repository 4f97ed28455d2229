// Package problems keeps every file's diagnostics per session — open files
// and files no model shows (a server's pushed diagnostics for the whole
// package, related documents of a pull, workspace/diagnostic reports) — as
// the page's problems list. Monaco markers exist only for models; this is
// the list a Problems panel shows, with a change event.
//
// Entries are kept by owner: one marker set of one connection (its pushed
// diagnostics, each pull provider's), so that a report replaces exactly
// what its producer reported before, and a connection's end removes all it
// reported. It is pure Go and safe for concurrent use.
package problems

import (
	"strings"
	"sync"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// File is one file's entry as the list shows it.
type File struct {
	// Path is workspace-relative, with forward slashes.
	Path string
	// Model is the session-scoped Monaco model URI of the file, whether or
	// not a model exists: opening it opens the file.
	Model string
	// Language is the language whose server reported the diagnostics.
	Language string
	// Diagnostics are the file's diagnostics from every owner.
	Diagnostics []lsptypes.Diagnostic
}

// Store is the problems list of every session.
type Store struct {
	mu       sync.Mutex
	sessions map[string]map[string]*entry // session (lower case) → path → entry
	onChange func(session string)
}

// entry is one file of one session.
type entry struct {
	model, language string
	byOwner         []owned // in the order owners first reported
}

// owned is what one owner reported for a file.
type owned struct {
	owner string
	ds    []lsptypes.Diagnostic
}

// find returns the index of owner's report, or -1.
func (e *entry) find(owner string) int {
	for i := range e.byOwner {
		if e.byOwner[i].owner == owner {
			return i
		}
	}
	return -1
}

// New returns an empty store; onChange (may be nil) is called, without the
// store's lock, with the session whose list changed.
func New(onChange func(session string)) *Store {
	return &Store{sessions: make(map[string]map[string]*entry), onChange: onChange}
}

// Set replaces what owner reported for the file path of session; an empty
// ds removes it.
func (s *Store) Set(session, path, model, language, owner string, ds []lsptypes.Diagnostic) {
	key := strings.ToLower(session)
	s.mu.Lock()
	files := s.sessions[key]
	e := files[path]
	if len(ds) == 0 && (e == nil || e.find(owner) < 0) {
		s.mu.Unlock()
		return // nothing there, nothing to say
	}
	if e == nil {
		if files == nil {
			files = make(map[string]*entry)
			s.sessions[key] = files
		}
		e = &entry{}
		files[path] = e
	}
	e.model, e.language = model, language
	switch i := e.find(owner); {
	case len(ds) == 0:
		e.byOwner = append(e.byOwner[:i:i], e.byOwner[i+1:]...)
		if len(e.byOwner) == 0 {
			delete(files, path)
		}
	case i >= 0:
		e.byOwner[i].ds = ds
	default:
		e.byOwner = append(e.byOwner, owned{owner, ds})
	}
	s.mu.Unlock()
	s.changed(key)
}

// Drop removes everything owners whose name starts with prefix reported
// (a connection's end: every set it owned), in every session.
func (s *Store) Drop(prefix string) {
	var touched []string
	s.mu.Lock()
	for key, files := range s.sessions {
		hit := false
		for path, e := range files {
			kept := e.byOwner[:0]
			for _, o := range e.byOwner {
				if strings.HasPrefix(o.owner, prefix) {
					hit = true
				} else {
					kept = append(kept, o)
				}
			}
			e.byOwner = kept
			if len(e.byOwner) == 0 {
				delete(files, path)
			}
		}
		if hit {
			touched = append(touched, key)
		}
	}
	s.mu.Unlock()
	for _, key := range touched {
		s.changed(key)
	}
}

func (s *Store) changed(session string) {
	if s.onChange != nil {
		s.onChange(session)
	}
}

// List returns the files of session with diagnostics, by path; each file's
// diagnostics in the order its owners first reported.
func (s *Store) List(session string) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	files := s.sessions[strings.ToLower(session)]
	out := make([]File, 0, len(files))
	for path, e := range files {
		f := File{Path: path, Model: e.model, Language: e.language}
		for _, o := range e.byOwner {
			f.Diagnostics = append(f.Diagnostics, o.ds...)
		}
		// Insertion by path: lists are short, and the generic sort would
		// cost lsp.wasm more bytes than the list ever costs it time.
		i := len(out)
		out = append(out, f)
		for ; i > 0 && out[i-1].Path > f.Path; i-- {
			out[i] = out[i-1]
		}
		out[i] = f
	}
	return out
}

// AppendJSON appends files as the JS API returns them:
//
//	[{"path","model","language","markers":[Monaco markers]}]
//
// with each marker as monaco.MarkersJSON writes it (one-based lines and
// columns, Monaco severities); mapURI turns a related location's server URI
// into a model URI.
func AppendJSON(b []byte, files []File, mapURI func(string) string) []byte {
	b = append(b, '[')
	for i, f := range files {
		if i > 0 {
			b = append(b, ',')
		}
		b = j.AppendString(j.AppendLit(b, `{"path":`), f.Path)
		b = j.AppendString(j.AppendLit(b, `,"model":`), f.Model)
		b = j.AppendString(j.AppendLit(b, `,"language":`), f.Language)
		b = append(j.AppendLit(b, `,"markers":`), monaco.MarkersJSON(monaco.FromDiagnostics(f.Diagnostics, mapURI))...)
		b = append(b, '}')
	}
	return append(b, ']')
}
