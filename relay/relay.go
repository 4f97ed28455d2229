// Package relay is the backend's browser-facing LSP service: the stream
// route that resolves a task session, admits it (executor, capacity),
// starts or resumes its task-host agent, dials it and relays WebSocket
// messages unchanged; the user-settings API; the boot runtime; and task
// stop. Starting, resuming and stopping agents — processes, containers —
// is package executor's; the routes here decide when.
//
// Every route is served behind one access.Guard (New builds it from Config):
// a request whose Host is not one of the relay's names is refused first
// (DNS rebinding), then one whose Origin is foreign (HTTP 403), then one
// without the embedder's credential (HTTP 401). A route added to the relay
// is behind the same checks by construction: it is registered on the mux
// the guard wraps, never beside it.
//
// Failures after the browser's WebSocket is accepted reach it only as
// categorical close codes (internal/wire) with an empty reason; the browser
// cannot read an HTTP status from a failed upgrade, and transport prose must
// never reach the user.
package relay

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/capacity"
	"github.com/kandev/lsp/relay/executor"
	"github.com/kandev/lsp/relay/internal/bridge"
	"github.com/kandev/lsp/relay/settings"
)

// DefaultMaxConnections is the active stream cap when Config.MaxConnections
// is zero (the spec's default; KANDEV_LSP_MAX_CONNECTIONS overrides it in
// kandev-relay).
const DefaultMaxConnections = 8

