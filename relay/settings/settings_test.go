package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/pgdb"
	"github.com/kandev/lsp/tools/pgtest"
)

// TestMain stops the PostgreSQL server the store tests start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// The JSON names are the contract's.
func TestFieldNamesMatchWire(t *testing.T) {
	t.Parallel()
	want := []string{wire.SettingAutoStartLanguages, wire.SettingAutoInstallLanguages,
		wire.SettingServerConfigs, wire.SettingStatusLocation, wire.SettingLanguageServers,
		wire.SettingFormatters, wire.SettingServerFeatures}
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
		{`{"lsp_language_servers": {"python": ["tsgo"]}}`, wire.SettingLanguageServers, `"python": unknown server "tsgo" (one of pyright, basedpyright, pylsp)`},
		{`{"lsp_language_servers": {"python": ["pyright", "pyright"]}}`, wire.SettingLanguageServers, `"python": server "pyright" is listed twice`},
		{`{"lsp_formatters": {"python": "eslint"}}`, wire.SettingFormatters, `"python": unknown server "eslint"`},
		{`{"lsp_formatters": ["eslint"]}`, wire.SettingFormatters, "an object"},
		{`{"lsp_server_features": {"eslint": ["format", "spelling"]}}`, wire.SettingServerFeatures, `"eslint": unknown feature "spelling"`},
		{`{"lsp_server_features": {"deno": []}}`, wire.SettingServerFeatures, `unknown server "deno"`},
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

// storeFixture is one kind of Store under the shared suite. connect
// returns a new handle on one database each call — two of them are two
// replicas — closed when the test ends; raw writes a stored field as an
// older, newer or hand-edited program may have (nil: the store keeps
// nothing outside the process).
type storeFixture struct {
	connect func(t *testing.T) Store
	raw     func(t *testing.T, user, name, value string)
}

// storeSuite is the behaviour every Store shares; each kind runs it on a
// fresh database of its own.
func storeSuite(t *testing.T, fresh func(t *testing.T) storeFixture) {
	t.Run("Contract", func(t *testing.T) {
		t.Parallel()
		storeContract(t, fresh(t).connect(t))
	})
	t.Run("ReplicasShare", func(t *testing.T) {
		t.Parallel()
		f := fresh(t)
		a, b := f.connect(t), f.connect(t)
		ctx := t.Context()
		langs := []string{"python"}
		_, err := a.Update(ctx, "u", Patch{AutoStartLanguages: &langs})
		require.NoError(t, err)
		got, err := b.Load(ctx, "u")
		require.NoError(t, err)
		assert.Equal(t, langs, got.AutoStartLanguages, "a save through one replica is read through another")
		loc := wire.StatusLocationStatusBar
		got, err = b.Update(ctx, "u", Patch{StatusLocation: &loc})
		require.NoError(t, err)
		assert.Equal(t, langs, got.AutoStartLanguages, "a partial save through the other keeps the first's field")
	})
	t.Run("LastWriteWinsWhole", func(t *testing.T) {
		t.Parallel()
		f := fresh(t)
		lastWriteWinsWhole(t, f.connect(t), f.connect(t))
	})
	t.Run("NormalizesStoredValues", func(t *testing.T) {
		t.Parallel()
		f := fresh(t)
		if f.raw == nil {
			t.Skip("nothing is stored outside the process")
		}
		normalizesStoredValues(t, f.connect(t), f.raw)
	})
}

// lastWriteWinsWhole saves one user's settings from two replicas at once,
// every save setting every field to values of its own generation: whatever
// the order, each save's answer and the final settings are one save's
// values, never fields of two.
func lastWriteWinsWhole(t *testing.T, replicas ...Store) {
	ctx := t.Context()
	gen := func(g int) Patch {
		start := []string{string(wire.Languages[g%len(wire.Languages)].Language)}
		install := []string{}
		loc := wire.StatusLocationToolbar
		if g%2 == 1 {
			loc = wire.StatusLocationStatusBar
			install = []string{"go"}
		}
		cfgs := map[string]json.RawMessage{"go": json.RawMessage(fmt.Sprintf(`{"gen":%d}`, g))}
		servers := map[string][]string{}
		return Patch{AutoStartLanguages: &start, AutoInstallLanguages: &install, ServerConfigs: &cfgs,
			StatusLocation: &loc, LanguageServers: &servers}
	}
	consistent := func(s Settings) {
		t.Helper()
		var c struct{ Gen int }
		require.NoError(t, json.Unmarshal(s.ServerConfigs["go"], &c))
		want := Default().Apply(gen(c.Gen))
		assert.Equal(t, want.AutoStartLanguages, s.AutoStartLanguages, "generation %d", c.Gen)
		assert.Equal(t, want.AutoInstallLanguages, s.AutoInstallLanguages, "generation %d", c.Gen)
		assert.Equal(t, want.StatusLocation, s.StatusLocation, "generation %d", c.Gen)
	}
	const writers, saves = 8, 15
	var wg sync.WaitGroup
	for w := range writers {
		store := replicas[w%len(replicas)]
		wg.Go(func() {
			for i := range saves {
				got, err := store.Update(ctx, "u", gen(w*saves+i))
				if !assert.NoError(t, err) {
					return
				}
				consistent(got)
			}
		})
	}
	wg.Wait()
	for _, s := range replicas {
		got, err := s.Load(ctx, "u")
		require.NoError(t, err)
		consistent(got)
	}
}

// normalizesStoredValues: fields a newer or hand-edited database holds are
// normalized, not fatal.
func normalizesStoredValues(t *testing.T, s Store, raw func(t *testing.T, user, name, value string)) {
	for name, value := range map[string]string{
		wire.SettingAutoStartLanguages:   `["go","cobol","go"]`,
		wire.SettingAutoInstallLanguages: `["kotlin","rust"]`,
		wire.SettingServerConfigs:        `{"go":{"a":1},"cobol":{},"python":"x","basedpyright":{"b":2},"ruff":{}}`,
		wire.SettingStatusLocation:       `"sidebar"`,
		wire.SettingLanguageServers:      `{"typescript":["tsgo","x"],"python":["gone"],"cobol":["gopls"],"go":[]}`,
		"lsp_future_field":               `true`,
	} {
		raw(t, "u", name, value)
	}
	ctx := t.Context()
	got, err := s.Load(ctx, "u")
	require.NoError(t, err)
	assert.Equal(t, []string{"go"}, got.AutoStartLanguages)
	assert.Equal(t, []string{"rust"}, got.AutoInstallLanguages)
	// A store keeps every well-formed server id (an operator's entries
	// are not its to know); the relay's catalog cleans the rest (Clean).
	assert.ElementsMatch(t, []string{"go", "basedpyright", "cobol", "ruff"}, keys(got.ServerConfigs))
	assert.Equal(t, wire.StatusLocationToolbar, got.StatusLocation)
	assert.Equal(t, map[string][]string{"typescript": {"tsgo", "x"}, "python": {"gone"}}, got.LanguageServers,
		"built-in servers of another language and unknown languages are dropped")
	clean := Servers{"x": {"typescript"}}.Clean(got)
	assert.ElementsMatch(t, []string{"go", "basedpyright"}, keys(clean.ServerConfigs))
	assert.Equal(t, map[string][]string{"typescript": {"tsgo", "x"}}, clean.LanguageServers, "the operator's x stays, gone goes")

	raw(t, "u", wire.SettingAutoStartLanguages, `{"not":"a list"}`)
	got, err = s.Load(ctx, "u")
	require.NoError(t, err, "a field that no longer decodes keeps its default")
	assert.Equal(t, []string{}, got.AutoStartLanguages)
	assert.Equal(t, map[string][]string{"typescript": {"tsgo", "x"}, "python": {"gone"}}, got.LanguageServers, "and the others are kept")

	// A save over such a field works, and keeps the unknown field.
	langs := []string{"python"}
	got, err = s.Update(ctx, "u", Patch{AutoStartLanguages: &langs})
	require.NoError(t, err)
	assert.Equal(t, langs, got.AutoStartLanguages)
}

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	storeSuite(t, func(*testing.T) storeFixture {
		m := NewMemory()
		return storeFixture{connect: func(*testing.T) Store { return m }}
	})
}

