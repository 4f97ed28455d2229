package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// SQLite is the persistent Store: one row per user and field in a small
// key/value table, so a partial update touches only the rows of the fields
// it names and a field added later needs no migration.
type SQLite struct {
	db *sql.DB
}

// schemaVersion is the PRAGMA user_version of a database migrate has
// brought up to date. The versions:
//
//	0  no table yet, or the first schema: user_settings(name, value),
//	   one user's settings (kept before settings were per user)
//	1  user_settings(user_id, name, value), one row per user and field
const schemaVersion = 1

const createTable = `CREATE TABLE user_settings (
	user_id TEXT NOT NULL,
	name    TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (user_id, name)
) STRICT`

// DefaultPath is where the standalone relay keeps settings when no -db is
// given: <user config dir>/kandev/settings.db.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("settings: no user config directory: %w", err)
	}
	return filepath.Join(dir, "kandev", "settings.db"), nil
}

// OpenSQLite opens (creating if needed, with its directory) the database
// at path.
func OpenSQLite(path string) (*SQLite, error) {
	if path == "" {
		return nil, errors.New("settings: empty database path")
	}
	// The driver splits its options off at the first '?'.
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("settings: database path %q must not contain '?'", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	// busy_timeout first: another process (a second relay on the same file,
	// an operator's sqlite3 shell) must make us wait, not fail. WAL lets
	// reads proceed during a write. _txlock=immediate takes the write lock
	// at BEGIN, so a read-then-write transaction cannot deadlock on upgrade.
	dsn := path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("settings: open %s: %w", path, err)
	}
	// One connection: the settings API is tiny, and a single connection
	// serializes writers inside the process instead of in SQLite's lock.
	db.SetMaxOpenConns(1)
	if err := migrate(context.Background(), db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("settings: open %s: %w", path, err)
	}
	return &SQLite{db: db}, nil
}

// migrate brings the schema to schemaVersion in one transaction (taken with
// the write lock, so a second relay opening the same file waits and then
// finds the work done). Rows of the first schema become LocalUser's: they
// were saved by the one user a relay without per-user settings had.
func migrate(ctx context.Context, db *sql.DB) (err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	switch {
	case version == schemaVersion:
		return tx.Commit()
	case version > schemaVersion:
		return fmt.Errorf("database schema version %d is newer than this program's %d", version, schemaVersion)
	}
	var tables int
	if err := tx.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'user_settings'`).Scan(&tables); err != nil {
		return err
	}
	type step struct {
		sql  string
		args []any
	}
	steps := []step{{sql: createTable}}
	if tables > 0 {
		steps = []step{
			{sql: `ALTER TABLE user_settings RENAME TO user_settings_v0`},
			{sql: createTable},
			{sql: `INSERT INTO user_settings(user_id, name, value) SELECT ?, name, value FROM user_settings_v0`, args: []any{LocalUser}},
			{sql: `DROP TABLE user_settings_v0`},
		}
	}
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.sql, st.args...); err != nil {
			return fmt.Errorf("migrate to schema %d: %w", schemaVersion, err)
		}
	}
	// PRAGMA takes no parameters; the value is a constant.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// Load implements Store.
func (s *SQLite) Load(ctx context.Context, user string) (Settings, error) {
	return load(ctx, s.db, user)
}

// queryer is what load needs from a *sql.DB or *sql.Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func load(ctx context.Context, q queryer, user string) (Settings, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, value FROM user_settings WHERE user_id = ?`, user)
	if err != nil {
		return Settings{}, fmt.Errorf("settings: load: %w", err)
	}
	defer rows.Close()
	st := Default()
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return Settings{}, fmt.Errorf("settings: load: %w", err)
		}
		st.decodeField(name, []byte(value))
	}
	if err := rows.Err(); err != nil {
		return Settings{}, fmt.Errorf("settings: load: %w", err)
	}
	return st.normalize(), nil
}

// Update implements Store: the patch's fields are written in one
// transaction, then everything is read back in it.
func (s *SQLite) Update(ctx context.Context, user string, p Patch) (_ Settings, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Settings{}, fmt.Errorf("settings: update: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	put := func(name string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO user_settings(user_id, name, value) VALUES(?, ?, ?)
			ON CONFLICT(user_id, name) DO UPDATE SET value = excluded.value`, user, name, string(b))
		return err
	}
	for _, f := range p.fields() {
		if err := put(f.name, f.value); err != nil {
			return Settings{}, fmt.Errorf("settings: update %s: %w", f.name, err)
		}
	}
	st, err := load(ctx, tx, user)
	if err != nil {
		return Settings{}, err
	}
	if err := tx.Commit(); err != nil {
		return Settings{}, fmt.Errorf("settings: update: %w", err)
	}
	return st, nil
}

// Close implements Store.
func (s *SQLite) Close() error { return s.db.Close() }
