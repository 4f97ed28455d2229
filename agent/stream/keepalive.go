package stream

import (
	"context"
	"time"
)

// keepAlive closes the stream when its peer is gone without having
// closed: a relay whose host lost power, a connection a middlebox dropped.
// Neither sends anything, and the agent's writes still succeed into the
// kernel's buffer, so only a ping that goes unanswered tells.
//
// A ping is sent only when the stream has been idle — nothing read from
// the peer — for a whole PingInterval, and only while a reader is waiting
// on the socket, since the pong is taken in by the reader: while the
// bridge is blocked writing a message to a slow server's stdin no pong
// could be seen, and that wait has its own bound. The peer then has
// PingTimeout to answer, or to send anything at all. If it does not, the
// connection is dropped, which ends the reader and so the stream: the
// install is cancelled or the server stopped, as for any peer that left.
//
// It returns when stop is closed.
func (s *session) keepAlive(stop <-chan struct{}) {
	interval, timeout := s.h.cfg.PingInterval, s.h.cfg.PingTimeout
	tick := time.NewTicker(interval)
	defer tick.Stop()
	last := s.heard.Load()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		now := s.heard.Load()
		if now != last || !s.reading.Load() {
			last = now // the peer spoke, or nobody could hear a pong
			continue
		}
		sock := s.socket()
		if sock == nil {
			continue // held: no socket to ping
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := sock.ws.Ping(ctx)
		cancel()
		if err == nil || s.heard.Load() != now {
			last = s.heard.Load()
			continue
		}
		select {
		case <-stop:
			return
		default:
		}
		s.logger.Info("peer did not answer a ping; closing", "timeout", timeout)
		_ = sock.ws.CloseNow()
		continue // the reader ends; a resume may bring another socket
	}
}
