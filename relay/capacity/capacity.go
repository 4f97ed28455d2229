// Package capacity is the relay's active-stream cap (the spec's connection
// cap, KANDEV_LSP_MAX_CONNECTIONS): a stream takes a slot after its session
// and executor are known good and before any task host is started or
// resumed, and gives it back when it ends — on every path.
//
// Two implementations: Local counts the streams of one process (one relay,
// the default), Leases counts the streams of every replica that shares one
// PostgreSQL database, each slot a lease row that a dead replica's
// heartbeat stops renewing, so its slots come back within a bound.
package capacity

import (
	"context"
	"sync"
	"sync/atomic"
)

// Holder says who takes a slot, for the lease table and the logs.
type Holder struct {
	Session, Language, Server string
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

// Local is the cap of one process: an atomic counter.
type Local struct {
	max     int64
	replica string
	n       atomic.Int64
}

// NewLocal returns a per-process cap of max slots; replica names this
// process in Usage.
func NewLocal(max int, replica string) *Local { return &Local{max: int64(max), replica: replica} }

// Acquire implements Cap.
func (l *Local) Acquire(context.Context, Holder) (func(), int, bool, error) {
	for {
		n := l.n.Load()
		if n >= l.max {
			return nil, int(n), false, nil
		}
		if l.n.CompareAndSwap(n, n+1) {
			var once sync.Once
			return func() { once.Do(func() { l.n.Add(-1) }) }, int(n + 1), true, nil
		}
	}
}

// Usage implements Cap.
func (l *Local) Usage(context.Context) (Usage, error) {
	n := int(l.n.Load())
	u := Usage{Max: int(l.max), Global: n, Replicas: map[string]int{}}
	if n > 0 {
		u.Replicas[l.replica] = n
	}
	return u, nil
}
