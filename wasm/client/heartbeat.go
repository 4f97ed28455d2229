package client

import (
	"errors"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// errStalled ends a connection whose heartbeat went unanswered: the path
// to the task host carries nothing (a frozen relay, a silent network), so
// it is lost, and the pair reconnects.
var errStalled = errors.New("client: the path to the task host stalled")

// heartbeat is a connection's check of its whole path (wire.HeartbeatInterval):
// one heartbeat outstanding at a time, numbered; its state is guarded by
// connection.mu.
type heartbeat struct {
	_            noCompare
	sent, echoed uint64
	sentAt       int64 // Clock ms of the outstanding one
	timer        Timer
}

// startHeartbeat checks the path of a ready connection whose task host
// answers heartbeats, until the connection ends.
func (c *connection) startHeartbeat(rpc *jsonrpc.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armHeartbeatLocked(rpc)
}

// armHeartbeatLocked schedules the next check. c.mu must be held.
func (c *connection) armHeartbeatLocked(rpc *jsonrpc.Conn) {
	if c.ended || c.ctx.Err() != nil {
		return
	}
	c.hb.timer = c.cl.cfg.Clock.AfterFunc(clock.Duration(wire.HeartbeatInterval), func() { c.beat(rpc) })
}

// beat runs every interval: a heartbeat unanswered for wire.HeartbeatTimeout
// ends the connection as stalled; otherwise, with none outstanding, the
// next one goes out.
func (c *connection) beat(rpc *jsonrpc.Conn) {
	now := c.cl.cfg.Clock.Now()
	c.mu.Lock()
	if c.ended || c.ctx.Err() != nil {
		c.mu.Unlock()
		return
	}
	res := c.res
	resuming := res != nil && res.isResuming()
	if lost := !resuming && c.hb.sent > c.hb.echoed && now-c.hb.sentAt >= clock.Duration(wire.HeartbeatTimeout).Milliseconds(); lost || resuming {
		// While a resumable stream finds its path again there is none to
		// check, and the heartbeat lost with the old socket is forgotten.
		c.hb.echoed = c.hb.sent
		c.stalled = lost && res == nil
		if !c.stalled {
			c.armHeartbeatLocked(rpc)
		}
		sentAt := c.hb.sentAt
		c.mu.Unlock()
		if lost {
			c.cl.cfg.Logf("lsp: %s/%s: no answer to a heartbeat for %d ms: the path is lost",
				c.p.key.sessionID, string(c.p.key.language), now-sentAt)
			if res != nil {
				res.drop() // the socket goes; the stream is resumed on another
			} else {
				_ = rpc.Close() // run sees rpc end, and the pair reconnects
			}
		}
		return
	}
	var frame []byte
	if c.hb.sent == c.hb.echoed {
		c.hb.sent++
		c.hb.sentAt = now
		frame = wire.AppendHeartbeat(nil, c.hb.sent)
	}
	c.armHeartbeatLocked(rpc)
	c.mu.Unlock()
	if frame != nil {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), wire.WriteTimeout)
		_ = rpc.SendFrame(ctx, frame) // a failed write ends rpc by itself
		cancel()
	}
}

// heard records a heartbeat's answer.
func (c *connection) heard(frame []byte) {
	n, ok := wire.HeartbeatNumber(frame)
	if !ok {
		return
	}
	c.mu.Lock()
	if n > c.hb.echoed && n <= c.hb.sent {
		c.hb.echoed = n
	}
	c.mu.Unlock()
}

// stopHeartbeat ends the checks when the connection ends.
func (c *connection) stopHeartbeat() {
	c.mu.Lock()
	if c.hb.timer != nil {
		c.hb.timer.Stop()
		c.hb.timer = nil
	}
	c.mu.Unlock()
}
