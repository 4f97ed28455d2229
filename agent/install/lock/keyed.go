package lock

import (
	"context"
	"sync"
)

// Keyed is a set of mutexes named by key, created on demand and dropped when
// no one holds or waits for them. The zero value is ready to use.
type Keyed struct {
	mu sync.Mutex
	m  map[string]*entry
}

type entry struct {
	sem  chan struct{} // one slot: holding it is holding the lock
	refs int           // holders and waiters
}

// Lock waits until the key is free or ctx ends. On success the caller must
// call the returned unlock exactly once.
func (k *Keyed) Lock(ctx context.Context, key string) (unlock func(), err error) {
	k.mu.Lock()
	if k.m == nil {
		k.m = make(map[string]*entry)
	}
	e := k.m[key]
	if e == nil {
		e = &entry{sem: make(chan struct{}, 1)}
		k.m[key] = e
	}
	e.refs++
	k.mu.Unlock()

	select {
	case e.sem <- struct{}{}:
		return func() { <-e.sem; k.drop(key, e) }, nil
	case <-ctx.Done():
		k.drop(key, e)
		return nil, ctx.Err()
	}
}

// drop forgets the caller's reference and the entry once it has none.
func (k *Keyed) drop(key string, e *entry) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e.refs--
	if e.refs == 0 {
		delete(k.m, key)
	}
}

// Refs reports how many callers hold or wait for key; tests use it to see
// that a second install is queued behind the first.
func (k *Keyed) Refs(key string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if e := k.m[key]; e != nil {
		return e.refs
	}
	return 0
}

// Len reports how many keys are held or awaited; tests use it to check
// that nothing is left behind.
func (k *Keyed) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.m)
}
