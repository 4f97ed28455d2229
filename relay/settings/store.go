package settings

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
)

// Store keeps the user's settings. Implementations are safe for concurrent
// use and return normalized Settings (see Settings).
type Store interface {
	// Load returns the stored settings, Default() where nothing was saved.
	Load(ctx context.Context) (Settings, error)
	// Update applies a patch from DecodePatch atomically and returns the
	// settings as stored afterwards.
	Update(ctx context.Context, p Patch) (Settings, error)
	// Close releases the store.
	Close() error
}

// Memory is a Store that lives as long as the process: for embedders that
// do not persist settings (the web demo) and for tests.
type Memory struct {
	mu sync.Mutex
	s  Settings
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{s: Default()} }

// Load implements Store.
func (m *Memory) Load(context.Context) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s.clone(), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, p Patch) (Settings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s = m.s.Apply(p).clone().normalize()
	return m.s.clone(), nil
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
	return s
}
