// Package relay is the backend's browser-facing LSP service: the stream
// route that resolves a task session, admits it (executor, capacity),
// starts or resumes its task-host agent, dials it and relays WebSocket
// messages unchanged; the user-settings API; the boot runtime; and task
// stop.
//
// Failures after the browser's WebSocket is accepted reach it only as
// categorical close codes (internal/wire) with an empty reason; the browser
// cannot read an HTTP status from a failed upgrade, and transport prose must
// never reach the user.
package relay

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/settings"
)

// DefaultMaxConnections is the active stream cap when Config.MaxConnections
// is zero (the spec's default; KANDEV_LSP_MAX_CONNECTIONS overrides it in
// kandev-relay).
const DefaultMaxConnections = 8

// BrowserTokenCookie is the cookie that carries Config.BrowserToken.
const BrowserTokenCookie = "kandev_relay_token"

// Config configures the relay. Only Sessions is needed for a working
// stream route; the zero value of every other field is a sensible default.
type Config struct {
	// Sessions resolves the session ids of browser requests.
	Sessions Sessions
	// OriginPatterns are extra browser origins allowed besides same-origin
	// (host patterns as coder/websocket AcceptOptions.OriginPatterns).
	// Never "*".
	OriginPatterns []string
	// BrowserToken, when not empty, is required on every request: the
	// cookie BrowserTokenCookie or, for non-browser clients, an
	// "Authorization: Bearer" header; otherwise HTTP 401 and nothing is
	// upgraded, dialled or started.
	//
	// A cookie, because a browser cannot set headers on a WebSocket: the
	// alternatives put the secret where it leaks — a ?token= query lands in
	// access logs, proxies, history and Referer headers, and a token
	// smuggled in Sec-WebSocket-Protocol must be readable by page scripts
	// and is logged by proxies as a header they think is harmless. An
	// HttpOnly, SameSite=Strict cookie set by the backend that serves the
	// page is invisible to scripts and rides on WebSocket upgrades and on
	// fetch() of the settings API alike (cookies ignore ports, so a relay
	// on another port of the same host receives it). The Origin allowlist
	// is what stops another site's page from riding the same cookie.
	BrowserToken string
	// MaxConnections caps active browser streams (DefaultMaxConnections
	// when zero). A stream over the cap closes with wire.CloseCapacity
	// before any task host is started or resumed.
	MaxConnections int
	// Settings stores the user's settings; nil keeps them in memory for
	// the life of the process. The relay does not close it.
	Settings settings.Store
	// SettingsChanged, if set, is called after each successful PUT of the
	// settings with what was stored. It runs on the request's goroutine and
	// must not block. The relay itself only stores: live servers learn of
	// a change from lsp.wasm's workspace/didChangeConfiguration.
	SettingsChanged func(settings.Settings)

	// AgentBinary is the kandev-agent executable the relay runs for a
	// local_pc session that names no agent URL (the restore path). Empty:
	// such sessions close with wire.CloseUnavailable.
	AgentBinary string
	// AgentEnv is the environment of agents the relay starts — their task
	// environment — without the token, which the relay adds. Nil: the
	// relay's own environment.
	AgentEnv []string
	// Starter starts and resumes task-host agents. Nil: NewStarter over
	// AgentBinary and AgentEnv (processes for local_pc, the docker CLI for
	// local_docker). Tests replace it to count starts.
	Starter Starter

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

// Relay is the relay's http.Handler. Create it with New; stop the agents
// it started with Close.
type Relay struct {
	cfg      Config
	log      *slog.Logger
	mux      *http.ServeMux
	dialer   *agentDialer
	active   *limiter
	execs    *executions
	settings settings.Store
}

// New returns the relay. Routes:
//
//	GET  /lsp/{sessionId}?language=L       the browser stream (WebSocket)
//	GET  /api/v1/user/settings             the user's LSP settings
//	PUT  /api/v1/user/settings             a partial update of them
//	GET  /api/v1/lsp/runtime               languages and the auto-installable set
//	POST /api/v1/sessions/{sessionId}/stop task stop: the session's agent and its servers
//	GET  /api/v1/sessions/{sessionId}/lsp/installers  the task host's installers answer
//
// A stream lives as long as its request; http.Server.Shutdown does not wait
// for it (the connection is hijacked). Cancelling the server's BaseContext
// closes every stream with wire.CloseGoingAway on both hops; a server that
// wants to wait for that should wait for in-flight ServeHTTP calls to
// return (kandev-relay does), then call Close.
func New(cfg Config) *Relay {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Sessions == nil {
		cfg.Sessions = StaticSessions()
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.dialTimeout <= 0 {
		cfg.dialTimeout = defaultDialTimeout
	}
	if cfg.writeTimeout <= 0 {
		cfg.writeTimeout = wire.WriteTimeout
	}
	if cfg.Settings == nil {
		cfg.Settings = settings.NewMemory()
	}
	if cfg.Starter == nil {
		cfg.Starter = NewStarter(StarterConfig{
			AgentBinary: cfg.AgentBinary, AgentEnv: cfg.AgentEnv, Logger: cfg.Logger,
		})
	}
	rl := &Relay{
		cfg:      cfg,
		log:      cfg.Logger,
		mux:      http.NewServeMux(),
		dialer:   newAgentDialer(cfg.dialTimeout),
		active:   newLimiter(cfg.MaxConnections),
		execs:    newExecutions(cfg.Starter, cfg.Logger),
		settings: cfg.Settings,
	}
	rl.mux.HandleFunc("GET "+wire.RelayStreamPrefix+"{sessionId}", rl.serveStream)
	rl.mux.HandleFunc("GET "+wire.RelaySettingsPath, rl.getSettings)
	rl.mux.HandleFunc("PUT "+wire.RelaySettingsPath, rl.putSettings)
	rl.mux.HandleFunc("GET "+wire.RelayRuntimePath, rl.getRuntime)
	rl.mux.HandleFunc("POST "+sessionStopPattern, rl.stopSession)
	rl.mux.HandleFunc("GET "+wire.RelayInstallersPattern, rl.serveInstallers)
	return rl
}

// ServeHTTP checks the browser token and, for requests that change state,
// the Origin; then routes.
func (rl *Relay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rl.cfg.BrowserToken != "" && !rl.authorized(r) {
		rl.log.Debug("relay: request without a valid browser token", "path", r.URL.Path)
		writeError(w, http.StatusUnauthorized, "", "a valid relay token is required")
		return
	}
	// A page on another site can send a PUT or POST here from the user's
	// browser (a form POST needs no CORS preflight, and a cookie token
	// rides along). The WebSocket route has the same check in Accept; the
	// other state-changing routes get it here, with the same allowlist.
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !rl.originAllowed(r) {
		rl.log.Debug("relay: cross-origin request refused", "path", r.URL.Path, "origin", r.Header.Get("Origin"))
		writeError(w, http.StatusForbidden, "", "cross-origin request refused")
		return
	}
	rl.mux.ServeHTTP(w, r)
}

// originAllowed applies the WebSocket route's Origin rule to any request:
// no Origin (not a browser, or a same-origin GET) or a same-host one is
// allowed, else the Origin must match one of Config.OriginPatterns the way
// coder/websocket matches them.
func (rl *Relay) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(r.Host, u.Host) {
		return true
	}
	for _, p := range rl.cfg.OriginPatterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, err := path.Match(strings.ToLower(p), strings.ToLower(target)); err == nil && ok {
			return true
		}
	}
	return false
}

// authorized reports whether r carries the browser token, comparing in
// constant time.
func (rl *Relay) authorized(r *http.Request) bool {
	want := []byte(rl.cfg.BrowserToken)
	if c, err := r.Cookie(BrowserTokenCookie); err == nil &&
		subtle.ConstantTimeCompare([]byte(c.Value), want) == 1 {
		return true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	return ok && strings.EqualFold(scheme, "Bearer") &&
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), want) == 1
}

// Close stops every agent the relay started (task stop for each: their
// streams close with 1001 and their language servers are reaped) and
// refuses further starts. It waits until they have exited or ctx ends. It
// does not touch agents it did not start, nor Config.Settings.
func (rl *Relay) Close(ctx context.Context) error {
	return rl.execs.close(ctx)
}