// Config configures the relay. Only Sessions is needed for a working
// stream route; the zero value of every other field is a sensible default.
type Config struct {
	// Sessions resolves the session ids of browser requests.
	Sessions Sessions
	// Hosts are the names the relay is reached by besides the defaults
	// (the address a request arrived on; on loopback also "localhost" and
	// the loopback addresses). A request with any other Host is refused
	// before anything else: see package access.
	Hosts []string
	// Authenticate is the embedding backend's user check: it returns the
	// user a request acts for, or an error (HTTP 401; nothing is upgraded,
	// dialled, started or stored). Settings are stored per user. Nil turns
	// authentication off: every request is settings.LocalUser's.
	// access.Token is the check kandev-relay uses on its own.
	Authenticate func(r *http.Request) (user string, err error)
	// Authorize decides whether user may use the session s on the route r
	// (the stream, its installers, task stop). It runs after Sessions has
	// found the session and before anything is started or dialled; a
	// session it refuses is answered exactly like an unknown one (4002 on
	// the stream, 404 on the session routes), so a user cannot learn which
	// ids other users' sessions have. Nil: Session.Owner, when set, must
	// be the user. A backend with several users sets Owner in its lookup or
	// supplies this check; it is called from many goroutines.
	Authorize func(r *http.Request, user string, s Session) bool
	// SignIn, if set, is served at access.SignInPath without a credential:
	// how a browser gets one (access.Token's sign-in route).
	SignIn http.Handler
	// OriginPatterns are extra browser origins allowed besides same-origin
	// (host patterns as coder/websocket AcceptOptions.OriginPatterns).
	// New panics on a pattern access.CheckOriginPatterns refuses, such as
	// "*" or "https://*".
	OriginPatterns []string
	// MaxConnections caps active browser streams (DefaultMaxConnections
	// when zero). A stream over the cap closes with wire.CloseCapacity
	// before any task host is started or resumed.
	MaxConnections int
	// MaxConnectionsPerUser caps one user's share of those streams (0: no
	// share, one user may take every slot), so one user with many tabs
	// cannot lock everyone else out. A stream over it closes like one over
	// the cap. Ignored when Capacity is set: give the cap its own share
	// (capacity.LeasesConfig.PerUser).
	MaxConnectionsPerUser int
	// Capacity is the cap itself, for replicas that share one
	// (capacity.Leases, with its own max). Nil: a per-process
	// capacity.Local of MaxConnections slots.
	Capacity capacity.Cap
	// Replica names this relay in /metrics' per-replica cap gauge when
	// Capacity is nil (default "local").
	Replica string
	// Settings stores the user's settings; nil keeps them in memory for
	// the life of the process. The relay does not close it.
	Settings settings.Store
	// SettingsChanged, if set, is called after each successful PUT of the
	// settings with the user and what was stored. It runs on the request's
	// goroutine and must not block. The relay itself only stores: live servers learn of
	// a change from lsp.wasm's workspace/didChangeConfiguration.
	SettingsChanged func(user string, s settings.Settings)
	// Servers are the operator's catalog entries (the file its task hosts'
	// agents are given), which users may choose in their settings beside
	// the built-in servers and which the runtime route lists; nil: the
	// built-in catalog alone.
	Servers settings.Servers

	// AgentBinary is the kandev-agent executable the relay runs for a
	// local_pc session that names no agent URL (the restore path). Empty:
	// such sessions close with wire.CloseUnavailable.
	AgentBinary string
	// AgentEnv is the environment of agents the relay starts — their task
	// environment — without the token, which the relay adds. Nil: the
	// relay's own environment, through the task-environment allowlist
	// (envallow.Allowed), so the relay's secrets (its database password,
	// cloud keys, the browser token) never reach an agent or its servers.
	AgentEnv []string
	// AgentPassEnv names further variables of that environment that started
	// agents and their language servers get besides the allowlist (each
	// agent's -pass-env): a task variable a server really needs.
	AgentPassEnv []string
	// Starter starts and resumes task-host agents. Nil: executor.NewStarter
	// over AgentBinary, AgentEnv, AgentPassEnv, ResumeGrace and AgentOutput
	// (processes for local_pc, the docker CLI for local_docker). Tests
	// replace it to count starts.
	Starter executor.Starter

	// PingInterval is how often each hop of an idle stream — the browser's
	// and the agent's — is pinged (DefaultPingInterval when zero); a hop
	// that has not answered within PingTimeout (DefaultPingTimeout when
	// zero) is treated as gone: the stream closes and frees its capacity
	// slot. A peer whose TCP connection silently vanished is so noticed
	// within 2×PingInterval + PingTimeout.
	PingInterval, PingTimeout time.Duration

	// ResumeGrace is how long the capacity slot of a stream whose
	// browser was lost stays counted, waiting for the browser to resume
	// (DefaultResumeGrace when zero; negative: given back at once). Set
	// it to the task hosts' agents' -resume-grace: they hold the server
	// that long, and a held server must count against the cap like a
	// live one. Agents the relay starts itself are given it.
	ResumeGrace time.Duration

	// ShutdownGrace bounds Serve's drain: the streams' close handshakes,
	// the server's plain requests and the stop of the agents the relay
	// started (DefaultShutdownGrace when zero or negative).
	ShutdownGrace time.Duration

	// AgentOutput receives the stdout (after its listening line) and
	// stderr of agents the relay starts; nil discards them.
	AgentOutput io.Writer

	// Logger receives debug and info records; nil discards them. Stream
	// records carry session, language and conn (the stream's id, also
	// sent to the agent as wire.HeaderConnection).
	Logger *slog.Logger

	// Metrics receives the relay's Prometheus collectors (metrics.go),
	// for a backend that serves its own /metrics. Nil: a registry of the
	// relay's own (with the Go runtime's and the process's collectors),
	// served at GET MetricsPath behind the same guard as every route.
	Metrics prometheus.Registerer

	// dialTimeout bounds the agent handshake (default defaultDialTimeout).
	dialTimeout time.Duration
	// writeTimeout bounds every write on either hop (default
	// wire.WriteTimeout). Tests shorten it.
	writeTimeout time.Duration
}

// Ping defaults. 20 s keeps idle streams alive through proxies that drop
// connections idle for a minute, and costs an idle stream two small frames
// per hop and interval. The timeout must exceed wire.WriteTimeout: a pump
// blocked for up to that long on a slow peer reads no pong meanwhile.
const (
	DefaultPingInterval = 20 * time.Second
	DefaultPingTimeout  = 10 * time.Second
)

