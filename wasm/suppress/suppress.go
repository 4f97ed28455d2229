// Package suppress decides when one of Monaco's built-in language
// providers (the TypeScript/JavaScript worker's completion, hover,
// definition, references, signature help, highlights, symbols, rename,
// formatting, code actions and inlay hints) must yield to an LSP
// provider: only for a model owned by an active LSP connection whose server
// advertises that feature. Unrelated sessions and models, and features the
// server does not advertise, keep Monaco's built-ins.
//
// The decision is made in Go and published to JavaScript as one JSON
// snapshot (Snapshot) whenever it changes; the wrapper around Monaco's
// register*Provider functions (WrapperJS) consults that snapshot with a
// Map lookup, so a built-in provider call costs no Go crossing.
package suppress

import (
	"sync"

	"github.com/kandev/lsp/wasm/features"
)

// Suppressible lists the built-in features the wrapper can replace, in
// the order Snapshot writes them.
var Suppressible = []features.Feature{features.Completion, features.Hover, features.Definition, features.References, features.SignatureHelp,
	features.DocumentHighlight, features.DocumentSymbol, features.Rename, features.Formatting, features.RangeFormatting,
	features.OnTypeFormatting, features.CodeAction, features.InlayHints}

// connection is one active LSP connection as suppression sees it.
type connection struct {
	session   string
	languages map[string]bool   // Monaco language ids the server serves
	set       features.Set      // advertised features
	models    map[string]string // owned model URI → its Monaco language id
}

// State is the window's suppression state. Safe for concurrent use.
type State struct {
	mu    sync.Mutex
	conns map[string]*connection // by connection id
	gen   uint64
}

// New returns an empty state: nothing suppressed.
func New() *State { return &State{conns: make(map[string]*connection)} }

// SetConnection records an active (initialized) connection, or updates its
// advertised features after a dynamic registration. languages are the
// Monaco language ids of its models (wire.LanguageInfo.MonacoIDs).
func (s *State) SetConnection(id, session string, languages []string, set features.Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conns[id]
	if c == nil {
		c = &connection{models: make(map[string]string)}
		s.conns[id] = c
	} else if c.session == session && c.set == set && len(c.languages) == len(languages) {
		same := true
		for _, l := range languages {
			same = same && c.languages[l]
		}
		if same {
			return // a registration that changed nothing here: no new snapshot
		}
	}
	c.session = session
	c.languages = make(map[string]bool, len(languages))
	for _, l := range languages {
		c.languages[l] = true
	}
	c.set = set
	s.gen++
}

// RemoveConnection forgets a stopped, crashed or replaced connection: its
// models get their built-ins back; other connections are untouched.
func (s *State) RemoveConnection(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[id]; ok {
		delete(s.conns, id)
		s.gen++
	}
}

// Own records that a model (its session-scoped URI, its Monaco language
// id, its session) is open on a connection. A model whose session or
// language the connection does not serve is not owned.
func (s *State) Own(id, modelURI, session, languageID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conns[id]
	if c == nil || c.session != session || !c.languages[languageID] {
		return false
	}
	c.models[modelURI] = languageID
	s.gen++
	return true
}

// Disown records that a model was closed on a connection.
func (s *State) Disown(id, modelURI string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.conns[id]; c != nil {
		if _, ok := c.models[modelURI]; ok {
			delete(c.models, modelURI)
			s.gen++
		}
	}
}

// Suppressed reports whether Monaco's built-in provider of feature f must
// yield for the model.
func (s *State) Suppressed(modelURI string, f features.Feature) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if _, ok := c.models[modelURI]; ok && c.set.Has(f) {
			return true
		}
	}
	return false
}

// Generation increases with every change, so the binding republishes the
// snapshot only when it moved.
func (s *State) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// Snapshot renders every suppressed (model, feature) pair as one JSON
// object, model URI → feature names, sorted for stable output:
//
//	{"kandev://s1/src/a.ts":["completion","hover"]}
//
// The binding publishes it with
// kandevSuppress.set(JSON.parse(snapshot)) (see WrapperJS).
func (s *State) Snapshot() string {
	s.mu.Lock()
	owned := map[string]features.Set{}
	for _, c := range s.conns {
		for m := range c.models {
			owned[m] |= c.set
		}
	}
	s.mu.Unlock()
	// Sorted by insertion as they come: sort.Strings would link a generic
	// sort into lsp.wasm for this one list of open models.
	uris := make([]string, 0, len(owned))
	for m, set := range owned {
		if set&suppressibleSet() != 0 {
			i := len(uris)
			uris = append(uris, m)
			for ; i > 0 && uris[i-1] > m; i-- {
				uris[i] = uris[i-1]
			}
			uris[i] = m
		}
	}
	b := []byte{'{'}
	for i, m := range uris {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m)
		b = append(b, ':', '[')
		n := 0
		for _, f := range Suppressible {
			if owned[m].Has(f) {
				if n > 0 {
					b = append(b, ',')
				}
				n++
				b = append(b, '"')
				b = append(b, f.String()...)
				b = append(b, '"')
			}
		}
		b = append(b, ']')
	}
	return string(append(b, '}'))
}

func suppressibleSet() features.Set {
	var s features.Set
	for _, f := range Suppressible {
		s = s.With(f)
	}
	return s
}

// appendString writes a JSON string; model URIs are percent-encoded ASCII
// but escape anyway.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
