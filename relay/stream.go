package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/internal/bridge"
)

// serveStream is GET /lsp/{sessionId}?language=L[&server=ID]. The checks
// run in the spec's order, each before anything is started:
//
//  0. the language is known and the server, if
//     named, is shaped like a catalog id (and, if
//     it is a built-in one, serves the language)  else HTTP 400, no upgrade
//  1. the session is known, and the user's         else 4002
//  2. its executor is local_pc or local_docker     else 4004
//  3. a capacity slot is free, and the user is     else 4005
//     within their share, if one is set
//     (across replicas with a shared database;
//     4002 when that database cannot be asked)
//  4. its agent runs (started or resumed if not)   else 4002
//  5. the agent accepts the stream with its token  else 4002
//  6. messages are relayed until either side ends
//
// The browser's own parameters stop at the language and the server: a
// catalog id, never a command, which the relay passes on after checking
// its shape (the task host's catalog, which may hold an operator's
// entries too, is the authority on what exists). Without one, the user's
// lsp_language_servers choice for the language is asked for, if any;
// otherwise the task host runs the language's default. autoInstall comes
// from the requesting user's settings (lsp_auto_install_languages), never
// from the request.
func (rl *Relay) serveStream(w http.ResponseWriter, r *http.Request) {
	sessionID := r.PathValue("sessionId")
	q := r.URL.Query()
	lang := q.Get(wire.ParamLanguage)
	server := q.Get(wire.ParamServer)
	// Every line of the stream names its session, language and connection
	// id; the agent's lines carry the same id (wire.HeaderConnection).
	connID := newConnID()
	log := rl.log.With("session", sessionID, "language", lang, "conn", connID)

	// The checks made before the upgrade: a request for a language that
	// does not exist, or for something that is no server id, is a client
	// bug, not a task-host condition.
	why := badStreamRequest(lang, q[wire.ParamServer])
	if why == "" {
		why = badResume(q[wire.ParamResume], q[wire.ParamReceived])
	}
	if why != "" {
		log.Debug("lsp stream: " + why)
		rl.metrics.refused.WithLabelValues(codeLabel(http.StatusBadRequest)).Inc()
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}

	browser, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// Same-origin is always allowed; these are the extra origins. An
		// empty Origin (non-browser client) is accepted by coder/websocket.
		OriginPatterns: rl.cfg.OriginPatterns,
		// Compression stays off on purpose: the relay forwards bodies
		// without looking at them, and permessage-deflate would inflate
		// and deflate every message here, costing CPU, latency and a
		// per-connection window for a hop that is typically same-host or
		// same-datacentre.
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		// Accept has answered (e.g. 403 for a foreign Origin).
		log.Debug("lsp stream: upgrade refused", "err", err)
		return
	}
	browser.SetReadLimit(wire.MaxMessageSize)
	// From here every exit closes the browser with a code and no reason.
	reject := func(code wire.CloseCode, msg string, args ...any) {
		log.Info("lsp stream: "+msg, append(args, "code", int(code))...)
		rl.metrics.refuse(code)
		_ = browser.Close(websocket.StatusCode(code), "")
	}
	// A draining relay admits nothing: the browser may connect again at
	// once, to another replica.
	if !rl.enterStream() {
		reject(wire.CloseServiceRestart, "draining")
		return
	}
	defer rl.leaveStream()
	// The stream's context ends with the request's (the server's
	// BaseContext) or when Shutdown drains the relay.
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	defer context.AfterFunc(rl.drainCtx, func() { cancel(context.Cause(rl.drainCtx)) })()
	// shuttingDown is the code for an exit because ctx ended.
	shuttingDown := func() wire.CloseCode {
		if errors.Is(context.Cause(ctx), bridge.ErrRestart) {
			return wire.CloseServiceRestart
		}
		return wire.CloseGoingAway
	}

	// 1. Session. 2. Executor.
	sess, code, why := rl.admit(r, sessionID)
	if sess.ID != "" { // known, whatever its executor
		log = log.With("executor", sess.Executor)
	}
	if code != 0 {
		reject(code, why)
		return
	}
	// 3. Capacity, before a task host is started or resumed. The slot is
	// released when this handler returns, whatever the path. A cap that
	// cannot be asked (the shared database is down) admits nothing: the
	// backend is unavailable, which is not the cap being reached.
	// A resume keeps its place: it had a slot before its path was lost.
	slot, n, ok, err := rl.capacity.Acquire(ctx, capacity.Holder{Session: sessionID, Language: lang, Server: server, User: user(r),
		Resuming: q.Get(wire.ParamResume) != ""})
	switch {
	case err != nil && ctx.Err() != nil:
		reject(shuttingDown(), "shutting down")
		return
	case err != nil:
		reject(wire.CloseUnavailable, "capacity unavailable", "err", err)
		return
	case !ok:
		// The cap, or the user's share of it.
		reject(wire.CloseCapacity, "connection cap reached", "active", n)
		return
	}
	defer slot.Release()
	log.Debug("lsp stream: admitted", "active", n)

	// 4. Resolve or restore the execution.
	ref, err := rl.execs.Resolve(ctx, sess.task())
	if err != nil {
		if ctx.Err() != nil {
			reject(shuttingDown(), "shutting down")
			return
		}
		reject(wire.CloseUnavailable, "execution unavailable", "err", err)
		return
	}

	// The user's policy decides auto-install. A store that cannot be read
	// must not cost the user the server: fall back to "no" (the agent then
	// answers 4001 if the server is missing, which tells the user what to
	// do).
	// The same holds for the server choice: without settings, the
	// language's default.
	autoInstall := false
	if st, err := rl.settings.Load(ctx, user(r)); err != nil {
		log.Warn("lsp stream: settings unavailable; auto-install off", "err", err)
	} else {
		autoInstall = st.AutoInstall(lang)
		if server == "" {
			server = rl.cfg.Servers.Clean(st).Server(lang)
		}
	}
	if server != "" {
		log = log.With("server", server)
	}

	// 5. Dial.
	agent, err := rl.dialer.dial(ctx, ref, streamParams{language: lang, server: server, autoInstall: autoInstall,
		resume: q.Get(wire.ParamResume), received: q.Get(wire.ParamReceived)}, sessionID, connID)
	if err != nil {
		if ctx.Err() != nil {
			// Shutdown arrived while dialling: a teardown, not a failure.
			reject(shuttingDown(), "shutting down")
			return
		}
		// Refused connection, 401 or any other failed handshake.
		reject(wire.CloseUnavailable, "agent unavailable", "err", err)
		return
	}
	agent.SetReadLimit(wire.MaxMessageSize)
	log.Info("lsp stream: open", "autoInstall", autoInstall)
	switch {
	case q.Has(wire.ParamResume):
		rl.metrics.reconnects.WithLabelValues("resume").Inc()
	case q.Get(wire.ParamReconnect) == "1":
		rl.metrics.reconnects.WithLabelValues("fresh").Inc()
	}
	active := rl.metrics.active.WithLabelValues(lang)
	active.Inc()

	// 6. Pump. ctx ends when the server's BaseContext does (the bridge
	// then closes both hops with 1001) or when Shutdown drains the relay
	// (1012 on both: the agent holds the server for the resume).
	out := bridge.Run(ctx, browser, agent.Conn, bridge.Options{
		WriteTimeout:    rl.cfg.writeTimeout,
		MaxMessageSize:  wire.MaxMessageSize,
		PingInterval:    rl.cfg.PingInterval,
		PingTimeout:     rl.cfg.PingTimeout,
		AgentReadFailed: agent.readFailed,
		Relayed:         rl.metrics.relayed,
	})
	active.Dec()
	if heldForResume(out) {
		// The agent holds the server for the browser's resume: its slot
		// stays counted until the resume takes it over or the grace ends.
		slot.Hold(rl.cfg.ResumeGrace)
	}
	rl.metrics.closed.WithLabelValues(codeLabel(int(out.BrowserCode))).Inc()
	log.Info("lsp stream: closed", "ended", out.Ended.String(),
		"browserCode", int(out.BrowserCode), "agentCode", int(out.AgentCode), "err", out.Err)
}

