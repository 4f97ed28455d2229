package client

import (
	"errors"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// reconnectDelays are the waits before each automatic attempt after a
// ready connection lost its path: the first at once (a relay restarting
// behind a balancer is usually there already), then doubling up to 2 s
// and staying there; after the last one the pair shows the error with
// Retry. In all about 18 s plus the attempts themselves — long enough for
// a relay restart or a deploy, short enough that a task host that is
// really gone says so. The cap is low so that an editor is back within
// about 2 s of its path, whenever in the schedule the path returns (with
// gaps of 4 and 5 s it waited up to 5 s for nothing); a failed dial to a
// relay that is down costs the balancer little.
var reconnectDelays = [...]clock.Duration{
	0, 250 * clock.Millisecond, 500 * clock.Millisecond, clock.Second,
	2 * clock.Second, 2 * clock.Second, 2 * clock.Second, 2 * clock.Second,
	2 * clock.Second, 2 * clock.Second, 2 * clock.Second, 2 * clock.Second,
}

// lostPath reports whether a connection that ended (not on purpose) lost
// its path to the task host rather than failed: no close frame at all
// (the socket dropped, the dial failed), 1006, the relay draining for a
// restart (1012), or the task host unreachable (4002). A server that
// exited (4006), a failed install, a refusal (4004, 4005), a normal close
// (1000, 1001: task stop, idle close) and an initialize the server
// rejected are not: connecting again would not change them.
func lostPath(endErr error, code int) bool {
	switch code {
	case 1006, int(wire.CloseServiceRestart), int(wire.CloseUnavailable):
		return true
	case 0:
		if _, rejected := errors.AsType[*jsonrpc.Error](endErr); rejected {
			return false
		}
		if errors.Is(endErr, errEncoding) {
			return false
		}
		return endErr != nil
	}
	return false
}

// reconnectDelay is the wait before attempt n (1-based), spread by up to a
// fifth either way so that every editor of a restarted relay does not come
// back in the same millisecond. seed varies per pair and attempt.
func reconnectDelay(n int, seed uint64) clock.Duration {
	d := reconnectDelays[min(n, len(reconnectDelays))-1]
	if d == 0 {
		return 0
	}
	// xorshift: no math/rand in lsp.wasm for one number.
	seed ^= seed << 13
	seed ^= seed >> 7
	seed ^= seed << 17
	spread := int64(d) / 5
	return d - clock.Duration(spread) + clock.Duration(int64(seed%uint64(2*spread+1)))
}

// canReconnect reports whether p may connect again by itself after its
// generation ended with endErr/code: a document still needs it, attempts
// are left, and either it was ready in this episode and the end was a lost
// path, or it replaces a connection this client ended and was refused at
// the cap (4005), whose place the ended one still held.
// c.mu must be held.
func (c *Client) canReconnectLocked(p *pair, endErr error, code int) bool {
	if len(p.docs) == 0 || c.closed || p.attempts >= len(reconnectDelays) || errors.Is(endErr, errResumeGaveUp) {
		return false
	}
	return (p.wasReady && lostPath(endErr, code)) || (p.replacing && code == int(wire.CloseCapacity))
}

// scheduleReconnectLocked arms the next automatic attempt of p, whose
// generation gen has just ended. c.mu must be held.
func (c *Client) scheduleReconnectLocked(p *pair, gen uint64) {
	p.attempts++
	if p.lostAt == 0 {
		p.lostAt = max(c.cfg.Clock.Now(), 1)
	}
	seed := uint64(p.lostAt)*2654435761 + gen*40503 + uint64(p.attempts)
	p.retry = c.cfg.Clock.AfterFunc(reconnectDelay(p.attempts, seed), func() {
		c.mu.Lock()
		// Only if nothing happened meanwhile: no Start, Stop or Close, and
		// a document still open.
		if p.conn == nil && p.st.State == StateReconnecting && p.st.Gen == gen && len(p.docs) > 0 && !c.closed {
			p.retry = nil
			c.connectLocked(p)
		}
		c.mu.Unlock()
		c.deliver()
	})
}

// endEpisodeLocked forgets p's reconnect state: it is ready again, was
// stopped, or gave up. c.mu must be held.
func (c *Client) endEpisodeLocked(p *pair) {
	if p.retry != nil {
		p.retry.Stop()
		p.retry = nil
	}
	p.attempts, p.lostAt = 0, 0
	p.st.Attempt, p.st.LostAt = 0, 0
	p.replacing = false
}

// Nudge makes every reconnecting pair's next attempt now instead of at its
// timer. The page calls it when the browser is online again or the page
// comes back to the foreground: the moments the path is likely back, which
// a back-off timer would otherwise wait out.
func (c *Client) Nudge() {
	c.mu.Lock()
	var wake []*resumable
	for _, p := range c.pairs {
		switch {
		case p.st.State != StateReconnecting:
		case p.conn == nil && p.retry != nil && len(p.docs) > 0 && !c.closed:
			p.retry.Stop()
			p.retry = nil
			c.connectLocked(p)
		case p.conn != nil:
			p.conn.mu.Lock() // its run may be setting res right now
			if r := p.conn.res; r != nil {
				wake = append(wake, r)
			}
			p.conn.mu.Unlock()
		}
	}
	c.mu.Unlock()
	for _, r := range wake {
		select {
		case r.wake <- struct{}{}:
		default: // one is pending already
		}
	}
	c.deliver()
}
