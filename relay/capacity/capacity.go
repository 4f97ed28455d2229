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
	"time"
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
	// the slot back. When a slot of the same session, language and user
	// is held (Slot.Hold), the resume takes that one over instead of
	// counting anew: the slot follows the stream, not the replica.
	Resuming bool
}

// heldKey is what a resume must match to take over a held slot. The
// server is left out: a resume names the server its first request named,
// or none, and either way it finds the stream it lost.
func (h Holder) heldKey() string { return h.Session + "\x00" + h.Language + "\x00" + h.User }

// A Slot is one admitted stream's place under the cap. Exactly one of
// Release and Hold takes effect, whichever is called first; later calls
// do nothing, so a handler may defer Release and still Hold on its way
// out.
type Slot struct {
	once    sync.Once
	release func()
	hold    func(grace time.Duration)
}

// Release gives the slot back.
func (s *Slot) Release() { s.once.Do(s.release) }

// Hold keeps the slot counted for grace after its stream ended because
// the browser's path was lost: the task host holds the server for that
// long, and a held server must count like a live one or the cap would
// admit a new stream for each server held. A resume of the stream takes
// the slot over (Holder.Resuming); untaken, it comes back when grace
// ends. A grace of zero or less is Release.
func (s *Slot) Hold(grace time.Duration) {
	if grace <= 0 {
		s.Release()
		return
	}
	s.once.Do(func() { s.hold(grace) })
}

// Cap is an active-stream cap.
type Cap interface {
	// Acquire takes a slot for h and returns it with the slots in use
	// with it. When all are in use it takes nothing and reports ok false
	// (inUse is the count it saw). An error means the cap could not be
	// asked (the database is unreachable); nothing was taken.
	Acquire(ctx context.Context, h Holder) (slot *Slot, inUse int, ok bool, err error)
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
	// Held is how many of Global are held for a resume (Slot.Hold).
	Held int
}

// Local is the cap of one process: a counter, and one per user when a
// user's share is capped too.
type Local struct {
	max, perUser int
	replica      string

	mu    sync.Mutex
	n     int
	users map[string]int           // streams per user, when perUser > 0
	held  map[string][]*time.Timer // held slots by Holder.heldKey, each ending at its timer
}

// NewLocal returns a per-process cap of max slots, of which one user may
// hold at most perUser (0: no share, one user may take every slot);
// replica names this process in Usage.
func NewLocal(max, perUser int, replica string) *Local {
	return &Local{max: max, perUser: perUser, replica: replica, users: map[string]int{}, held: map[string][]*time.Timer{}}
}

// Acquire implements Cap. A user at their share is refused like a full
// cap, with inUse their own count.
func (l *Local) Acquire(_ context.Context, h Holder) (*Slot, int, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h.Resuming && l.takeHeldLocked(h.heldKey()) {
		return l.slot(h), l.n, true, nil
	}
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
	return l.slot(h), l.n, true, nil
}

// slot returns the Slot of a counted stream of h.
func (l *Local) slot(h Holder) *Slot {
	return &Slot{
		release: func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.giveBackLocked(h)
		},
		hold: func(grace time.Duration) {
			key := h.heldKey()
			l.mu.Lock()
			defer l.mu.Unlock()
			var t *time.Timer
			t = time.AfterFunc(grace, func() {
				l.mu.Lock()
				defer l.mu.Unlock()
				// Taken over meanwhile: the resumed stream owns the count.
				if l.dropHeldLocked(key, t) {
					l.giveBackLocked(h)
				}
			})
			l.held[key] = append(l.held[key], t)
		},
	}
}

func (l *Local) giveBackLocked(h Holder) {
	l.n--
	if l.perUser > 0 {
		if l.users[h.User]--; l.users[h.User] == 0 {
			delete(l.users, h.User)
		}
	}
}

// takeHeldLocked takes over the oldest held slot of key, if any.
func (l *Local) takeHeldLocked(key string) bool {
	ts := l.held[key]
	if len(ts) == 0 {
		return false
	}
	ts[0].Stop() // if it already fired, its callback finds the slot gone
	l.dropHeldLocked(key, ts[0])
	return true
}

// dropHeldLocked removes t from key's held slots and reports whether it
// was there.
func (l *Local) dropHeldLocked(key string, t *time.Timer) bool {
	ts := l.held[key]
	for i, x := range ts {
		if x == t {
			ts = append(ts[:i:i], ts[i+1:]...)
			if len(ts) == 0 {
				delete(l.held, key)
			} else {
				l.held[key] = ts
			}
			return true
		}
	}
	return false
}

// Usage implements Cap.
func (l *Local) Usage(context.Context) (Usage, error) {
	l.mu.Lock()
	n, held := l.n, 0
	for _, ts := range l.held {
		held += len(ts)
	}
	l.mu.Unlock()
	u := Usage{Max: l.max, Global: n, Held: held, Replicas: map[string]int{}}
	if n > 0 {
		u.Replicas[l.replica] = n
	}
	return u, nil
}
