// Package stream serves the task-host LSP stream: the WebSocket route
// wire.AgentStreamPath that finds a language server, starts it in the
// workspace and bridges it, one JSON-RPC message per text frame on the
// socket and one Content-Length frame on stdio.
//
// A missing server is installed when the request asks for it
// (autoinstall.go): status frames report the install, and the socket is
// read meanwhile (readahead.go), which both cancels it when the peer
// leaves and keeps what the peer sends for the bridge, in order.
//
// The route decides everything it can before upgrading — missing token
// (HTTP 401, checked first), unknown language (HTTP 400), shutting down
// (HTTP 503) — so a rejected request never starts a process. After the upgrade every failure
// is a categorical close code (wire.Close*) with an empty reason: transport
// prose stays in the agent's log. A stream over the connection cap is one
// of those: upgraded and closed with 4005 before anything starts.
//
// A peer that vanishes without closing is found by pings on idle streams
// (keepalive.go) and treated like one that left.
//
// Bodies are never parsed. A message is read from the socket into a pooled
// buffer and written to stdin with its header (one write up to 64 KiB); a
// message from stdout is read into the framing reader's buffer and sent as
// one frame. Every socket write is bounded by a deadline on the connection
// itself (netconn.go), every stdin write by the stdin timeout.
//
// The only messages the agent writes itself are at teardown: shutdown and
// exit to a server that still reads, so it can end cleanly before any
// signal. Its answers are drained, never forwarded.
//
// Besides the server's messages, the peer gets files frames (wire.Files,
// files.go) after ready: what changed on disk in the workspace, from the
// agent's one watcher. They are the agent's own frames, between whole
// messages, and never reach the server.
package stream

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/proc"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/watch"
	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

// Config configures a Handler. Zero durations take the defaults named on
// each field; tests shorten them.
type Config struct {
	// Workspace is where servers run and what the ready frame describes.
	Workspace *workspace.Root
	// Token is the bearer token every request must carry.
	Token string
	// Env is the task environment: discovery reads it and servers get it.
	// New confines it to directories outside Workspace.
	Env *taskenv.Env
	// Catalog is what may run: a request names one of its entries (or
	// none, for the language's default). Nil is the built-in catalog.
	Catalog *catalog.Catalog
	// Logger receives what the peer must not see. Nil discards.
	Logger *slog.Logger
	// ServerStderr receives the servers' stderr. Nil discards it.
	ServerStderr io.Writer
	// Installs installs a missing server when the request asks for it
	// (autoInstall=true). It is the agent's one Manager, shared by every
	// connection, so installs of one destination are serialised and task
	// stop can drain them all. Nil is a build without installers: a missing
	// server closes 4001 or 4007 as the catalog says.
	Installs *install.Manager
	// Watch reports the workspace's changes: each stream forwards them to
	// its peer as files frames (wire.Files) after ready. It is the agent's
	// one Watcher, shared by every stream. Nil sends none.
	Watch *watch.Watcher

	// WriteTimeout bounds each WebSocket write (wire.WriteTimeout).
	WriteTimeout time.Duration
	// StdinWriteTimeout bounds each stdin write (wire.StdinWriteTimeout).
	StdinWriteTimeout time.Duration
	// StopGrace and KillGrace are the process stop graces
	// (proc.DefaultGrace, proc.DefaultKillGrace).
	StopGrace, KillGrace time.Duration
	// ExitDrain is how long stdout may keep delivering after the server
	// exits, so its last messages still reach the peer (1 s). A descendant
	// holding stdout open cannot hold the stream longer than this.
	ExitDrain time.Duration

	// PingInterval is how long a stream may go without a message from the
	// peer before the agent pings it (DefaultPingInterval); PingTimeout is
	// how long the peer then has to answer (DefaultPingTimeout) before the
	// stream is closed as dead and its server stopped.
	PingInterval, PingTimeout time.Duration
	// MaxConnections caps the streams open at once (DefaultMaxConnections);
	// one more is refused with 4005. A server held for a resume counts.
	MaxConnections int
	// ResumeGrace is how long a server whose socket was lost is held for
	// a resume (resume.go; DefaultResumeGrace); negative holds none, so a
	// lost socket stops its server at once.
	ResumeGrace time.Duration

	// Metrics receives counts of streams, installs, bytes and servers;
	// nil counts nothing.
	Metrics Metrics
}

