package webdemo

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// DefaultSettingsPath is the demo's settings database when none is named:
// under the user's config folder, so choices survive a restart.
func DefaultSettingsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kandev", "demo-settings.db"), nil
}

// OpenSettings opens the demo's settings database at path (empty:
// DefaultSettingsPath). A new database starts with Go, TypeScript and
// Python set to auto-start, and every language a built-in server can be
// installed for set to auto-install, so the demo shows intelligence as
// soon as a file opens and Start works for the others — installing a
// missing server on the (local) task host first, as the product does;
// what the user saves is kept.
func OpenSettings(path string) (*settings.SQLite, error) {
	if path == "" {
		var err error
		if path, err = DefaultSettingsPath(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(path)
	store, err := settings.OpenSQLite(path)
	if err != nil {
		return nil, err
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		auto := []string{string(wire.Go), string(wire.TypeScript), string(wire.Python)}
		var install []string
		for _, l := range wire.Languages {
			if l.AutoInstallable {
				install = append(install, string(l.Language))
			}
		}
		// gopls shows inlay hints only when asked to.
		configs := map[string]json.RawMessage{string(wire.Go): json.RawMessage(goplsHints)}
		patch := settings.Patch{AutoStartLanguages: &auto, AutoInstallLanguages: &install, ServerConfigs: &configs}
		if _, err := store.Update(context.Background(), settings.LocalUser, patch); err != nil {
			store.Close()
			return nil, err
		}
	}
	return store, nil
}

// goplsHints is the demo's default gopls configuration: the inlay hints
// gopls offers, on.
const goplsHints = `{"gopls":{"hints":{"assignVariableTypes":true,"compositeLiteralFields":true,"constantValues":true,"functionTypeParameters":true,"parameterNames":true,"rangeVariableTypes":true}}}`
