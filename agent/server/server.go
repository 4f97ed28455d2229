// Package server assembles the task-host agent: one http.Handler with every
// agent route (the LSP stream, the installers description, the workspace
// files, task stop, metrics) built from one Config, and one Shutdown that is task
// stop. The binary only parses flags and wires this to a listener.
package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kandev/lsp/agent/auth"
	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/files"
	"github.com/kandev/lsp/agent/install"
	"github.com/kandev/lsp/agent/installers"
	"github.com/kandev/lsp/agent/library"
	"github.com/kandev/lsp/agent/metrics"
	"github.com/kandev/lsp/agent/stream"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/watch"
	"github.com/kandev/lsp/agent/workspace"
	"github.com/kandev/lsp/internal/wire"
)

// Config is everything the agent needs. Zero durations take the stream
// package's defaults (the wire timeouts and proc graces).
type Config struct {
	// Workspace is the absolute task workspace directory.
	Workspace string
	// Token is the bearer token every route requires; it must not be empty.
	Token string
	// Env is the task environment, as taskenv.Parse(os.Environ()) gives it.
	// Discovery reads all of it; language servers and installers get only
	// the allowlisted variables (taskenv.Allowed) and those in PassEnv.
	Env map[string]string
	// PassEnv names task variables that language servers and installers
	// get besides the allowlist (the binary's -pass-env).
	PassEnv []string
	// Catalog is what may run (the stream route's language and server
	// parameters name its entries; the installers route lists them). Nil
	// is the built-in catalog; catalog.New adds an operator's entries.
	Catalog *catalog.Catalog
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// ServerStderr receives language servers' stderr; nil discards it.
	ServerStderr io.Writer

	// WriteTimeout bounds each WebSocket write (default wire.WriteTimeout).
	WriteTimeout time.Duration
	// StdinWriteTimeout bounds each stdin write (wire.StdinWriteTimeout).
	StdinWriteTimeout time.Duration
	// StopGrace is how long a server may take to exit after its stdin
	// closes before SIGTERM (proc.DefaultGrace).
	StopGrace time.Duration
	// KillGrace is how long after SIGTERM before SIGKILL
	// (proc.DefaultKillGrace).
	KillGrace time.Duration
	// GOOS and GOARCH override the task host's OS and architecture for
	// discovery and installer answers; empty means the agent's own. Tests
	// describe a Windows host this way.
	GOOS, GOARCH string
	// StopTimeout bounds the stop route's Shutdown (default 15 s).
	StopTimeout time.Duration
	// PingInterval, PingTimeout and MaxConnections are the stream's
	// dead-peer detection and connection cap (stream.DefaultPingInterval,
	// stream.DefaultPingTimeout, stream.DefaultMaxConnections).
	PingInterval, PingTimeout time.Duration
	MaxConnections            int
	// ResumeGrace is how long a server whose socket was lost is held for
	// a resume (stream.Config.ResumeGrace: 0 the default, negative none).
	ResumeGrace time.Duration
	// Metrics, if set, counts streams, installs, bytes and servers, and
	// is served at metrics.Path behind the token. Nil: a fresh set.
	Metrics *metrics.Agent
	// MaxWatches caps the workspace directories watched for changes
	// (watch.DefaultMaxWatches); past it, one log line says so.
	MaxWatches int
	// InstallPlan answers the install part of the installers route; nil
	// is the agent's install Manager's Describe, so the route says what an
	// install would really do on this host.
	InstallPlan installers.Planner
	// Install configures the agent's one install Manager (release base
	// URL and checksums, the installer runner's graces, the stall and
	// overall install deadlines, the release size limit, lock polling).
	// An empty GOARCH takes the task host's (GOARCH above).
	Install install.Config
}

// Server is the agent's HTTP surface.
type Server struct {
	mux         *http.ServeMux
	stream      *stream.Handler
	installs    *install.Manager
	watcher     *watch.Watcher
	root        *workspace.Root
	lib         *library.Library
	token       string
	stopTimeout time.Duration
	logger      *slog.Logger

	closeRoot sync.Once
	stopOnce  sync.Once
	stopped   chan struct{} // closed after the stop route's Shutdown
}

