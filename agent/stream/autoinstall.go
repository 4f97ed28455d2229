package stream

import (
	"context"
	"errors"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// missing handles a request whose server is not installed. It returns the
// executable to start when an install produced one; otherwise it has closed
// the socket with the code that says why and returns ok false.
//
// The order is the spec's: a host with no installer for the server closes
// 4007 whatever the request asked (so the UI can point to manual
// installation before the preference is enabled), then a request without
// autoInstall closes 4001, and only then does an install begin.
func (s *session) missing(autoInstall bool) (path string, ok bool) {
	srv := s.srv
	mgr := s.h.cfg.Installs
	if mgr == nil {
		code := missingCode(srv, s.h.cfg.Env, autoInstall)
		s.logger.Info("language server not found", "command", srv.Command, "code", code)
		_ = s.socket().close(websocket.StatusCode(code))
		return "", false
	}
	job, err := mgr.Prepare(s.h.cfg.Env, srv)
	switch {
	case errors.Is(err, install.ErrUnsupported):
		s.logger.Info("language server not found; no installer on this host", "command", srv.Command, "why", err)
		_ = s.socket().close(websocket.StatusCode(wire.CloseNoInstaller))
		return "", false
	case !autoInstall:
		s.logger.Info("language server not found; auto-install not requested", "command", srv.Command)
		_ = s.socket().close(websocket.StatusCode(wire.CloseBinaryMissing))
		return "", false
	case err != nil:
		// The task cannot host an install at all (no absolute HOME):
		// a failed install, with the reason as its detail.
		s.failInstall(err)
		return "", false
	}
	return s.install(job)
}

// missingCode picks the close code for a server that is not installed when
// the handler has no installers (Config.Installs nil): a requested
// auto-install is answered like a host without an installer.
func missingCode(srv catalog.Entry, env *taskenv.Env, autoInstall bool) wire.CloseCode {
	if srv.AutoInstallable(env.GOOS, env.GOARCH) && !autoInstall {
		return wire.CloseBinaryMissing
	}
	return wire.CloseNoInstaller
}

// install runs job while the peer watches: "installing" first, then the
// read-ahead for the whole install, then "installed" or "install_failed"
// and 4003. A peer that leaves, and task stop, cancel the
// install; Run has then killed the installer's tree, removed its partial
// files and released its locks before it returns.
func (s *session) install(job *install.Job) (path string, ok bool) {
	lang := s.lang
	if s.stopping() {
		_ = s.socket().close(websocket.StatusCode(wire.CloseGoingAway))
		return "", false
	}
	// Delivered before any install work is acquired: a peer that cannot
	// take this frame within the write timeout can neither see nor cancel
	// the install, so none is started for it.
	if err := s.sendStatus(wire.Status{Status: wire.StatusInstalling, Language: string(lang), Server: s.srv.ID}); err != nil {
		s.logger.Info("installing frame not delivered; not installing", "err", err)
		_ = s.socket().close(closeNow)
		return "", false
	}
	ahead := s.startReadAhead()
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.watchInstall(ctx, cancel, ahead)
	}()
	s.logger.Info("installing language server")
	began := time.Now()
	res, err := job.Run(ctx)
	cancel()
	<-watched
	s.h.cfg.Metrics.InstallFinished(lang, installResult(err), time.Since(began))

	if err != nil {
		s.endInstall(err, ahead)
		return "", false
	}
	s.logger.Info("language server installed", "path", res.Path, "reused", res.Reused)
	if err := s.sendStatus(wire.Status{Status: wire.StatusInstalled, Language: string(lang), Server: s.srv.ID}); err != nil {
		s.logger.Info("installed frame not delivered", "err", err)
		_ = s.socket().close(closeNow)
		s.dropReadAhead()
		return "", false
	}
	return res.Path, true
}

// installResult names an install's outcome for Metrics.
func installResult(err error) string {
	switch {
	case err == nil:
		return InstallInstalled
	case errors.Is(err, context.Canceled) || errors.Is(err, install.ErrClosed):
		return InstallCancelled
	}
	return InstallFailed
}

// watchInstall cancels the install when the read-ahead sees the stream
// end (the peer closed, went away, stopped answering pings, or sent too
// much) or at task stop. Messages the peer sends meanwhile do not stop
// the watch: the read-ahead keeps them and reads on.
func (s *session) watchInstall(ctx context.Context, cancel context.CancelFunc, ahead *readAhead) {
	select {
	case <-ahead.ended:
		cancel()
	case <-s.shutdown:
		cancel()
	case <-ctx.Done():
	}
}

// endInstall closes a stream whose install did not produce a server. The
// read-ahead is drained once the socket is closed.
func (s *session) endInstall(err error, ahead *readAhead) {
	defer s.dropReadAhead()
	if !errors.Is(err, context.Canceled) && !errors.Is(err, install.ErrClosed) {
		s.failInstall(err)
		return
	}
	if code, ended := ahead.endCode(); ended && !s.stopping() {
		// The peer left (closeNow) or sent too much (1009).
		s.logger.Info("install cancelled: the peer went away")
		_ = s.socket().close(code)
		return
	}
	// Task stop: 1001 with no prose, the browser shows its own copy.
	s.logger.Info("install cancelled by task stop")
	_ = s.socket().close(websocket.StatusCode(wire.CloseGoingAway))
}

// failInstall reports a failed install: the installer's own diagnosis in
// an install_failed frame, then 4003 with no reason.
func (s *session) failInstall(err error) {
	s.logger.Warn("install failed", "err", err)
	st := wire.Status{Status: wire.StatusInstallFailed, Language: string(s.lang), Server: s.srv.ID, Error: install.Detail(err)}
	if err := s.sendStatus(st); err != nil {
		s.logger.Info("install_failed frame not delivered", "err", err)
		_ = s.socket().close(closeNow)
		return
	}
	_ = s.socket().close(websocket.StatusCode(wire.CloseInstallFailed))
}
