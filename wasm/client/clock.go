package client

import "github.com/kandev/lsp/wasm/clock"

// Clock tells time and schedules delayed work. Tests inject a manual clock so
// debouncing, idle teardown and elapsed time are driven by the test.
type Clock = clock.Clock

// Timer is a scheduled call that can be cancelled.
type Timer = clock.Timer

// RealClock is the wall clock.
type RealClock = clock.Real
