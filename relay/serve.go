package relay

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// DefaultShutdownGrace is the drain's bound when Config.ShutdownGrace is
// zero: coder/websocket gives each peer up to 5 s to answer a close frame,
// and the agents the relay started need a moment to reap their servers,
// so 15 s covers both with room to spare and stays well inside the 30 s a
// container runtime or systemd waits after SIGTERM before it kills.
const DefaultShutdownGrace = 15 * time.Second

// Serve serves srv on ln until ctx ends, then drains the relay and
// returns. srv's Handler is the relay, alone or mounted in the
// application's own mux; a nil Handler is set to rl.
//
// The drain, bounded by Config.ShutdownGrace, is the order a deploy
// needs: srv stops accepting and finishes its plain requests
// (http.Server.Shutdown) while Shutdown closes every stream — which
// http.Server.Shutdown neither closes nor waits for, since their
// connections are hijacked — with wire.CloseServiceRestart to the browser
// and to the agent, so lsp.wasm connects again at once, through a balancer
// to another replica, and the agent holds the language server for that
// resume; then Close stops the agents the relay started and reaps their
// servers. The grace's end is no error — stopping is what was asked for —
// and cuts what is still open: plain requests are closed, agents that
// have not exited are killed; a stream still in its close handshake ends
// at that handshake's own timeout.
//
// If srv stops first — it failed, or its owner shut it down — the relay is
// drained the same way and Serve returns srv.Serve's error
// (http.ErrServerClosed after a Shutdown or Close of srv's own). After
// Serve returns, the relay admits no stream and starts no agent.
func (rl *Relay) Serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	if srv.Handler == nil {
		srv.Handler = rl
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	var err error
	select {
	case err = <-served:
		if errors.Is(err, http.ErrServerClosed) {
			rl.log.Info("relay: server closed by its owner; draining")
		} else {
			rl.log.Warn("relay: server failed; draining", "err", err)
		}
	case <-ctx.Done():
		rl.log.Info("relay: shutting down")
	}
	// The drain outlives ctx, which has ended; its values stay.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rl.cfg.ShutdownGrace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(sctx) }()
	if rl.Shutdown(sctx) != nil {
		rl.log.Info("relay: shutdown: streams still closing at the deadline")
	}
	serr := <-shut
	if err == nil {
		<-served // http.ErrServerClosed, now that Shutdown has begun
		if serr != nil && !errors.Is(serr, context.DeadlineExceeded) {
			err = serr
		}
	}
	if serr != nil {
		// Requests that outlived the grace: cut them rather than leave
		// the server running behind a Serve that has returned.
		_ = srv.Close()
	}
	// Task stop for every agent this relay started: their servers are
	// reaped before the relay's owner exits.
	if cerr := rl.Close(sctx); cerr != nil {
		rl.log.Warn("relay: shutdown: stopping agents", "err", cerr)
	}
	return err
}
