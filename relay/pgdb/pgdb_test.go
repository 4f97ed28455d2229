package pgdb

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/tools/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestIsDSN(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"postgres://u@h/db": true, "postgresql://h/db?sslmode=disable": true,
		"/var/lib/kandev/settings.db": false, "settings.db": false, "postgres.db": false, "": false,
	} {
		assert.Equal(t, want, IsDSN(s), s)
	}
}

func pool(t *testing.T, dsn string) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(p.Close)
	return p
}

// A database of the first schema (settings only) gains the lease table and
// keeps its users' settings; a second open changes nothing more.
func TestMigratesFirstSchema(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	ctx := t.Context()
	old := pool(t, dsn)
	require.NoError(t, Migrate(ctx, old, 1))
	_, err := old.Exec(ctx, `INSERT INTO kandev_lsp_user_settings(user_id, doc) VALUES('alice', '{"lsp_status_location":"status_bar"}')`)
	require.NoError(t, err)
	v, err := Version(ctx, old)
	require.NoError(t, err)
	require.Equal(t, 1, v)

	for range 2 {
		p, err := Open(ctx, dsn)
		require.NoError(t, err)
		v, err := Version(ctx, p)
		require.NoError(t, err)
		assert.Equal(t, SchemaVersion, v)
		var doc string
		require.NoError(t, p.QueryRow(ctx, `SELECT doc::text FROM kandev_lsp_user_settings WHERE user_id = 'alice'`).Scan(&doc))
		assert.JSONEq(t, `{"lsp_status_location":"status_bar"}`, doc, "settings kept")
		var leases int
		require.NoError(t, p.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases`).Scan(&leases))
		assert.Zero(t, leases)
		p.Close()
	}
}

// A database of a newer program is refused, not rewritten.
func TestRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	ctx := t.Context()
	p := pool(t, dsn)
	require.NoError(t, Migrate(ctx, p, SchemaVersion))
	_, err := p.Exec(ctx, `UPDATE kandev_lsp_schema SET version = 99`)
	require.NoError(t, err)
	_, err = Open(ctx, dsn)
	assert.ErrorContains(t, err, "newer")
	v, err := Version(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, 99, v, "left as it was")
}

// Replicas that start together migrate one after the other.
func TestConcurrentOpens(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Database(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			p, err := Open(context.Background(), dsn)
			if assert.NoError(t, err) {
				p.Close()
			}
		})
	}
	wg.Wait()
	v, err := Version(t.Context(), pool(t, dsn))
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, v)
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	_, err := Open(t.Context(), "postgres://u:secret@[::1/db")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "secret", "a password never reaches a log")
}
