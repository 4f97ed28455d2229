package capacity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Lease defaults. A replica renews its leases every DefaultHeartbeat; one
// that stops (SIGKILL, a lost machine, a partition) has its leases expire
// DefaultLeaseTTL after its last renewal, so its slots come back at most
// that long after it died. The TTL is three heartbeats: two renewals may
// fail (a database restart, a slow network) before a live replica's
// streams stop counting.
const (
	DefaultLeaseTTL  = 30 * time.Second
	DefaultHeartbeat = 10 * time.Second
)

// releaseTimeout bounds giving a lease back after its stream ended; a
// release that fails leaves the row to expire.
const releaseTimeout = 5 * time.Second

// capLock is the advisory lock key admission holds while it counts and
// inserts, so that two replicas can never both take the last slot. (An
// arbitrary constant, distinct from pgdb's schema lock.)
const capLock int64 = 0x6b616e646576_01

// LeasesConfig configures Leases.
type LeasesConfig struct {
	// Pool is the database replicas share, migrated by pgdb.Open.
	Pool *pgxpool.Pool
	// Max is the global cap. Every replica should be given the same.
	Max int
	// PerUser is how many of the slots one user may hold across every
	// replica (Holder.User); 0: no share. Every replica should be given
	// the same.
	PerUser int
	// Replica names this process in the lease rows and in Usage; empty:
	// NewReplicaID().
	Replica string
	// TTL and Heartbeat: DefaultLeaseTTL and DefaultHeartbeat when zero.
	// Heartbeat must be well below TTL.
	TTL, Heartbeat time.Duration
	// Logger receives renewal failures; nil discards them.
	Logger *slog.Logger
}

// Leases is the cap shared by replicas: one row of kandev_lsp_slot_leases
// per admitted stream, counted and inserted in one transaction under an
// advisory lock, renewed by this replica's heartbeat, deleted when the
// stream ends. All times are the database's clock.
type Leases struct {
	pool      *pgxpool.Pool
	max       int
	perUser   int
	replica   string
	ttl       time.Duration
	heartbeat time.Duration
	log       *slog.Logger

	mu   sync.Mutex
	held map[string]struct{} // ids of this replica's live leases

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// NewLeases returns the shared cap and starts its heartbeat; Close stops it.
func NewLeases(cfg LeasesConfig) (*Leases, error) {
	if cfg.Pool == nil || cfg.Max < 1 {
		return nil, errors.New("capacity: leases need a pool and a cap of at least 1")
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultLeaseTTL
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.Heartbeat >= cfg.TTL {
		return nil, fmt.Errorf("capacity: heartbeat %v must be shorter than the lease TTL %v", cfg.Heartbeat, cfg.TTL)
	}
	if cfg.Replica == "" {
		cfg.Replica = NewReplicaID()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Leases{
		pool: cfg.Pool, max: cfg.Max, perUser: cfg.PerUser, replica: cfg.Replica, ttl: cfg.TTL, heartbeat: cfg.Heartbeat,
		log: cfg.Logger, held: map[string]struct{}{}, stop: make(chan struct{}), done: make(chan struct{}),
	}
	go l.beat()
	return l, nil
}

// NewReplicaID returns a replica id: the host name, the pid and random
// bits, so a restarted replica never renews its predecessor's leases.
func NewReplicaID() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "relay"
	}
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), randomHex(4))
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Replica returns this replica's id.
func (l *Leases) Replica() string { return l.replica }

// TTL returns the lease bound: how long after its last renewal a dead
// replica's slots come back.
func (l *Leases) TTL() time.Duration { return l.ttl }

// Acquire implements Cap. A user at their share is refused like a full
// cap, with inUse their own count. A resume takes over a held lease of
// its session, language and user, whichever replica held it: the row
// becomes this replica's.
func (l *Leases) Acquire(ctx context.Context, h Holder) (*Slot, int, bool, error) {
	id := randomHex(12)
	var (
		n  int
		ok bool
	)
	err := pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		// Serializes admissions of every replica; held to commit only.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, capLock); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases WHERE expires_at > clock_timestamp()`).Scan(&n); err != nil {
			return err
		}
		if h.Resuming {
			err := tx.QueryRow(ctx, `UPDATE kandev_lsp_slot_leases
				SET replica = $1, held = false, heartbeat_at = clock_timestamp(), expires_at = clock_timestamp() + $2 * interval '1 millisecond'
				WHERE id = (SELECT id FROM kandev_lsp_slot_leases
					WHERE held AND session_id = $3 AND language = $4 AND user_id = $5 AND expires_at > clock_timestamp()
					ORDER BY acquired_at LIMIT 1)
				RETURNING id`, l.replica, l.ttl.Milliseconds(), h.Session, h.Language, h.User).Scan(&id)
			switch {
			case err == nil:
				ok = true
				return nil
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
		}
		if n >= l.max && !h.Resuming {
			return nil
		}
		if l.perUser > 0 && !h.Resuming {
			var mine int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM kandev_lsp_slot_leases
				WHERE user_id = $1 AND expires_at > clock_timestamp()`, h.User).Scan(&mine); err != nil {
				return err
			}
			if mine >= l.perUser {
				n = mine
				return nil
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO kandev_lsp_slot_leases
			(id, replica, session_id, language, server, user_id, acquired_at, heartbeat_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp(), clock_timestamp(), clock_timestamp() + $7 * interval '1 millisecond')`,
			id, l.replica, h.Session, h.Language, h.Server, h.User, l.ttl.Milliseconds())
		if err == nil {
			n, ok = n+1, true
		}
		return err
	})
	if err != nil {
		return nil, 0, false, fmt.Errorf("capacity: acquire: %w", err)
	}
	if !ok {
		return nil, n, false, nil
	}
	l.mu.Lock()
	l.held[id] = struct{}{}
	l.mu.Unlock()
	return &Slot{
		release: func() { l.release(id) },
		hold:    func(grace time.Duration) { l.hold(id, grace) },
	}, n, true, nil
}

