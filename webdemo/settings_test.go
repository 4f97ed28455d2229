package webdemo

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kandev/lsp/internal/wire"

	"github.com/kandev/lsp/relay/settings"
	"github.com/stretchr/testify/require"
)

// A new demo database starts Go, TypeScript and Python on their own and
// lets the task host install every language it has an installer for, so
// Start works for JSON or YAML without a trip to Settings; a database with
// the user's choices keeps them.
func TestNewSettingsDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.db")
	store, err := OpenSettings(path)
	require.NoError(t, err)
	s, err := store.Load(context.Background(), settings.LocalUser)
	require.NoError(t, err)
	require.Equal(t, []string{"go", "typescript", "python"}, s.AutoStartLanguages)
	var installable []string
	for _, l := range wire.Languages {
		if l.AutoInstallable {
			installable = append(installable, string(l.Language))
		}
	}
	require.Equal(t, installable, s.AutoInstallLanguages, "every language a server of which the agent can install")
	require.Subset(t, s.AutoInstallLanguages, []string{"typescript", "python", "go", "rust", "json", "yaml", "dockerfile", "php"})
	require.NotContains(t, s.AutoInstallLanguages, "c")

	none := []string{}
	_, err = store.Update(context.Background(), settings.LocalUser, settings.Patch{AutoInstallLanguages: &none})
	require.NoError(t, err)
	require.NoError(t, store.Close())
	store, err = OpenSettings(path)
	require.NoError(t, err)
	defer store.Close()
	s, err = store.Load(context.Background(), settings.LocalUser)
	require.NoError(t, err)
	require.Empty(t, s.AutoInstallLanguages)
}