func TestSQLiteStore(t *testing.T) {
	t.Parallel()
	storeSuite(t, func(t *testing.T) storeFixture {
		path := filepath.Join(t.TempDir(), "a", "b", "settings.db")
		var first *SQLite
		return storeFixture{
			connect: func(t *testing.T) Store {
				s, err := OpenSQLite(path)
				require.NoError(t, err, "creates missing directories")
				t.Cleanup(func() { _ = s.Close() })
				if first == nil {
					first = s
				}
				return s
			},
			raw: func(t *testing.T, user, name, value string) {
				_, err := first.db.Exec(`INSERT INTO user_settings(user_id, name, value) VALUES(?, ?, ?)
					ON CONFLICT(user_id, name) DO UPDATE SET value = excluded.value`, user, name, value)
				require.NoError(t, err)
			},
		}
	})
}

func TestPostgresStore(t *testing.T) {
	t.Parallel()
	storeSuite(t, func(t *testing.T) storeFixture {
		dsn := pgtest.Database(t)
		var first *pgxpool.Pool
		return storeFixture{
			connect: func(t *testing.T) Store {
				pool, err := pgdb.Open(t.Context(), dsn)
				require.NoError(t, err)
				t.Cleanup(pool.Close)
				if first == nil {
					first = pool
				}
				return NewPostgres(pool)
			},
			raw: func(t *testing.T, user, name, value string) {
				_, err := first.Exec(t.Context(), `INSERT INTO kandev_lsp_user_settings(user_id, doc)
					VALUES($1, json_build_object($2::text, $3::json))
					ON CONFLICT (user_id) DO UPDATE SET doc = (kandev_lsp_user_settings.doc::jsonb || excluded.doc::jsonb)::json`,
					user, name, value)
				require.NoError(t, err)
			},
		}
	})
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

// A row of the key/value table that is not JSON at all keeps its default.
func TestSQLiteRowNotJSON(t *testing.T) {
	t.Parallel()
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "settings.db"))
	require.NoError(t, err)
	defer s.Close()
	_, err = s.db.Exec(`INSERT INTO user_settings(user_id, name, value) VALUES('u', ?, 'not json')`, wire.SettingAutoStartLanguages)
	require.NoError(t, err)
	got, err := s.Load(context.Background(), "u")
	require.NoError(t, err)
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
		Formatters:           map[string]string{},
		ServerFeatures:       map[string][]string{},
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
