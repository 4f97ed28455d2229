package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The JSON names are the contract's.
func TestFieldNamesMatchWire(t *testing.T) {
	t.Parallel()
	want := []string{wire.SettingAutoStartLanguages, wire.SettingAutoInstallLanguages,
		wire.SettingServerConfigs, wire.SettingStatusLocation, wire.SettingLanguageServers}
	typ := reflect.TypeFor[Settings]()
	require.Equal(t, len(want), typ.NumField())
	for i, name := range want {
		assert.Equal(t, name, typ.Field(i).Tag.Get("json"))
	}
}

func TestDecodePatchValid(t *testing.T) {
	t.Parallel()
	p, err := DecodePatch(strings.NewReader(`{
		"lsp_auto_start_languages": ["go", "kotlin", "go"],
		"lsp_auto_install_languages": ["rust", "typescript", "python", "go"],
		"lsp_server_configs": {"go": {"gopls": {"staticcheck": true}}, "python": {}},
		"lsp_status_location": "status_bar"
	}`))
	require.NoError(t, err)
	got := Default().Apply(p)
	assert.Equal(t, []string{"go", "kotlin"}, got.AutoStartLanguages, "duplicates dropped, order kept")
	assert.Equal(t, []string{"rust", "typescript", "python", "go"}, got.AutoInstallLanguages,
		"rust is accepted whatever the relay's OS")
	assert.JSONEq(t, `{"gopls":{"staticcheck":true}}`, string(got.ServerConfigs["go"]))
	assert.Equal(t, wire.StatusLocationStatusBar, got.StatusLocation)

	p, err = DecodePatch(strings.NewReader(`{"lsp_auto_start_languages": null, "lsp_server_configs": null}`))
	require.NoError(t, err)
	assert.Equal(t, []string{}, *p.AutoStartLanguages, "null clears")
	assert.Empty(t, *p.ServerConfigs)
	assert.Nil(t, p.AutoInstallLanguages, "absent fields stay untouched")
	assert.Nil(t, p.StatusLocation)

	p, err = DecodePatch(strings.NewReader(`{}`))
	require.NoError(t, err)
	assert.True(t, p.Empty())

	p, err = DecodePatch(strings.NewReader(`{"lsp_language_servers": {"typescript": ["tsgo"], "python": ["basedpyright"], "go": []}}`))
	require.NoError(t, err)
	got = Default().Apply(p)
	assert.Equal(t, map[string][]string{"typescript": {"tsgo"}, "python": {"basedpyright"}}, got.LanguageServers, "an empty list is the default")
	assert.Equal(t, "tsgo", got.Server("typescript"))
	assert.Equal(t, "", got.Server("go"), "missing: the default")
	// A chosen server is configured by its id, the default by the language.
	p, err = DecodePatch(strings.NewReader(`{"lsp_server_configs": {"typescript": {"a": 1}, "tsgo": {"b": 2}}}`))
	require.NoError(t, err)
	assert.Len(t, *p.ServerConfigs, 2)

	p, err = DecodePatch(strings.NewReader(`{"lsp_language_servers": null}`))
	require.NoError(t, err)
	assert.Empty(t, *p.LanguageServers)
}

// Missing or invalid status locations become toolbar, never a 400.
func TestStatusLocationNormalizes(t *testing.T) {
	t.Parallel()
	for _, v := range []string{`"toolbar"`, `"sidebar"`, `""`, `null`, `42`, `{}`, `"STATUS_BAR"`} {
		p, err := DecodePatch(strings.NewReader(`{"lsp_status_location": ` + v + `}`))
		require.NoError(t, err, v)
		assert.Equal(t, wire.StatusLocationToolbar, *p.StatusLocation, v)
	}
	assert.Equal(t, wire.StatusLocationToolbar, Default().StatusLocation, "missing")
}

