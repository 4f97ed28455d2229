package relay

import "sync/atomic"

// limiter is the active-stream cap. A stream takes a slot after its session
// and executor are known good and before any task host is started or
// resumed, and gives it back when its handler returns — on every path,
// rejected ones included.
type limiter struct {
	max int64
	n   atomic.Int64
}

func newLimiter(max int) *limiter { return &limiter{max: int64(max)} }

// acquire takes a slot and returns the new count, or reports false (and
// takes nothing) when all max slots are in use.
func (l *limiter) acquire() (int64, bool) {
	for {
		n := l.n.Load()
		if n >= l.max {
			return n, false
		}
		if l.n.CompareAndSwap(n, n+1) {
			return n + 1, true
		}
	}
}

// release gives a slot back.
func (l *limiter) release() { l.n.Add(-1) }

// count returns the number of slots in use.
func (l *limiter) count() int64 { return l.n.Load() }
