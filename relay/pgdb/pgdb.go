// Package pgdb is the relay's PostgreSQL database, shared by replicas: the
// DSN test, the connection pool, and the schema every relay table lives in
// (user settings, and the connection cap's slot leases), brought to the
// version this program knows by numbered migrations.
//
// The tables are prefixed kandev_lsp_ so that the relay can share a
// database with the backend that embeds it.
package pgdb

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SchemaVersion is the version Migrate brings a database to. The versions:
//
//	0  nothing of ours
//	1  kandev_lsp_user_settings: one row per user, the settings document
//	2  kandev_lsp_slot_leases: one row per admitted stream of any replica
//	3  kandev_lsp_slot_leases.user_id: whose stream, for a user's share
//	4  kandev_lsp_slot_leases.held: a lost stream's lease kept for its resume
const SchemaVersion = 4

// migrations[i] brings a database from version i to i+1. Append only: a
// shipped step never changes, since databases out there ran it.
var migrations = []string{
	// 1. A whole document per user, so a save replaces it under one row
	// lock and two replicas can never interleave their fields. json, not
	// jsonb: jsonb reorders object keys, and a server's configuration is
	// returned as it was saved.
	`CREATE TABLE kandev_lsp_user_settings (
		user_id    text PRIMARY KEY,
		doc        json NOT NULL,
		updated_at timestamptz NOT NULL DEFAULT now()
	)`,
	// 2. Slot leases of the global connection cap. Times are the
	// database's clock, never a replica's, so replicas need no clock sync.
	`CREATE TABLE kandev_lsp_slot_leases (
		id           text PRIMARY KEY,
		replica      text NOT NULL,
		session_id   text NOT NULL,
		language     text NOT NULL,
		server       text NOT NULL,
		acquired_at  timestamptz NOT NULL,
		heartbeat_at timestamptz NOT NULL,
		expires_at   timestamptz NOT NULL
	);
	CREATE INDEX kandev_lsp_slot_leases_expires ON kandev_lsp_slot_leases (expires_at)`,
	// 3. The user of each lease, so one user's share is counted across
	// replicas like the global cap. Leases of an older replica (rolling
	// upgrade) count for the empty user until they end.
	`ALTER TABLE kandev_lsp_slot_leases ADD COLUMN user_id text NOT NULL DEFAULT ''`,
	// 4. A lease whose browser was lost, kept (not renewed, expiring at
	// the end of the resume grace) so the held server still counts and
	// its resume, on any replica, takes the row over. Older replicas
	// count such rows and never hold one.
	`ALTER TABLE kandev_lsp_slot_leases ADD COLUMN held boolean NOT NULL DEFAULT false`,
}

// schemaLock is the advisory lock key migrations hold: replicas that start
// together migrate one after the other, and the later ones find the work
// done. (An arbitrary constant: "kandev" in ASCII.)
const schemaLock int64 = 0x6b616e646576

// IsDSN reports whether s names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than a file.
func IsDSN(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at dsn and migrates it to SchemaVersion.
// The caller closes the pool.
func Open(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message may hold the password; say only what is wrong.
		return nil, fmt.Errorf("pgdb: malformed DSN")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgdb: %w", err)
	}
	if err := Migrate(ctx, pool, SchemaVersion); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// Migrate brings the database to version target (SchemaVersion but in
// tests of the migrations themselves), in one transaction under the schema
// lock. A database newer than this program is refused, not touched.
func Migrate(ctx context.Context, pool *pgxpool.Pool, target int) error {
	if target < 0 || target > len(migrations) {
		return fmt.Errorf("pgdb: no schema version %d", target)
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock); err != nil {
			return fmt.Errorf("pgdb: schema lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS kandev_lsp_schema (
			one     boolean PRIMARY KEY DEFAULT true CHECK (one),
			version integer NOT NULL
		)`); err != nil {
			return fmt.Errorf("pgdb: %w", err)
		}
		version := 0
		err := tx.QueryRow(ctx, `SELECT version FROM kandev_lsp_schema`).Scan(&version)
		if err != nil && err != pgx.ErrNoRows {
			return fmt.Errorf("pgdb: %w", err)
		}
		switch {
		case version > len(migrations):
			return fmt.Errorf("pgdb: database schema version %d is newer than this program's %d", version, SchemaVersion)
		case version >= target:
			return nil
		}
		for v := version; v < target; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("pgdb: migrate to schema %d: %w", v+1, err)
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO kandev_lsp_schema(version) VALUES($1)
			ON CONFLICT (one) DO UPDATE SET version = excluded.version`, target)
		return err
	})
}

// Version returns the database's schema version (0 before any migration).
func Version(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass('kandev_lsp_schema') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	v := 0
	err := pool.QueryRow(ctx, `SELECT version FROM kandev_lsp_schema`).Scan(&v)
	if err == pgx.ErrNoRows {
		err = nil
	}
	return v, err
}