// release deletes a lease. Not the stream's context: it has ended.
func (l *Leases) release(id string) {
	l.mu.Lock()
	delete(l.held, id)
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	if _, err := l.pool.Exec(ctx, `DELETE FROM kandev_lsp_slot_leases WHERE id = $1`, id); err != nil {
		l.log.Warn("capacity: lease not released; it expires on its own", "lease", id, "ttl", l.ttl, "err", err)
	}
}

// hold marks a lease held for grace: no longer renewed, it expires by
// itself when grace ends unless a resume takes it over first, on this
// replica or another. A replica that stops meanwhile leaves it so, and
// Close does not delete it. Should the mark fail, the lease is not
// renewed either and expires within the TTL.
func (l *Leases) hold(id string, grace time.Duration) {
	l.mu.Lock()
	delete(l.held, id)
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	if _, err := l.pool.Exec(ctx, `UPDATE kandev_lsp_slot_leases
		SET held = true, expires_at = clock_timestamp() + $2 * interval '1 millisecond'
		WHERE id = $1 AND replica = $3`, id, grace.Milliseconds(), l.replica); err != nil {
		l.log.Warn("capacity: lease not held; it expires on its own", "lease", id, "ttl", l.ttl, "err", err)
	}
}

// beat renews this replica's leases every heartbeat and deletes expired
// rows of any replica, until Close.
func (l *Leases) beat() {
	defer close(l.done)
	t := time.NewTicker(l.heartbeat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if err := l.renew(); err != nil {
			l.log.Warn("capacity: lease renewal failed", "replica", l.replica, "err", err)
		}
	}
}

func (l *Leases) renew() error {
	l.mu.Lock()
	ids := make([]string, 0, len(l.held))
	for id := range l.held {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), l.heartbeat)
	defer cancel()
	if len(ids) > 0 {
		tag, err := l.pool.Exec(ctx, `UPDATE kandev_lsp_slot_leases
			SET heartbeat_at = clock_timestamp(), expires_at = clock_timestamp() + $2 * interval '1 millisecond'
			WHERE id = ANY($1) AND expires_at > clock_timestamp()`, ids, l.ttl.Milliseconds())
		if err != nil {
			return err
		}
		// A lease released meanwhile is gone on purpose; one that had
		// expired (renewals failed for a whole TTL) no longer counts and
		// is not revived: its slot may have been given to another stream.
		if lost := len(ids) - int(tag.RowsAffected()); lost > 0 {
			l.log.Debug("capacity: leases not renewed (released or expired)", "count", lost)
		}
	}
	_, err := l.pool.Exec(ctx, `DELETE FROM kandev_lsp_slot_leases WHERE expires_at <= clock_timestamp()`)
	return err
}

// Usage implements Cap: the live leases of every replica.
func (l *Leases) Usage(ctx context.Context) (Usage, error) {
	rows, err := l.pool.Query(ctx, `SELECT replica, count(*), count(*) FILTER (WHERE held) FROM kandev_lsp_slot_leases
		WHERE expires_at > clock_timestamp() GROUP BY replica`)
	if err != nil {
		return Usage{}, fmt.Errorf("capacity: usage: %w", err)
	}
	u := Usage{Max: l.max, Replicas: map[string]int{}}
	for rows.Next() {
		var (
			replica string
			n, held int
		)
		if err := rows.Scan(&replica, &n, &held); err != nil {
			rows.Close()
			return Usage{}, fmt.Errorf("capacity: usage: %w", err)
		}
		u.Replicas[replica] = n
		u.Global += n
		u.Held += held
	}
	if err := rows.Err(); err != nil {
		return Usage{}, fmt.Errorf("capacity: usage: %w", err)
	}
	return u, nil
}

// Close stops the heartbeat and deletes the leases of this replica's live
// streams (a graceful stop gives their slots back at once); held leases
// stay for their resumes, through another replica. It does not close the
// pool.
func (l *Leases) Close(ctx context.Context) error {
	l.once.Do(func() { close(l.stop) })
	<-l.done
	l.mu.Lock()
	ids := make([]string, 0, len(l.held))
	for id := range l.held {
		ids = append(ids, id)
	}
	clear(l.held)
	l.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	_, err := l.pool.Exec(ctx, `DELETE FROM kandev_lsp_slot_leases WHERE id = ANY($1)`, ids)
	return err
}
