package client

import (
	"context"
	"time"
)

// Clock tells time and schedules delayed work. Tests inject a manual clock so
// debouncing, idle teardown and elapsed time are driven by the test.
//
// Now is in milliseconds (Unix time for RealClock), not a time.Time: a
// time.Time behind an interface makes the linker keep time's formatting and
// parsing, about 100 KB of lsp.wasm.
type Clock interface {
	Now() int64
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	// Stop cancels the call; it reports false if it already ran or stopped.
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now is the Unix time in milliseconds.
func (RealClock) Now() int64 { return time.Now().UnixMilli() }

// AfterFunc runs f on its own goroutine after d.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// WithTimeout is context.WithTimeout(context.Background(), d) without a
// deadline: a timer cancels the context after d. lsp.wasm avoids
// context.WithTimeout because its timerCtx puts time.Time behind an
// interface, which makes the linker keep time's formatting and parsing
// (about 100 KB of the binary).
func WithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	t := time.AfterFunc(d, cancel)
	return ctx, func() {
		t.Stop()
		cancel()
	}
}