// Every rejection names its field.
func TestDecodePatchRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, field, msg string }{
		{`{"lsp_auto_start_languages": ["go", "cobol"]}`, wire.SettingAutoStartLanguages, `unknown language "cobol"`},
		{`{"lsp_auto_start_languages": "go"}`, wire.SettingAutoStartLanguages, "array"},
		{`{"lsp_auto_start_languages": [1]}`, wire.SettingAutoStartLanguages, "array"},
		{`{"lsp_auto_install_languages": ["kotlin"]}`, wire.SettingAutoInstallLanguages, `"kotlin" cannot be auto-installed`},
		{`{"lsp_auto_install_languages": ["Go"]}`, wire.SettingAutoInstallLanguages, `unknown language "Go"`},
		{`{"lsp_server_configs": {"go": "fast"}}`, wire.SettingServerConfigs, `"go": must be a JSON object`},
		{`{"lsp_server_configs": {"go": [1]}}`, wire.SettingServerConfigs, `"go": must be a JSON object`},
		{`{"lsp_server_configs": {"go": null}}`, wire.SettingServerConfigs, `"go": must be a JSON object`},
		{`{"lsp_server_configs": {"cobol": {}}}`, wire.SettingServerConfigs, `unknown language or server "cobol"`},
		{`{"lsp_server_configs": {"ruff": {}}}`, wire.SettingServerConfigs, `unknown language or server "ruff"`},
		{`{"lsp_server_configs": []}`, wire.SettingServerConfigs, "object"},
		{`{"lsp_auto_start_language": ["go"]}`, "lsp_auto_start_language", "unknown field"},
		{`{"lsp_language_servers": {"typescript": ["deno"]}}`, wire.SettingLanguageServers, `"typescript": unknown server "deno"`},
		{`{"lsp_language_servers": {"python": ["tsgo"]}}`, wire.SettingLanguageServers, `"python": unknown server "tsgo" (one of pyright, basedpyright)`},
		{`{"lsp_language_servers": {"python": ["pyright", "basedpyright"]}}`, wire.SettingLanguageServers, "choose one"},
		{`{"lsp_language_servers": {"cobol": ["gopls"]}}`, wire.SettingLanguageServers, `unknown language "cobol"`},
		{`{"lsp_language_servers": {"go": [1]}}`, wire.SettingLanguageServers, "arrays of server ids"},
		{`{"lsp_language_servers": ["gopls"]}`, wire.SettingLanguageServers, "an object"},
	} {
		_, err := DecodePatch(strings.NewReader(tc.body))
		var fe *FieldError
		require.ErrorAs(t, err, &fe, tc.body)
		assert.Equal(t, tc.field, fe.Field, tc.body)
		assert.Contains(t, fe.Message, tc.msg, tc.body)
	}
	for _, body := range []string{``, `[]`, `null`, `"x"`, `{"a":1} {}`, `{`} {
		_, err := DecodePatch(strings.NewReader(body))
		assert.ErrorIs(t, err, ErrNotObject, body)
	}
}

