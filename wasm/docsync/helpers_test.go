package docsync

import (
	"encoding/json"
	"sync"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// manualClock fires timers, and ends the turn of the event loop, only
// when the test says so.
type manualClock struct {
	mu     sync.Mutex
	timers []*manualTimer
	soon   []func()
}

type manualTimer struct {
	c       *manualClock
	f       func()
	stopped bool
	fired   bool
}

func (c *manualClock) AfterFunc(_ clock.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{c: c, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped && !t.fired
	t.stopped = true
	return was
}

func (c *manualClock) Soon(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.soon = append(c.soon, f)
}

// endTurn runs what waits for the end of the turn, as the event loop does
// once the JavaScript running now returned.
func (c *manualClock) endTurn() {
	c.mu.Lock()
	run := c.soon
	c.soon = nil
	c.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// armed counts the timers neither fired nor stopped.
func (c *manualClock) armed() int {
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

// fire ends the turn, then runs every live timer, as if the debounce
// elapsed.
func (c *manualClock) fire() {
	c.endTurn()
	c.mu.Lock()
	var run []func()
	for _, t := range c.timers {
		if !t.stopped && !t.fired {
			t.fired = true
			run = append(run, t.f)
		}
	}
	c.timers = nil
	c.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// sent is one recorded notification, params re-decoded from JSON.
type sent struct {
	conn   string
	method string
	params map[string]any
	raw    string
}

// recorder records the notifications of every connection in one order.
type recorder struct {
	mu  sync.Mutex
	log []sent
}

func (r *recorder) sender(conn string) Sender {
	return func(method string, params jsonlite.Appender) error {
		b := params.AppendJSON(nil)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		r.mu.Lock()
		r.log = append(r.log, sent{conn: conn, method: method, params: m, raw: string(b)})
		r.mu.Unlock()
		return nil
	}
}

func (r *recorder) take() []sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.log
	r.log = nil
	return out
}

// model is a fake Monaco model: text plus versionId.
type model struct {
	mu      sync.Mutex
	text    string
	version int
}

func (m *model) Text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.text
}
