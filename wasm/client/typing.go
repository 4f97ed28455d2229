package client

import (
	"sync"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
)

// backgroundHold is the longest a background call waits for a typing
// call (features.Background, features.Typing): longer than gopls takes
// to answer its biggest completion lists here, so that the wait covers
// them, and short enough that background work keeps up when the user
// types on and typing calls follow one another.
const backgroundHold = 500 * clock.Millisecond

// typingGate counts a connection's typing calls that are out and holds
// its background calls back until none is, or backgroundHold has passed.
// The zero value is ready to use.
type typingGate struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; made when it leaves 0
}

// begin counts one typing call out; end, called once, counts it back.
func (g *typingGate) begin() (end func()) {
	g.mu.Lock()
	if g.n == 0 {
		g.idle = make(chan struct{})
	}
	g.n++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.n--
			if g.n == 0 {
				close(g.idle)
			}
			g.mu.Unlock()
		})
	}
}

// wait returns once no typing call is out, or after hold on k; false if
// ctx ended first (Monaco cancelled the call: the user typed on).
func (g *typingGate) wait(ctx ctxlite.Context, k clock.Clock, hold clock.Duration) bool {
	g.mu.Lock()
	n, idle := g.n, g.idle
	g.mu.Unlock()
	if n == 0 {
		return ctx.Err() == nil
	}
	held := make(chan struct{})
	t := k.AfterFunc(hold, func() { close(held) })
	defer t.Stop()
	select {
	case <-idle:
	case <-held:
	case <-ctx.Done():
		return false
	}
	return ctx.Err() == nil
}