func storeContract(t *testing.T, s Store) {
	ctx := context.Background()
	const user = "alice"
	got, err := s.Load(ctx, user)
	require.NoError(t, err)
	assert.Equal(t, Default(), got, "nothing saved")

	langs := []string{"go", "rust"}
	loc := wire.StatusLocationStatusBar
	got, err = s.Update(ctx, user, Patch{AutoInstallLanguages: &langs, StatusLocation: &loc})
	require.NoError(t, err)
	assert.Equal(t, langs, got.AutoInstallLanguages)
	assert.Equal(t, []string{}, got.AutoStartLanguages)

	cfgs := map[string]json.RawMessage{"go": json.RawMessage(`{"gopls":{"hints":{"x":1}}}`)}
	got, err = s.Update(ctx, user, Patch{ServerConfigs: &cfgs})
	require.NoError(t, err)
	assert.Equal(t, langs, got.AutoInstallLanguages, "a partial update keeps other fields")
	assert.Equal(t, loc, got.StatusLocation)
	assert.JSONEq(t, string(cfgs["go"]), string(got.ServerConfigs["go"]))

	servers := map[string][]string{"typescript": {"tsgo"}}
	got, err = s.Update(ctx, user, Patch{LanguageServers: &servers})
	require.NoError(t, err)
	assert.Equal(t, servers, got.LanguageServers)
	assert.Equal(t, langs, got.AutoInstallLanguages, "a partial update keeps other fields")

	// Returned values are copies.
	got.AutoInstallLanguages[0] = "python"
	got.LanguageServers["typescript"][0] = "typescript-language-server"
	again, err := s.Load(ctx, user)
	require.NoError(t, err)
	assert.Equal(t, langs, again.AutoInstallLanguages)
	assert.Equal(t, "tsgo", again.Server("typescript"))

	// Concurrent partial updates of different fields both land.
	var wg sync.WaitGroup
	start := []string{"kotlin"}
	wg.Go(func() { _, err := s.Update(ctx, user, Patch{AutoStartLanguages: &start}); assert.NoError(t, err) })
	wg.Go(func() { _, err := s.Update(ctx, user, Patch{AutoInstallLanguages: &langs}); assert.NoError(t, err) })
	wg.Wait()
	again, err = s.Load(ctx, user)
	require.NoError(t, err)
	assert.Equal(t, start, again.AutoStartLanguages)
	assert.Equal(t, langs, again.AutoInstallLanguages)

	// Another user's settings are their own: alice's saves are not
	// theirs, and theirs do not touch alice's.
	bob, err := s.Load(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, Default(), bob, "bob saved nothing")
	only := []string{"python"}
	bob, err = s.Update(ctx, "bob", Patch{AutoInstallLanguages: &only})
	require.NoError(t, err)
	assert.Equal(t, only, bob.AutoInstallLanguages)
	assert.Equal(t, wire.StatusLocationToolbar, bob.StatusLocation, "nothing of alice's")
	again, err = s.Load(ctx, user)
	require.NoError(t, err)
	assert.Equal(t, langs, again.AutoInstallLanguages, "bob's save left alice's")
	assert.Equal(t, loc, again.StatusLocation)
}

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	storeContract(t, NewMemory())
}

func TestSQLiteStore(t *testing.T) {
	t.Parallel()
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "a", "b", "settings.db"))
	require.NoError(t, err, "creates missing directories")
	defer s.Close()
	storeContract(t, s)
}

// Settings survive closing and reopening the database file.
func TestSQLitePersists(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "settings.db")
	s, err := OpenSQLite(path)
	require.NoError(t, err)
	ctx := context.Background()
	p, err := DecodePatch(strings.NewReader(`{"lsp_auto_start_languages":["python"],
		"lsp_server_configs":{"python":{"python":{"analysis":{"typeCheckingMode":"strict"}}}},
		"lsp_status_location":"status_bar"}`))
	require.NoError(t, err)
	want, err := s.Update(ctx, LocalUser, p)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = OpenSQLite(path)
	require.NoError(t, err)
	defer s.Close()
	got, err := s.Load(ctx, LocalUser)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// Rows a newer or hand-edited database holds are normalized, not fatal.