// DefaultResumeGrace is the agents' default resume grace
// (agent/stream.DefaultResumeGrace): how long a lost stream's slot is
// held by default.
const DefaultResumeGrace = time.Minute

// defaultDialTimeout bounds connecting to an agent and its HTTP upgrade. A
// local agent answers in milliseconds; anything slower is unavailable.
const defaultDialTimeout = 10 * time.Second

// Relay is the relay's http.Handler. Create it with New; stop the agents
// it started with Close.
type Relay struct {
	cfg      Config
	log      *slog.Logger
	mux      *http.ServeMux
	guarded  http.Handler
	dialer   *agentDialer
	capacity capacity.Cap
	execs    *executor.Executions
	settings settings.Store
	metrics  *metrics

	// drainCtx ends, with bridge.ErrRestart as its cause, when Shutdown
	// starts: every stream's context follows it.
	drainCtx context.Context
	drain    context.CancelCauseFunc
	// streamMu guards streams and drained: the stream handlers still
	// running, and the channel closed when the last one returns after
	// Shutdown started.
	streamMu sync.Mutex
	streams  int
	drained  chan struct{}
}

// New returns the relay. Routes:
//
//	GET  /lsp/{sessionId}?language=L       the browser stream (WebSocket)
//	GET  /api/v1/user/settings             the user's LSP settings
//	PUT  /api/v1/user/settings             a partial update of them
//	GET  /api/v1/lsp/runtime               languages and the auto-installable set
//	POST /api/v1/sessions/{sessionId}/stop task stop: the session's agent and its servers
//	GET  /api/v1/sessions/{sessionId}/lsp/installers  the task host's installers answer
//	GET  access.SignInPath                 Config.SignIn, when set
//	GET  /metrics                          Prometheus text, unless Config.Metrics is set
//
// Every route, these and any added later, sits behind one access.Guard
// built from Config (Hosts, Authenticate, SignIn, OriginPatterns).
//
// A stream lives as long as its request; http.Server.Shutdown neither
// closes nor waits for it (the connection is hijacked). Serve runs an
// http.Server and drains both when its context ends. A backend that runs
// its server otherwise calls Shutdown beside the server's own Shutdown (it
// drains the streams), then Close (it stops the agents the relay started).
// Cancelling the server's BaseContext instead closes every stream with
// wire.CloseGoingAway on both hops, without waiting: the agents stop the
// servers rather than hold them for a resume.
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
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = DefaultPingInterval
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = DefaultPingTimeout
	}
	if cfg.ResumeGrace == 0 {
		cfg.ResumeGrace = DefaultResumeGrace
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = DefaultShutdownGrace
	}
	if cfg.Settings == nil {
		cfg.Settings = settings.NewMemory()
	}
	if cfg.Authorize == nil {
		cfg.Authorize = func(_ *http.Request, user string, s Session) bool { return ownedBy(user, s) }
	}
	if cfg.Capacity == nil {
		if cfg.Replica == "" {
			cfg.Replica = "local"
		}
		cfg.Capacity = capacity.NewLocal(cfg.MaxConnections, cfg.MaxConnectionsPerUser, cfg.Replica)
	}
	if cfg.Starter == nil {
		cfg.Starter = executor.NewStarter(executor.StarterConfig{
			AgentBinary: cfg.AgentBinary, AgentEnv: cfg.AgentEnv, AgentPassEnv: cfg.AgentPassEnv, ResumeGrace: cfg.ResumeGrace,
			AgentOutput: cfg.AgentOutput, Logger: cfg.Logger,
		})
	}
	authenticate := cfg.Authenticate
	if authenticate == nil {
		authenticate = func(*http.Request) (string, error) { return settings.LocalUser, nil }
	}
	dialer := newAgentDialer(cfg.dialTimeout)
	rl := &Relay{
		cfg:      cfg,
		log:      cfg.Logger,
		mux:      http.NewServeMux(),
		dialer:   dialer,
		capacity: cfg.Capacity,
		execs:    executor.NewExecutions(cfg.Starter, &http.Client{Transport: dialer.transport}, cfg.Logger),
		settings: cfg.Settings,
		drained:  make(chan struct{}),
	}
	rl.drainCtx, rl.drain = context.WithCancelCause(context.Background())
	rl.mux.HandleFunc("GET "+wire.RelayStreamPrefix+"{sessionId}", rl.serveStream)
	rl.mux.HandleFunc("GET "+wire.RelaySettingsPath, rl.getSettings)
	rl.mux.HandleFunc("PUT "+wire.RelaySettingsPath, rl.putSettings)
	rl.mux.HandleFunc("GET "+wire.RelayRuntimePath, rl.getRuntime)
	rl.mux.HandleFunc("POST "+sessionStopPattern, rl.stopSession)
	rl.mux.HandleFunc("GET "+wire.RelayInstallersPattern, rl.serveInstallers)
	reg := cfg.Metrics
	if reg == nil {
		own := ownRegistry()
		reg = own
		rl.mux.Handle("GET "+MetricsPath, metricsHandler(own))
	}
	rl.metrics = newMetrics(reg, rl.execs, rl.capacity)
	rl.guarded = access.Guard(access.Config{
		Hosts:          cfg.Hosts,
		Authenticate:   authenticate,
		SignIn:         cfg.SignIn,
		OriginPatterns: cfg.OriginPatterns,
		Logger:         cfg.Logger,
	}, rl.mux)
	return rl
}