// Defaults for dead-peer detection and the connection cap.
const (
	// DefaultPingInterval and DefaultPingTimeout bound how long a peer that
	// vanished without closing (a relay host that lost power, a silently
	// dropped TCP connection) holds a stream and its language server:
	// at most two intervals and a timeout, under a minute and a half.
	// Writes alone cannot tell: the kernel accepts them into its buffer.
	DefaultPingInterval = 30 * time.Second
	DefaultPingTimeout  = 15 * time.Second
	// DefaultMaxConnections is twice the relay's default cap (8, from
	// KANDEV_LSP_MAX_CONNECTIONS), so with one relay in front the relay's
	// cap is the one users meet; this one bounds the language servers a
	// task host runs whatever calls it.
	DefaultMaxConnections = 16
	// DefaultResumeGrace covers a relay restart, a deploy or a replica
	// failing over with room to spare, and bounds what a browser that
	// never comes back costs: one idle server for a minute.
	DefaultResumeGrace = time.Minute
)

// Handler serves wire.AgentStreamPath. Create it with New.
type Handler struct {
	cfg    Config
	logger *slog.Logger
	// launcher starts the servers, each in a reaper shim started ahead of
	// the stream that needs it.
	launcher *proc.Launcher

	mu       sync.Mutex
	closed   bool // admission closed by Shutdown
	sessions map[*session]struct{}
	holds    map[string]*session // by resume token (resume.go)
	wg       sync.WaitGroup      // one per admitted request
}

