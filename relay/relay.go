// Package relay is the backend's browser-facing LSP route: it resolves a
// task session, checks that its executor is served, dials the session's
// task-host agent and relays WebSocket messages unchanged between the two.
//
// Failures after the browser's WebSocket is accepted reach it only as
// categorical close codes (internal/wire) with an empty reason; the browser
// cannot read an HTTP status from a failed upgrade, and transport prose must
// never reach the user.
package relay

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/internal/bridge"
)

// Config configures the relay.
type Config struct {
	// Sessions resolves the session ids of browser requests.
	Sessions Sessions
	// OriginPatterns are extra browser origins allowed besides same-origin
	// (host patterns as coder/websocket AcceptOptions.OriginPatterns).
	// Never "*".
	OriginPatterns []string
	// Logger receives debug and info records; nil discards them.
	Logger *slog.Logger

	// dialTimeout bounds the agent handshake (default defaultDialTimeout).
	dialTimeout time.Duration
	// writeTimeout bounds every write on either hop (default
	// wire.WriteTimeout). Tests shorten it.
	writeTimeout time.Duration
}

// defaultDialTimeout bounds connecting to an agent and its HTTP upgrade. A
// local agent answers in milliseconds; anything slower is unavailable.
const defaultDialTimeout = 10 * time.Second

// handler is the relay. It is one type, not a closure, because it will grow
// state: the active-connection counter below becomes the capacity check
// (4005), and the settings store and runtime route join the mux.
type handler struct {
	cfg    Config
	log    *slog.Logger
	mux    *http.ServeMux
	dialer *agentDialer
	active *tracker
}

// New returns the relay: GET /lsp/{sessionId}?language=L.
//
// A stream lives as long as its request; http.Server.Shutdown does not wait
// for it (the connection is hijacked). Cancelling the server's BaseContext
// closes every stream with wire.CloseGoingAway on both hops; a server that
// wants to wait for that should wait for in-flight ServeHTTP calls to
// return (kandev-relay does).
func New(cfg Config) http.Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Sessions == nil {
		cfg.Sessions = StaticSessions()
	}
	if cfg.dialTimeout <= 0 {
		cfg.dialTimeout = defaultDialTimeout
	}
	if cfg.writeTimeout <= 0 {
		cfg.writeTimeout = wire.WriteTimeout
	}
	h := &handler{
		cfg:    cfg,
		log:    cfg.Logger,
		mux:    http.NewServeMux(),
		dialer: newAgentDialer(cfg.dialTimeout),
		active: &tracker{},
	}
	h.mux.HandleFunc("GET "+wire.RelayStreamPrefix+"{sessionId}", h.serveStream)
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mux.ServeHTTP(w, r)
}

// serveStream is GET /lsp/{sessionId}?language=L.
func (h *handler) serveStream(w http.ResponseWriter, r *http.Request) {
	sessionID := r.PathValue("sessionId")
	lang := r.URL.Query().Get(wire.ParamLanguage)
	log := h.log.With("session", sessionID, "language", lang)

	// The one check made before the upgrade: a request for a language that
	// does not exist is a client bug, not a task-host condition.
	if _, ok := wire.Lookup(lang); !ok {
		log.Debug("lsp stream: unknown language")
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}

	browser, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// Same-origin is always allowed; these are the extra origins. An
		// empty Origin (non-browser client) is accepted by coder/websocket.
		OriginPatterns: h.cfg.OriginPatterns,
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
		_ = browser.Close(websocket.StatusCode(code), "")
	}

	sess, ok := h.cfg.Sessions.Lookup(sessionID)
	if !ok {
		reject(wire.CloseUnavailable, "unknown session")
		return
	}
	log = log.With("executor", sess.Executor)
	if !supportedExecutor(sess.Executor) {
		reject(wire.CloseExecutorUnsupported, "executor not supported")
		return
	}

	// Capacity (wire.CloseCapacity) is checked here, before a task host is
	// started or resumed; for now the tracker only counts.
	n := h.active.add()
	defer h.active.done()
	log.Debug("lsp stream: admitted", "active", n)

	ctx := r.Context()
	agent, err := h.dialer.dial(ctx, sess.Agent, lang, false)
	if err != nil {
		if ctx.Err() != nil {
			// Shutdown arrived while dialling: a teardown, not a failure.
			reject(wire.CloseGoingAway, "shutting down")
			return
		}
		// Missing URL (the restore path is not built yet), refused
		// connection, 401 or any other failed handshake: unavailable.
		reject(wire.CloseUnavailable, "agent unavailable", "err", err)
		return
	}
	agent.SetReadLimit(wire.MaxMessageSize)
	log.Info("lsp stream: open")

	// The request context is cancelled when the server's BaseContext ends
	// (shutdown); the bridge then closes both hops with 1001.
	out := bridge.Run(ctx, browser, agent.Conn, bridge.Options{
		WriteTimeout:    h.cfg.writeTimeout,
		AgentReadFailed: agent.readFailed,
	})
	log.Info("lsp stream: closed", "ended", out.Ended.String(),
		"browserCode", int(out.BrowserCode), "agentCode", int(out.AgentCode), "err", out.Err)
}