// ServeHTTP serves every route behind the guard (see New).
func (rl *Relay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rl.guarded.ServeHTTP(w, r)
}

// user is the user a guarded request acts for.
func user(r *http.Request) string { return access.User(r.Context()) }

// Shutdown drains the relay for a restart or a deploy. It stops admitting
// streams (one that arrives is closed with wire.CloseServiceRestart as
// soon as it is upgraded), closes every live stream — the browser with
// wire.CloseServiceRestart, which tells lsp.wasm that nothing failed and
// it may connect again at once, through a balancer to another replica;
// the agent with the same code, on which it holds the language server for
// that resume — and returns once every stream
// handler has returned, or with ctx's error when ctx ends first. It does
// not stop agents (Close does) and may be called more than once.
func (rl *Relay) Shutdown(ctx context.Context) error {
	rl.drain(bridge.ErrRestart)
	rl.streamMu.Lock()
	if rl.streams == 0 {
		rl.closeDrainedLocked()
	}
	rl.streamMu.Unlock()
	select {
	case <-rl.drained:
		return nil
	default:
	}
	select {
	case <-rl.drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enterStream counts a stream handler in; it reports false once Shutdown
// has started, and the stream is then closed at once.
func (rl *Relay) enterStream() bool {
	rl.streamMu.Lock()
	defer rl.streamMu.Unlock()
	if rl.drainCtx.Err() != nil {
		return false
	}
	rl.streams++
	return true
}

// leaveStream counts a stream handler out.
func (rl *Relay) leaveStream() {
	rl.streamMu.Lock()
	defer rl.streamMu.Unlock()
	if rl.streams--; rl.streams == 0 && rl.drainCtx.Err() != nil {
		rl.closeDrainedLocked()
	}
}

func (rl *Relay) closeDrainedLocked() {
	select {
	case <-rl.drained:
	default:
		close(rl.drained)
	}
}

// Close stops every agent the relay started (task stop for each: their
// streams close with 1001 and their language servers are reaped) and
// refuses further starts. It waits until they have exited or ctx ends. It
// does not touch agents it did not start, nor Config.Settings.
func (rl *Relay) Close(ctx context.Context) error {
	return rl.execs.Close(ctx)
}

// slotsInUse is the cap's global count now (0 when it cannot be read).
func (rl *Relay) slotsInUse() int64 {
	u, _ := rl.capacity.Usage(context.Background())
	return int64(u.Global)
}

// streamsBridged is the cap's count of streams still bridged: in use and
// not held for a resume (0 when it cannot be read).
func (rl *Relay) streamsBridged() int64 {
	u, _ := rl.capacity.Usage(context.Background())
	return int64(u.Global - u.Held)
}