// New returns a Handler for cfg.
func New(cfg Config) *Handler {
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = wire.WriteTimeout
	}
	if cfg.StdinWriteTimeout <= 0 {
		cfg.StdinWriteTimeout = wire.StdinWriteTimeout
	}
	if cfg.ExitDrain <= 0 {
		cfg.ExitDrain = time.Second
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = DefaultPingInterval
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = DefaultPingTimeout
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.ResumeGrace == 0 {
		cfg.ResumeGrace = DefaultResumeGrace
	}
	if cfg.Env != nil && cfg.Workspace != nil {
		// Discovery never runs a binary from the checkout, whatever the
		// task PATH, GOBIN, GOPATH or HOME say.
		cfg.Env = cfg.Env.WithWorkspace(cfg.Workspace.Dir())
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	if cfg.Catalog == nil {
		cfg.Catalog = catalog.Builtin()
	}
	return &Handler{cfg: cfg, logger: logger, launcher: proc.NewLauncher(cfg.ServerStderr), sessions: make(map[*session]struct{}), holds: make(map[string]*session)}
}

// ServeHTTP validates the request, then upgrades it and runs the session.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The token comes first, before the method, the language or the
	// server id are looked at: an anonymous peer gets the same 401 for an
	// id the operator's catalog holds and for one it does not, so it
	// cannot learn which servers this agent runs.
	if !auth.Valid(r, h.cfg.Token) {
		h.cfg.Metrics.StreamRefused(http.StatusUnauthorized)
		auth.Deny(w)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	// The server is a catalog id, never a command: anything else (a path,
	// an id of no entry, an entry of another language, two of them) is
	// refused here, before any upgrade or process.
	srv, err := h.cfg.Catalog.Resolve(q.Get(wire.ParamLanguage), q.Get(wire.ParamServer))
	if err == nil && len(q[wire.ParamServer]) > 1 {
		err = catalog.ErrBadServerID
	}
	if err != nil {
		h.logger.Debug("stream refused", "err", err)
		h.cfg.Metrics.StreamRefused(http.StatusBadRequest)
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}
	lang := wire.Language(q.Get(wire.ParamLanguage))
	if q.Has(wire.ParamResume) {
		h.resume(w, r, lang, srv.ID)
		return
	}
	autoInstall := false
	if v := q.Get(wire.ParamAutoInstall); v != "" {
		if autoInstall, err = strconv.ParseBool(v); err != nil {
			h.cfg.Metrics.StreamRefused(http.StatusBadRequest)
			http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
			return
		}
	}
	// Every line of the stream names its session, language and connection
	// id: the relay's, when it sent them, so both hops' lines match.
	log := h.logger.With("session", logID(r, wire.HeaderSession), "language", lang, "server", srv.ID,
		"conn", logID(r, wire.HeaderConnection))
	s, full := h.admit()
	if full {
		h.cfg.Metrics.StreamRefused(int(wire.CloseCapacity))
		h.refuse(w, r, log)
		return
	}
	if s == nil {
		// Task stop has begun: no new process may start. The relay reports
		// this like any other unavailable task host.
		h.cfg.Metrics.StreamRefused(http.StatusServiceUnavailable)
		http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
		return
	}
	defer h.release(s)

	s.lang, s.srv = lang, srv
	s.logger = log
	path, locateErr := srv.Locate(h.cfg.Env)

	sock, err := h.accept(w, r)
	if err != nil {
		// Accept has already written the HTTP error response.
		s.logger.Debug("websocket accept failed", "err", err)
		return
	}
	s.sock.Store(sock)
	h.cfg.Metrics.StreamOpened(s.lang)
	defer func() { h.cfg.Metrics.StreamClosed(s.lang, sock.closedWith()) }()
	stopPings := make(chan struct{})
	pings := make(chan struct{})
	go func() {
		defer close(pings)
		s.keepAlive(stopPings)
	}()
	defer func() {
		close(stopPings)
		<-pings
	}()

	if locateErr != nil {
		var ok bool
		if path, ok = s.missing(autoInstall); !ok {
			return
		}
	}
	s.run(path)
}

// accept upgrades the request to the stream's WebSocket.
func (h *Handler) accept(w http.ResponseWriter, r *http.Request) (*socket, error) {
	hc := &hijackCapture{ResponseWriter: w}
	conn, err := websocket.Accept(hc, r, &websocket.AcceptOptions{
		// Origin checks defend browsers' ambient credentials against
		// cross-site pages. This route has none: it is called by the relay
		// (a server, which forwards no cookies), and a browser cannot put
		// the bearer token on a WebSocket handshake, so the token check
		// already rejects every cross-site attempt. Verifying Origin on top
		// would only break relays that forward the browser's Origin header.
		InsecureSkipVerify: true,
		// Compression is off on purpose: the hop is loopback or a local
		// network, where deflating megabyte JSON costs more CPU and latency
		// than the bytes it saves, and per-connection flate state would
		// cost every idle connection memory.
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, err
	}
	// One byte more than the limit reaches our own check, which closes
	// with 1009 and an empty reason; the library's own limit error would
	// put its prose in the close reason.
	conn.SetReadLimit(wire.MaxMessageSize + 1)
	tuneSocket(hc.conn)
	return &socket{ws: conn, raw: hc.conn, timeout: h.cfg.WriteTimeout, released: make(chan struct{})}, nil
}

// refuse answers a stream over the connection cap: upgraded, then closed
// with 4005 and no reason, before anything is looked up or started.
//
// A close code rather than an HTTP status: the relay passes the agent's
// close codes on to the browser, which shows 4005 as "too many language
// servers are active" — what happened. An HTTP 503 before the upgrade
// would reach the browser as 4002 (task host unavailable), which sends the
// user looking for a task host that is running fine.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, log *slog.Logger) {
	log.Warn("stream refused: connection cap reached", "max", h.cfg.MaxConnections)
	sock, err := h.accept(w, r)
	if err != nil {
		return
	}
	_ = sock.close(websocket.StatusCode(wire.CloseCapacity))
}

// admit registers a new session. It returns nil once Shutdown has begun,
// and nil with full set when MaxConnections streams are open.
func (h *Handler) admit() (s *session, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	if len(h.sessions) >= h.cfg.MaxConnections {
		return nil, true
	}
	s = &session{h: h, shutdown: make(chan struct{}), stdinLock: make(chan struct{}, 1),
		attach: make(chan *attachment), serverDone: make(chan struct{})}
	h.sessions[s] = struct{}{}
	h.wg.Add(1)
	return s, false
}

func (h *Handler) release(s *session) {
	h.mu.Lock()
	delete(h.sessions, s)
	h.mu.Unlock()
	h.wg.Done()
}

// Shutdown is task stop: it closes admission (new requests get HTTP 503),
// tells every session to stop its process tree and close with 1001 and an
// empty reason, and waits for them to finish or for ctx to end.
func (h *Handler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	for s := range h.sessions {
		s.stop()
	}
	h.mu.Unlock()
	// No stream starts a server any more: the spare reaper shim goes too.
	h.launcher.Close()

	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