// New builds the agent from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Token == "" {
		return nil, errors.New("server: empty token")
	}
	root, err := workspace.Open(cfg.Workspace)
	if err != nil {
		return nil, err
	}
	env := taskenv.New(cfg.Env).WithPass(cfg.PassEnv...)
	if cfg.GOOS != "" {
		env.GOOS = cfg.GOOS
	}
	if cfg.GOARCH != "" {
		env.GOARCH = cfg.GOARCH
	}
	// Discovery, the installers route and installs never look inside the
	// checkout (taskenv.WithWorkspace).
	env = env.WithWorkspace(root.Dir())
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = 15 * time.Second
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	icfg := cfg.Install
	if icfg.GOARCH == "" {
		icfg.GOARCH = env.GOARCH
	}
	// One Manager for the whole agent: it is what serialises installs of
	// one destination across connections, and what task stop drains.
	mgr := install.New(icfg)
	plan := cfg.InstallPlan
	if plan == nil {
		plan = mgr.Describe
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.New()
	}
	if cfg.Catalog == nil {
		cfg.Catalog = catalog.Builtin()
	}
	// One watcher for the workspace, shared by every stream: the kernel's
	// watches are taken once, however many servers run.
	watcher := watch.New(root.Dir(), watch.Options{MaxWatches: cfg.MaxWatches, Logger: logger})
	st := stream.New(stream.Config{
		Workspace: root, Token: cfg.Token, Env: env, Catalog: cfg.Catalog, Installs: mgr, Watch: watcher,
		Logger: cfg.Logger, ServerStderr: cfg.ServerStderr,
		WriteTimeout: cfg.WriteTimeout, StdinWriteTimeout: cfg.StdinWriteTimeout,
		StopGrace: cfg.StopGrace, KillGrace: cfg.KillGrace,
		PingInterval: cfg.PingInterval, PingTimeout: cfg.PingTimeout, MaxConnections: cfg.MaxConnections,
		ResumeGrace: cfg.ResumeGrace,
		Metrics:     cfg.Metrics,
	})
	fh := files.New(root, cfg.Token, cfg.Logger)
	s := &Server{
		stream: st, installs: mgr, watcher: watcher, root: root, token: cfg.Token, stopTimeout: cfg.StopTimeout, logger: logger,
		stopped: make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.Handle(wire.AgentStreamPath, st)
	mux.Handle(wire.AgentInstallersPath, installers.New(env, cfg.Catalog, cfg.Token, plan))
	mux.Handle(wire.AgentFilesPath, fh)
	mux.Handle(wire.AgentFilePath, fh)
	mux.Handle(wire.AgentEntryPath, fh)
	mux.Handle(wire.AgentMovePath, fh)
	mux.Handle(wire.AgentSearchPath, fh)
	mux.Handle(wire.AgentReposPath, fh)
	var commands []string
	for _, e := range cfg.Catalog.Entries() {
		commands = append(commands, e.Command)
	}
	lib := library.New(env, commands)
	s.lib = lib
	lh := files.NewLibrary(lib, cfg.Token, cfg.Logger)
	mux.Handle(wire.AgentLibraryRootsPath, lh)
	mux.Handle(wire.AgentLibraryFilePath, lh)
	mux.HandleFunc(wire.AgentTaskStopPath, s.stop)
	// Behind the same token as every route: the agent has one credential,
	// and its metrics name the languages a task uses.
	// The token is checked before the method, as on every route.
	mux.Handle(metrics.Path, auth.Require(cfg.Token, getOnly(cfg.Metrics.Handler())))
	s.mux = mux
	return s, nil
}

// ServeHTTP routes to the agent's handlers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Shutdown is task stop: close admission, cancel and drain every install,
// reap every owned process tree and close every stream with 1001, waiting
// at most until ctx ends. Call it before http.Server.Shutdown, which does
// not wait for upgraded connections.
//
// Shutdown may be called more than once (the stop route, then the binary's
// own shutdown); later calls wait like the first.
func (s *Server) Shutdown(ctx context.Context) error {
	// Both at once: the Manager cancels installs and waits until each has
	// killed its tree and removed its partial files, while the streams
	// waiting on those installs close with 1001 as they return.
	var g errgroup.Group
	g.Go(func() error { return s.installs.Close(ctx) })
	g.Go(func() error { return s.stream.Shutdown(ctx) })
	err := g.Wait()
	if err == nil {
		s.closeRoot.Do(func() {
			s.watcher.Close()
			s.root.Close()
			s.lib.Close()
		})
	}
	return err
}

// Stopped is closed once the stop route has completed a task stop; the
// binary then exits as it does after SIGTERM.
func (s *Server) Stopped() <-chan struct{} { return s.stopped }

// stop serves wire.AgentTaskStopPath: POST with the token runs Shutdown and
// answers 200 once every tree is reaped and every stream closed. The
// request's own context does not bound it: a relay that gives up waiting
// must not leave the stop half done.
func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	if !auth.Valid(r, s.token) {
		auth.Deny(w)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	s.logger.Info("task stop requested")
	ctx, cancel := context.WithTimeout(context.Background(), s.stopTimeout)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.logger.Warn("task stop", "err", err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	s.stopOnce.Do(func() { close(s.stopped) })
	w.WriteHeader(http.StatusOK)
}

// getOnly answers anything but GET and HEAD with 405.
func getOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}
