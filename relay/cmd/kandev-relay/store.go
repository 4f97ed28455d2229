package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/pgdb"
	"github.com/kandev/lsp/relay/settings"
)

// store is where -db keeps the users' settings and, on PostgreSQL, the
// connection cap the replicas share.
type store struct {
	settings settings.Store
	// capacity is the shared cap; nil: the relay's own, per process.
	capacity capacity.Cap
	// close gives back what the store holds; run calls it once the relay
	// has drained.
	close func()
}

// openStore opens -db: a postgres:// URL is the database replicas share
// (settings there, and one connection cap for all of them through slot
// leases), anything else a SQLite file (the default one when empty).
func openStore(ctx context.Context, o *options, logger *slog.Logger) (*store, error) {
	db := o.dbPath
	if db == "" {
		var err error
		if db, err = settings.DefaultPath(); err != nil {
			return nil, err
		}
	}
	if !pgdb.IsDSN(db) {
		sqlite, err := settings.OpenSQLite(db)
		if err != nil {
			return nil, err
		}
		return &store{settings: sqlite, close: func() { _ = sqlite.Close() }}, nil
	}
	pool, err := pgdb.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	leases, err := capacity.NewLeases(capacity.LeasesConfig{
		Pool: pool, Max: o.maxConns, PerUser: o.perUser, Replica: o.replicaID, TTL: o.leaseTTL, Heartbeat: o.leaseBeat, Logger: logger,
	})
	if err != nil {
		pool.Close()
		return nil, err
	}
	logger.Info("connection cap shared through the database", "max", o.maxConns,
		"replica", leases.Replica(), "leaseTTL", leases.TTL(), "heartbeat", o.leaseBeat)
	return &store{
		settings: settings.NewPostgres(pool),
		capacity: leases,
		close: func() {
			// The streams have ended: whatever is still held is given
			// back at once, before the pool goes.
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := leases.Close(cctx); err != nil {
				logger.Warn("shutdown: slot leases left to expire", "ttl", leases.TTL(), "err", err)
			}
			pool.Close()
		},
	}, nil
}
