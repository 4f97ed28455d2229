package stream

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/replay"
	"github.com/kandev/lsp/internal/wire"
)

// A stream whose socket is lost rather than closed keeps its server for
// Config.ResumeGrace (wire's resume protocol): the socket reader, instead
// of ending the bridge, waits for a resume request to bring a new socket,
// while the server's messages are numbered and kept (send) for that
// socket. The held stream stays admitted, so it counts against
// MaxConnections, and task stop, the server exiting and the grace ending
// each stop it as before.

// attachment is a resume request's socket handed to a held stream, with
// how many data frames the browser received.
type attachment struct {
	sock     *socket
	received uint64
}

// resumable gives the stream its first resume token and its replay
// buffer, and returns the token; "" when the agent holds no servers.
func (s *session) resumable() string {
	if s.h.cfg.ResumeGrace < 0 {
		return ""
	}
	s.outMu.Lock()
	s.out = replay.New(wire.MaxReplayBytes, wire.MaxReplayFrames)
	s.outMu.Unlock()
	s.acks = true // before the bridge's goroutines start
	return s.h.newToken(s)
}

// newToken registers a fresh token for s, replacing its previous one.
func (h *Handler) newToken(s *session) string {
	var b [24]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand's contract since Go 1.24)
	tok := hex.EncodeToString(b[:])
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.token != "" {
		delete(h.holds, s.token)
	}
	s.token = tok
	h.holds[tok] = s
	return tok
}

// forget withdraws s's token: the stream ends, nothing may resume it.
func (s *session) forget() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if s.token != "" {
		delete(s.h.holds, s.token)
		s.token = ""
	}
}

// send numbers and keeps one data frame and writes it to the socket of the
// moment, if there is one. A failed write drops that socket, which ends
// its reader: the reader decides whether the stream is held or ends.
func (s *session) send(b []byte) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.out != nil {
		s.out.Push(b)
	}
	sock := s.sock.Load()
	if sock == nil {
		return // held: kept for the resume
	}
	if err := sock.write(b); err != nil {
		s.logger.Debug("socket write", "err", err)
		_ = sock.ws.CloseNow()
	}
}

// acked forgets what the peer acknowledged.
func (s *session) acked(n uint64) {
	s.outMu.Lock()
	if s.out != nil {
		s.out.Ack(n)
	}
	s.outMu.Unlock()
}

// ack tells the peer how many data frames arrived, on sock.
func (s *session) ack(sock *socket) error {
	return sock.write(wire.AppendAck(nil, s.received.Load()))
}

// hold is called by the socket reader when its socket ended. If the
// stream may be resumed, it waits — within the grace, until task stop or
// the server's end — for a resume to bring a new socket, and reports
// whether one did; the reader then reads that socket. Otherwise, or when
// the wait ends without one, it returns false and the stream ends.
func (s *session) hold(p interface{ Done() <-chan struct{} }) bool {
	old := s.socket()
	if old == nil || !wire.HoldsOnClose(int(old.peer.Load())) || s.stopping() {
		return false
	}
	s.outMu.Lock()
	resumable := s.out != nil && !s.out.Overflowed()
	if resumable {
		s.sock.Store(nil)
	}
	s.outMu.Unlock()
	if !resumable {
		return false
	}
	_ = old.close(closeNow)
	old.release()
	s.logger.Info("socket lost; server held for a resume", "grace", s.h.cfg.ResumeGrace, "peer", int(old.peer.Load()))
	s.h.cfg.Metrics.Held(s.lang, true)
	defer s.h.cfg.Metrics.Held(s.lang, false)
	grace := time.NewTimer(s.h.cfg.ResumeGrace)
	defer grace.Stop()
	for {
		select {
		case a := <-s.attach:
			if s.reattach(a) {
				return true
			}
			return false
		case <-grace.C:
			s.logger.Info("no resume within the grace; stopping the server", "grace", s.h.cfg.ResumeGrace)
			s.h.cfg.Metrics.Resumed(s.lang, ResumeExpired)
			return false
		case <-s.shutdown:
			return false
		case <-p.Done():
			return false
		}
	}
}

// reattach makes a's socket the stream's: the resumed frame, then every
// data frame the browser missed, then whatever the server says next. It
// reports false, having refused the resume, when the browser's count is
// not one the replay buffer can follow.
func (s *session) reattach(a *attachment) bool {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	missed, ok := s.out.Since(a.received)
	if !ok {
		s.logger.Info("resume refused: the frames the browser missed are not kept", "received", a.received, "sent", s.out.Sent())
		s.h.cfg.Metrics.Resumed(s.lang, ResumeGap)
		_ = a.sock.close(websocket.StatusCode(wire.CloseResumeRefused))
		a.sock.release()
		return false
	}
	b, _ := json.Marshal(wire.Status{Status: wire.StatusResumed, Server: s.srv.ID,
		Resume: s.h.newToken(s), Received: s.received.Load()})
	err := a.sock.write(b)
	for _, f := range missed {
		if err != nil {
			break
		}
		err = a.sock.write(f)
	}
	if err != nil {
		// Lost again at once: the reader finds out and holds again.
		_ = a.sock.ws.CloseNow()
	}
	s.sock.Store(a.sock)
	s.logger.Info("resumed", "replayed", len(missed), "received", s.received.Load())
	s.h.cfg.Metrics.Resumed(s.lang, ResumeDone)
	s.h.cfg.Metrics.Replayed(len(missed))
	return true
}

// resume serves a resume request: it hands the socket to the stream
// holding the token's server, or refuses it with 4009 before anything
// starts. The token is good once: taken here, a new one goes out with
// the resumed frame. A stream whose old socket still looks open (its
// loss not yet noticed) has that socket dropped: the token's holder is
// the one that lost it.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, lang wire.Language, server string) {
	q := r.URL.Query()
	log := h.logger.With("session", logID(r, wire.HeaderSession), "language", lang, "server", server,
		"conn", logID(r, wire.HeaderConnection))
	received, err := strconv.ParseUint(q.Get(wire.ParamReceived), 10, 64)
	if err != nil {
		h.cfg.Metrics.StreamRefused(http.StatusBadRequest)
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	s := h.holds[q.Get(wire.ParamResume)]
	if s != nil && (s.lang != lang || s.srv.ID != server) {
		s = nil // a token for another server: as unknown
	}
	if s != nil {
		delete(h.holds, s.token)
		s.token = ""
		h.wg.Add(1) // Shutdown waits for this request too
	}
	closed := h.closed
	h.mu.Unlock()
	if s == nil || closed {
		if s != nil {
			h.wg.Done()
		}
		log.Info("resume refused: no server held for the token")
		h.cfg.Metrics.Resumed(lang, ResumeUnknown)
		if sock, err := h.accept(w, r); err == nil {
			_ = sock.close(websocket.StatusCode(wire.CloseResumeRefused))
		}
		return
	}
	defer h.wg.Done()
	sock, err := h.accept(w, r)
	if err != nil {
		log.Debug("websocket accept failed", "err", err)
		return
	}
	if old := s.socket(); old != nil {
		_ = old.ws.CloseNow() // its reader ends and holds
	}
	select {
	case s.attach <- &attachment{sock: sock, received: received}:
	case <-s.serverDone:
		_ = sock.close(websocket.StatusCode(wire.CloseResumeRefused))
		return
	}
	// The request lasts as long as the stream uses its socket.
	<-sock.released
}
