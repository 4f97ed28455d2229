package relay

import "sync/atomic"

// tracker counts the relay's active streams. It is the seam for the
// connection cap: admission will become "add unless at the limit", and a
// refused stream closes with wire.CloseCapacity before any task host is
// started or resumed.
type tracker struct {
	n atomic.Int64
}

// add counts a stream in and returns the new count.
func (t *tracker) add() int64 { return t.n.Add(1) }

// done counts a stream out.
func (t *tracker) done() { t.n.Add(-1) }

// count returns the number of active streams.
func (t *tracker) count() int64 { return t.n.Load() }