func TestSQLiteNormalizesStoredValues(t *testing.T) {
	t.Parallel()
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "settings.db"))
	require.NoError(t, err)
	defer s.Close()
	for name, value := range map[string]string{
		wire.SettingAutoStartLanguages:   `["go","cobol","go"]`,
		wire.SettingAutoInstallLanguages: `["kotlin","rust"]`,
		wire.SettingServerConfigs:        `{"go":{"a":1},"cobol":{},"python":"x","basedpyright":{"b":2},"ruff":{}}`,
		wire.SettingStatusLocation:       `"sidebar"`,
		wire.SettingLanguageServers:      `{"typescript":["tsgo","x"],"python":["gone"],"cobol":["gopls"],"go":[]}`,
		"lsp_future_field":               `true`,
	} {
		_, err := s.db.Exec(`INSERT INTO user_settings(user_id, name, value) VALUES('u', ?, ?)`, name, value)
		require.NoError(t, err)
	}
	got, err := s.Load(context.Background(), "u")
	require.NoError(t, err)
	assert.Equal(t, []string{"go"}, got.AutoStartLanguages)
	assert.Equal(t, []string{"rust"}, got.AutoInstallLanguages)
	assert.ElementsMatch(t, []string{"go", "basedpyright"}, keys(got.ServerConfigs))
	assert.Equal(t, wire.StatusLocationToolbar, got.StatusLocation)
	assert.Equal(t, map[string][]string{"typescript": {"tsgo"}}, got.LanguageServers,
		"servers the built-in catalog no longer lists are dropped, lists cut to the one supported")

	_, err = s.db.Exec(`UPDATE user_settings SET value = 'not json' WHERE user_id = 'u' AND name = ?`, wire.SettingAutoStartLanguages)
	require.NoError(t, err)
	got, err = s.Load(context.Background(), "u")
	require.NoError(t, err, "a row that no longer decodes keeps its default")
	assert.Equal(t, []string{}, got.AutoStartLanguages)
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// schemaV0 is the first schema exactly as it shipped, before settings were
// kept per user.
const schemaV0 = `CREATE TABLE IF NOT EXISTS user_settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT`

// A database of the first schema keeps its settings: they become the local
// user's (the one user such a relay had); other users start from defaults;
// a second open changes nothing more.
func TestSQLiteMigratesFirstSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "settings.db")
	old, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = old.Exec(schemaV0)
	require.NoError(t, err)
	for name, value := range map[string]string{
		wire.SettingAutoStartLanguages:   `["go","python"]`,
		wire.SettingAutoInstallLanguages: `["go"]`,
		wire.SettingServerConfigs:        `{"go":{"gopls":{"staticcheck":true}}}`,
		wire.SettingStatusLocation:       `"status_bar"`,
	} {
		_, err := old.Exec(`INSERT INTO user_settings(name, value) VALUES(?, ?)`, name, value)
		require.NoError(t, err)
	}
	require.NoError(t, old.Close())

	want := Settings{
		AutoStartLanguages:   []string{"go", "python"},
		AutoInstallLanguages: []string{"go"},
		ServerConfigs:        map[string]json.RawMessage{"go": json.RawMessage(`{"gopls":{"staticcheck":true}}`)},
		StatusLocation:       wire.StatusLocationStatusBar,
		LanguageServers:      map[string][]string{},
	}
	ctx := context.Background()
	for range 2 { // the second open finds the migration done
		s, err := OpenSQLite(path)
		require.NoError(t, err)
		got, err := s.Load(ctx, LocalUser)
		require.NoError(t, err)
		assert.Equal(t, want, got, "the saved settings are the local user's")
		other, err := s.Load(ctx, "someone-else")
		require.NoError(t, err)
		assert.Equal(t, Default(), other)
		var version int
		require.NoError(t, s.db.QueryRow(`PRAGMA user_version`).Scan(&version))
		assert.Equal(t, schemaVersion, version)
		var tables int
		require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables))
		assert.Equal(t, 1, tables, "the old table is gone")
		require.NoError(t, s.Close())
	}
}

// A database from a newer program is refused, not rewritten.
func TestSQLiteRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "settings.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(`PRAGMA user_version = 99`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, err = OpenSQLite(path)
	assert.ErrorContains(t, err, "newer")
}

func TestOpenSQLiteErrors(t *testing.T) {
	t.Parallel()
	_, err := OpenSQLite("")
	assert.Error(t, err)
	_, err = OpenSQLite(filepath.Join(t.TempDir(), "a?b.db"))
	assert.Error(t, err)
	dir := t.TempDir()
	_, err = OpenSQLite(dir) // a directory is not a database
	assert.Error(t, err)
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("os.UserConfigDir reads XDG_CONFIG_HOME on Linux only")
	}
	t.Setenv("XDG_CONFIG_HOME", "/tmp/cfg")
	p, err := DefaultPath()
	require.NoError(t, err)
	assert.Equal(t, "/tmp/cfg/kandev/settings.db", p)
}
