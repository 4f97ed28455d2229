package client

import "time"

// Clock schedules delayed work. Tests inject a manual clock so debouncing is
// driven by the test, not by sleeps.
type Clock interface {
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	// Stop cancels the call; it reports false if it already ran or stopped.
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// AfterFunc runs f on its own goroutine after d.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
