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
	"slices"
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
	byOwner         map[string][]lsptypes.Diagnostic
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
	if len(ds) == 0 && (e == nil || e.byOwner[owner] == nil) {
		s.mu.Unlock()
		return // nothing there, nothing to say
	}
	if e == nil {
		if files == nil {
			files = make(map[string]*entry)
			s.sessions[key] = files
		}
		e = &entry{byOwner: make(map[string][]lsptypes.Diagnostic)}
		files[path] = e
	}
	e.model, e.language = model, language
	if len(ds) == 0 {
		delete(e.byOwner, owner)
		if len(e.byOwner) == 0 {
			delete(files, path)
		}
	} else {
		e.byOwner[owner] = ds
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
			for owner := range e.byOwner {
				if strings.HasPrefix(owner, prefix) {
					delete(e.byOwner, owner)
					hit = true
				}
			}
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
// diagnostics in a stable order of owners.
func (s *Store) List(session string) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	files := s.sessions[strings.ToLower(session)]
	out := make([]File, 0, len(files))
	for path, e := range files {
		owners := make([]string, 0, len(e.byOwner))
		for o := range e.byOwner {
			owners = append(owners, o)
		}
		slices.Sort(owners)
		f := File{Path: path, Model: e.model, Language: e.language}
		for _, o := range owners {
			f.Diagnostics = append(f.Diagnostics, e.byOwner[o]...)
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
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
		b = j.AppendString(append(b, `{"path":`...), f.Path)
		b = j.AppendString(append(b, `,"model":`...), f.Model)
		b = j.AppendString(append(b, `,"language":`...), f.Language)
		b = append(append(b, `,"markers":`...), monaco.MarkersJSON(monaco.FromDiagnostics(f.Diagnostics, mapURI))...)
		b = append(b, '}')
	}
	return append(b, ']')
}
