package settings

import (
	"sync"

	"github.com/kandev/lsp/internal/wire"
)

// Store is browser local storage as the policy needs it. The binding
// implements it over window.localStorage; tests use a map.
type Store interface {
	Get(key string) (string, bool)
	Set(key, value string)
	Remove(key string)
}

// ManualKey is the localStorage key remembering a manual Start.
func ManualKey(sessionID string, lang wire.Language) string {
	return "kandev.lsp.manual." + sessionID + "." + string(lang)
}

// Policy decides whether a just-opened document may connect:
//
//	!stoppedThisRuntime && (autoStart[language] || manualStartInLocalStorage)
//
// Its methods are safe for concurrent use.
type Policy struct {
	store Store // nil: manual starts are not remembered

	mu       sync.Mutex
	settings Settings
	stopped  map[string]bool // ManualKey → stopped in this runtime
}

// NewPolicy returns a policy over a local-storage store (may be nil).
func NewPolicy(store Store) *Policy {
	return &Policy{store: store, stopped: make(map[string]bool)}
}

// SetSettings replaces the user settings and returns the previous ones.
func (p *Policy) SetSettings(s Settings) (old Settings) {
	p.mu.Lock()
	defer p.mu.Unlock()
	old, p.settings = p.settings, s
	return old
}

// Server returns the catalog id of the server chosen for a language, ""
// for its default.
func (p *Policy) Server(lang wire.Language) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.Server(lang)
}

// Servers returns the catalog ids of the servers chosen for a language,
// in order; nil for its default server alone.
func (p *Policy) Servers(lang wire.Language) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.ServerList(lang)
}

// Features returns the user's list of what a server is used for, nil for
// no limit beyond its catalog entry's.
func (p *Policy) Features(server string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.Features[server]
}

// Formatter returns the server the user named to format a language's
// files, "" for the first capable one.
func (p *Policy) Formatter(lang wire.Language) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.Formatters[string(lang)]
}

// Config returns the configuration object of a language's server, or nil
// (Settings.Config).
func (p *Policy) Config(lang wire.Language, server string, lead bool) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings.Config(lang, server, lead)
}

// ShouldConnect is the decision for a just-opened document, a remounted
// editor or a settings change.
func (p *Policy) ShouldConnect(sessionID string, lang wire.Language) bool {
	key := ManualKey(sessionID, lang)
	p.mu.Lock()
	stopped, auto := p.stopped[key], p.settings.AutoStarts(lang)
	p.mu.Unlock()
	if stopped {
		return false
	}
	if auto {
		return true
	}
	if p.store == nil {
		return false
	}
	v, ok := p.store.Get(key)
	return ok && v == "1"
}

// Start records an explicit Start: remembered in local storage and lifting
// this runtime's Stop.
func (p *Policy) Start(sessionID string, lang wire.Language) {
	key := ManualKey(sessionID, lang)
	p.mu.Lock()
	delete(p.stopped, key)
	p.mu.Unlock()
	if p.store != nil {
		p.store.Set(key, "1")
	}
}

// Retry lifts this runtime's Stop without remembering a manual start: the
// user asked for this connection again, not for every future page load.
func (p *Policy) Retry(sessionID string, lang wire.Language) {
	p.mu.Lock()
	delete(p.stopped, ManualKey(sessionID, lang))
	p.mu.Unlock()
}

// Stop records an explicit Stop: auto-start is suppressed for the session
// and language in this runtime (memory only, so another window or a reload
// is unaffected) and the remembered manual start is forgotten.
func (p *Policy) Stop(sessionID string, lang wire.Language) {
	key := ManualKey(sessionID, lang)
	p.mu.Lock()
	p.stopped[key] = true
	p.mu.Unlock()
	if p.store != nil {
		p.store.Remove(key)
	}
}
