package docsync

import "time"

// Clock schedules delayed work; tests inject a manual one.
type Clock interface {
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// AfterFunc runs f on its own goroutine after d.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
