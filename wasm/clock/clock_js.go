//go:build js && wasm

package clock

import (
	"sync"
	"syscall/js"
)

// The page's own timers. These few calls are the only JavaScript outside
// package jsbind: timers sit below every package that needs them, and
// jsbind sits above them all.
var (
	setTimeout   = js.Global().Get("setTimeout")
	clearTimeout = js.Global().Get("clearTimeout")
	date         = js.Global().Get("Date")
)

// Now is the Unix time in milliseconds (Date.now).
func Now() int64 { return int64(date.Call("now").Float()) }

// AfterFunc runs f on its own goroutine after d, through setTimeout. The
// JavaScript callback is released when it fires or the timer stops.
func AfterFunc(d Duration, f func()) Timer {
	t := &jsTimer{}
	t.fn = js.FuncOf(func(js.Value, []js.Value) any {
		if t.finish() {
			go f()
		}
		return nil
	})
	ms := (d + Millisecond - 1) / Millisecond // never early
	if ms < 0 {
		ms = 0
	}
	t.mu.Lock()
	t.id = setTimeout.Invoke(t.fn, float64(ms))
	t.mu.Unlock()
	return t
}

type jsTimer struct {
	mu   sync.Mutex
	fn   js.Func
	id   js.Value
	done bool // fired or stopped
}

// finish marks the timer done and releases its callback; it reports
// whether the timer was still pending.
func (t *jsTimer) finish() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	t.fn.Release()
	return true
}

// Stop clears the page's timer if it has not fired.
func (t *jsTimer) Stop() bool {
	t.mu.Lock()
	id := t.id
	t.mu.Unlock()
	if !t.finish() {
		return false
	}
	clearTimeout.Invoke(id)
	return true
}
