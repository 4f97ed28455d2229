package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the Store of relays that run as replicas on one PostgreSQL
// database (package pgdb opens it and owns its schema). Each user is one
// row holding the settings as one JSON document keyed by field name.
//
// An update locks the user's row, applies the patch to the document and
// writes it back whole, so saves of one user from any number of replicas
// are applied one after the other: concurrent saves of different fields
// all land, and of the same fields the last one wins whole — never a mix
// of two saves.
type Postgres struct {
	pool *pgxpool.Pool
}

// NewPostgres returns the store over pool, which must have been migrated
// by pgdb.Open. The pool stays the caller's: Close does not close it.
func NewPostgres(pool *pgxpool.Pool) *Postgres { return &Postgres{pool: pool} }

// Load implements Store.
func (s *Postgres) Load(ctx context.Context, user string) (Settings, error) {
	var doc []byte
	err := s.pool.QueryRow(ctx, `SELECT doc FROM kandev_lsp_user_settings WHERE user_id = $1`, user).Scan(&doc)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Default(), nil
	case err != nil:
		return Settings{}, fmt.Errorf("settings: load: %w", err)
	}
	return decodeDoc(doc).normalize(), nil
}

// Update implements Store.
func (s *Postgres) Update(ctx context.Context, user string, p Patch) (Settings, error) {
	var out Settings
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The row must exist for FOR UPDATE to lock it; a first save by
		// two replicas at once makes one insert and both then lock.
		if _, err := tx.Exec(ctx, `INSERT INTO kandev_lsp_user_settings(user_id, doc) VALUES($1, '{}')
			ON CONFLICT (user_id) DO NOTHING`, user); err != nil {
			return err
		}
		var raw []byte
		if err := tx.QueryRow(ctx, `SELECT doc FROM kandev_lsp_user_settings WHERE user_id = $1 FOR UPDATE`, user).Scan(&raw); err != nil {
			return err
		}
		doc := map[string]json.RawMessage{}
		// A document that is not an object (hand-edited) is replaced: it
		// must not make every save fail.
		_ = json.Unmarshal(raw, &doc)
		if doc == nil {
			doc = map[string]json.RawMessage{}
		}
		for _, f := range p.fields() {
			b, err := json.Marshal(f.value)
			if err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			doc[f.name] = b
		}
		next, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE kandev_lsp_user_settings SET doc = $2, updated_at = now() WHERE user_id = $1`,
			user, string(next)); err != nil {
			return err
		}
		out = decodeDoc(next).normalize()
		return nil
	})
	if err != nil {
		return Settings{}, fmt.Errorf("settings: update: %w", err)
	}
	return out, nil
}

// Close implements Store; the pool is the caller's to close.
func (s *Postgres) Close() error { return nil }

// decodeDoc reads a stored document field by field (see decodeField): a
// field that no longer decodes keeps its default.
func decodeDoc(raw []byte) Settings {
	st := Default()
	var doc map[string]json.RawMessage
	if json.Unmarshal(raw, &doc) != nil {
		return st
	}
	for name, v := range doc {
		st.decodeField(name, v)
	}
	return st
}
