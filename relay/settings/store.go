package settings

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
)

// LocalUser is the one user of a relay without authentication (and of
// kandev-relay's own browser token), and the owner of settings saved before
// they were kept per user.
const LocalUser = "local"

// Store keeps each user's settings, apart: one user's update never changes
// what another loads. Implementations are safe for concurrent use and
// return normalized Settings (see Settings). The user is an opaque id from
// the embedder's authentication.
type Store interface {
	// Load returns user's stored settings, Default() where nothing was
	// saved.
	Load(ctx context.Context, user string) (Settings, error)
	// Update applies a patch from DecodePatch to user's settings
	// atomically and returns them as stored afterwards.
	Update(ctx context.Context, user string, p Patch) (Settings, error)
	// Close releases the store.
	Close() error
}

// Memory is a Store that lives as long as the process: for embedders that
// do not persist settings and for tests.
type Memory struct {
	mu sync.Mutex
	s  map[string]Settings
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{s: map[string]Settings{}} }

// Load implements Store.
func (m *Memory) Load(_ context.Context, user string) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.s[user]; ok {
		return s.clone(), nil
	}
	return Default(), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, user string, p Patch) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.s[user]
	if !ok {
		s = Default()
	}
	s = s.Apply(p).clone().normalize()
	m.s[user] = s
	return s.clone(), nil
}

// Close implements Store.
func (m *Memory) Close() error { return nil }

// clone copies the slices and the map, so a caller cannot change stored
// state through a returned value (RawMessage bytes are never mutated).
func (s Settings) clone() Settings {
	s.AutoStartLanguages = slices.Clone(s.AutoStartLanguages)
	s.AutoInstallLanguages = slices.Clone(s.AutoInstallLanguages)
	s.ServerConfigs = maps.Clone(s.ServerConfigs)
	if s.ServerConfigs == nil {
		s.ServerConfigs = map[string]json.RawMessage{}
	}
	servers := make(map[string][]string, len(s.LanguageServers))
	for lang, ids := range s.LanguageServers {
		servers[lang] = slices.Clone(ids)
	}
	s.LanguageServers = servers
	return s
}
