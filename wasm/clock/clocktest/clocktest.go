// Package clocktest is a clock.Clock that a test turns by hand, for the
// packages of lsp.wasm that take one: timers run only when the test
// advances time or fires them, on the test's goroutine, and work queued
// for the end of the event loop's turn (Soon) runs only when the turn
// ends. Tests then say when a debounce elapsed or an idle connection
// timed out, instead of sleeping.
package clocktest

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/kandev/lsp/wasm/clock"
)

// Epoch is a Manual clock's time zero.
var Epoch = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// Manual is a clock that moves only when told. Its zero value is ready:
// it starts at Epoch with no timers. It is safe for concurrent use.
type Manual struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*timer
	soon   []func()
}

type timer struct {
	c       *Manual
	at      time.Duration
	f       func()
	stopped bool
	fired   bool
}

// Now is Epoch plus the time advanced so far, in Unix milliseconds.
func (c *Manual) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Epoch.Add(c.now).UnixMilli()
}

// AfterFunc schedules f for d after now; it runs when Advance passes that
// time, or at the next Fire.
func (c *Manual) AfterFunc(d clock.Duration, f func()) clock.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now + time.Duration(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels the timer; it reports false if it already ran or stopped.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.fired || t.stopped {
		return false
	}
	t.stopped = true
	return true
}

// Soon queues f for the end of the turn (a client's Config.Soon).
func (c *Manual) Soon(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.soon = append(c.soon, f)
}

// EndTurn runs what waits for the end of the turn, on the calling
// goroutine, as the event loop does once the JavaScript running now
// returned.
func (c *Manual) EndTurn() {
	c.mu.Lock()
	run := c.soon
	c.soon = nil
	c.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// Advance ends the turn, then moves time forward by d and runs every timer
// now due, the earliest first, on the calling goroutine.
func (c *Manual) Advance(d time.Duration) {
	c.EndTurn()
	c.mu.Lock()
	c.now += d
	c.mu.Unlock()
	c.run(func(t *timer) bool { return t.at <= c.now })
}

// Fire ends the turn, then runs every timer neither run nor stopped,
// whenever it is due, as if each one's delay had elapsed (the earliest
// first); time stays.
func (c *Manual) Fire() {
	c.EndTurn()
	c.run(func(*timer) bool { return true })
}

// run runs the live timers that due selects, without the lock.
func (c *Manual) run(due func(*timer) bool) {
	c.mu.Lock()
	var run []*timer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped || t.fired:
		case due(t):
			t.fired = true
			run = append(run, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	// As a real clock would: the earliest due first, ties as scheduled.
	slices.SortStableFunc(run, func(a, b *timer) int { return cmp.Compare(a.at, b.at) })
	for _, t := range run {
		t.f()
	}
}

// Armed counts the timers neither run nor stopped.
func (c *Manual) Armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped && !t.fired {
			n++
		}
	}
	return n
}
