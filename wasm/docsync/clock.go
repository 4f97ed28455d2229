package docsync

import "github.com/kandev/lsp/wasm/clock"

// Clock schedules delayed work; tests inject a manual one.
type Clock interface {
	AfterFunc(d clock.Duration, f func()) Timer
	// Soon runs f once the current turn of the event loop is over: in a
	// browser, after the JavaScript that called into Go (Monaco's change
	// listeners) has returned, before the page handles its next event.
	Soon(f func())
}

// Timer is a scheduled call that can be cancelled.
type Timer = clock.Timer

// RealClock is the wall clock.
type RealClock struct{}

// AfterFunc runs f on its own goroutine after d.
func (RealClock) AfterFunc(d clock.Duration, f func()) Timer { return clock.AfterFunc(d, f) }

// Soon runs f on its own goroutine. In lsp.wasm that goroutine runs before
// Go hands the thread back to JavaScript, so the turn is the call into Go;
// the binding's clock waits for the end of the JavaScript turn instead.
func (RealClock) Soon(f func()) { go f() }
