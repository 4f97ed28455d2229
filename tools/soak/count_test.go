//go:build linux

package soak

import (
	"testing"
	"time"
)

// The proven count is the most intervals open at one instant; intervals
// that only touch do not overlap.
func TestMaxProven(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var l liveCount
	if got := l.maxProven(); got != 0 {
		t.Fatalf("empty: %d", got)
	}
	l.prove(at(0), at(10))
	l.prove(at(10), at(20)) // touches the first
	l.prove(at(5), at(15))
	l.prove(at(6), at(7))
	l.prove(at(30), at(30)) // empty: not recorded
	if got := l.maxProven(); got != 3 {
		t.Fatalf("got %d, want 3 (0-10, 5-15 and 6-7 at 6 ms)", got)
	}
}
