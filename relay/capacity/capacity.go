// Package capacity is the relay's active-stream cap (the spec's connection
// cap, KANDEV_LSP_MAX_CONNECTIONS): a stream takes a slot after its session
// and executor are known good and before any task host is started or
// resumed, and gives it back when it ends — on every path.
//
// Either may also cap one user's share of the slots, so one user with many
// tabs cannot lock every other user out.
//
// Two implementations: Local counts the streams of one process (one relay,
// the default), Leases counts the streams of every replica that shares one
// PostgreSQL database, each slot a lease row that a dead replica's
// heartbeat stops renewing, so its slots come back within a bound.
package capacity

import (
	"context"
	"sync"
)

// Holder says who takes a slot, for the lease table and the logs. User is
// also what a per-user share counts.
type Holder struct {
	Session, Language, Server, User string
	// Resuming marks a stream that had a slot before its path was lost
	// and now resumes its held server: it takes a slot even when the cap
	// (or the user's share) is full, because its old slot may still be
	// counted — on a replica that died, until that lease expires — and a
	// resume refused there would turn a kept server into an error. A
	// forged token is refused by the agent at once (4009), which gives
	// the slot back.
	Resuming bool
}

// Cap is an active-stream cap.
type Cap interface {
	// Acquire takes a slot for h and returns how to give it back
	// (idempotent) and the slots in use with it. When all are in use it
	// takes nothing and reports ok false (inUse is the count it saw). An
	// error means the cap could not be asked (the database is
	// unreachable); nothing was taken.
	Acquire(ctx context.Context, h Holder) (release func(), inUse int, ok bool, err error)
	// Usage reports the slots in use now.
	Usage(ctx context.Context) (Usage, error)
}

// Usage is what a cap has in use.
type Usage struct {
	// Max is the cap.
	Max int
	// Global is the slots in use across every replica sharing the cap
	// (for Local, this process's).
	Global int
	// Replicas is the slots in use by replica id; replicas holding none
	// are absent.
	Replicas map[string]int
}

// Local is the cap of one process: a counter, and one per user when a
// user's share is capped too.
type Local struct {
	max, perUser int
	replica      string

	mu    sync.Mutex
	n     int
	users map[string]int // streams per user, when perUser > 0
}

// NewLocal returns a per-process cap of max slots, of which one user may
// hold at most perUser (0: no share, one user may take every slot);
// replica names this process in Usage.
func NewLocal(max, perUser int, replica string) *Local {
	return &Local{max: max, perUser: perUser, replica: replica, users: map[string]int{}}
}

// Acquire implements Cap. A user at their share is refused like a full
// cap, with inUse their own count.
func (l *Local) Acquire(_ context.Context, h Holder) (func(), int, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n >= l.max && !h.Resuming {
		return nil, l.n, false, nil
	}
	if l.perUser > 0 {
		if mine := l.users[h.User]; mine >= l.perUser && !h.Resuming {
			return nil, mine, false, nil
		}
		l.users[h.User]++
	}
	l.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.n--
			if l.perUser > 0 {
				if l.users[h.User]--; l.users[h.User] == 0 {
					delete(l.users, h.User)
				}
			}
		})
	}, l.n, true, nil
}

// Usage implements Cap.
func (l *Local) Usage(context.Context) (Usage, error) {
	l.mu.Lock()
	n := l.n
	l.mu.Unlock()
	u := Usage{Max: l.max, Global: n, Replicas: map[string]int{}}
	if n > 0 {
		u.Replicas[l.replica] = n
	}
	return u, nil
}
