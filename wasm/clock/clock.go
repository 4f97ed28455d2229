// Package clock is lsp.wasm's time: durations, the wall clock in
// milliseconds and timers that run a function once.
//
// lsp.wasm does not import the standard time package. Importing it links
// its initialisation (a GODEBUG setting, which brings internal/godebug,
// internal/bisect and the runtime's metrics table) and, once a time.Time
// can reach an interface, its formatting and parsing, for a client that
// only needs "call f in 200 ms" and "now, in milliseconds". With package
// context, which brings time (see package ctxlite), that was 280 KB of
// lsp.wasm, 77 KB of its gzip size. In a browser the timers are the page's
// setTimeout (as the time package's are under GOOS=js); elsewhere, where
// the client's logic is tested, they are the time package's.
package clock

// Duration is a span of time in nanoseconds, like time.Duration, so that
// constants read the same: 200 * clock.Millisecond.
type Duration int64

// Common durations.
const (
	Nanosecond  Duration = 1
	Millisecond          = 1_000_000 * Nanosecond
	Second               = 1000 * Millisecond
	Minute               = 60 * Second
)

// Milliseconds is d in whole milliseconds, rounded toward zero.
func (d Duration) Milliseconds() int64 { return int64(d / Millisecond) }

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	// Stop cancels the call; it reports false if it already ran or stopped.
	Stop() bool
}

// Clock tells time and schedules delayed work. Code takes a Clock where a
// test must drive time by hand (debouncing, idle teardown, elapsed time);
// Real is the wall clock.
type Clock interface {
	// Now is the time in milliseconds (Unix time for Real).
	Now() int64
	// AfterFunc runs f on its own goroutine after d.
	AfterFunc(d Duration, f func()) Timer
}

// Real is the wall clock: Now and AfterFunc of this package.
type Real struct{}

// Now is the Unix time in milliseconds.
func (Real) Now() int64 { return Now() }

// AfterFunc runs f on its own goroutine after d.
func (Real) AfterFunc(d Duration, f func()) Timer { return AfterFunc(d, f) }