// heldForResume reports whether a stream that ended so left its server
// held on the task host for a resume: the browser's path was lost (the
// agent was told wire.ClosePathLost) or the relay drained for a restart.
// A stream that never reached ready has no resume token, and its slot is
// held for nothing until the grace ends; that is the price of not
// reading the agent's frames.
func heldForResume(out bridge.Outcome) bool {
	switch out.Ended {
	case bridge.Browser:
		return out.AgentCode == websocket.StatusCode(wire.ClosePathLost)
	case bridge.Shutdown:
		return out.AgentCode == websocket.StatusCode(wire.CloseServiceRestart)
	}
	return false
}

// badStreamRequest says why a stream request is refused before the
// upgrade, or "" when it is not: an unknown language; a server parameter
// given more than once, not shaped like a catalog id, or naming a built-in
// server of other languages. An id the built-in catalog does not know may
// be an operator's entry on the task host, whose agent decides.
func badStreamRequest(lang string, servers []string) string {
	if _, ok := wire.Lookup(lang); !ok {
		return "unknown language"
	}
	switch {
	case len(servers) > 1:
		return "more than one server"
	case len(servers) == 0 || servers[0] == "":
		return ""
	case !wire.ValidServerID(servers[0]):
		return "malformed server id"
	}
	if _, builtin := wire.BuiltinServer(servers[0]); builtin && !wire.BuiltinServes(wire.Language(lang), servers[0]) {
		return "server does not serve the language"
	}
	return ""
}

// badResume says why a resume request's parameters are refused before
// the upgrade, or "" when they are absent or well formed: one token of at
// most 128 hex digits with one count of decimal digits.
func badResume(tokens, counts []string) string {
	if len(tokens) == 0 && len(counts) == 0 {
		return ""
	}
	if len(tokens) != 1 || len(counts) != 1 {
		return "malformed resume request"
	}
	tok, n := tokens[0], counts[0]
	if tok == "" || len(tok) > 128 || strings.Trim(tok, "0123456789abcdef") != "" ||
		n == "" || len(n) > 20 || strings.Trim(n, "0123456789") != "" {
		return "malformed resume request"
	}
	return ""
}

// newConnID returns a fresh id for one browser stream: 64 random bits.
func newConnID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// admit makes the checks every session route shares with the stream, in
// its order: the session is known and the requesting user may use it
// (else wire.CloseUnavailable: another user's session looks unknown), its
// executor is served (else wire.CloseExecutorUnsupported). code is 0 when
// sess passed; why is for the log.
func (rl *Relay) admit(r *http.Request, sessionID string) (sess Session, code wire.CloseCode, why string) {
	sess, ok := rl.cfg.Sessions.Lookup(sessionID)
	if !ok {
		return Session{}, wire.CloseUnavailable, "unknown session"
	}
	if !rl.cfg.Authorize(r, user(r), sess) {
		return Session{}, wire.CloseUnavailable, "session of another user"
	}
	if !supportedExecutor(sess.Executor) {
		return sess, wire.CloseExecutorUnsupported, "executor not supported"
	}
	return sess, 0, ""
}
