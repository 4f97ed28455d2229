//go:build !(js && wasm)

package clock

import "time"

// Now is the Unix time in milliseconds.
func Now() int64 { return time.Now().UnixMilli() }

// AfterFunc runs f on its own goroutine after d.
func AfterFunc(d Duration, f func()) Timer { return time.AfterFunc(time.Duration(d), f) }
