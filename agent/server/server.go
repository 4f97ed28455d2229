// Package server assembles the task-host agent: one http.Handler with every
// agent route (the LSP stream, the workspace files; installers later) built
// from one Config, and one Shutdown that is task stop. The binary only
// parses flags and wires this to a listener.
package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/kandev/lsp/agent/files"
	"github.com/kandev/lsp/agent/stream"
	"github.com/kandev/lsp/agent/taskenv"
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
	Env map[string]string
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
}

// Server is the agent's HTTP surface.
type Server struct {
	mux    *http.ServeMux
	stream *stream.Handler
	root   *workspace.Root
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
	st := stream.New(stream.Config{
		Workspace: root, Token: cfg.Token, Env: taskenv.New(cfg.Env),
		Logger: cfg.Logger, ServerStderr: cfg.ServerStderr,
		WriteTimeout: cfg.WriteTimeout, StdinWriteTimeout: cfg.StdinWriteTimeout,
		StopGrace: cfg.StopGrace, KillGrace: cfg.KillGrace,
	})
	fh := files.New(root, cfg.Token, cfg.Logger)
	mux := http.NewServeMux()
	mux.Handle(wire.AgentStreamPath, st)
	mux.Handle(wire.AgentFilesPath, fh)
	mux.Handle(wire.AgentFilePath, fh)
	return &Server{mux: mux, stream: st, root: root}, nil
}

// ServeHTTP routes to the agent's handlers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Shutdown is task stop: close admission, reap every owned process tree and
// close every stream with 1001, waiting at most until ctx ends. Call it
// before http.Server.Shutdown, which does not wait for upgraded connections.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.stream.Shutdown(ctx)
	s.root.Close()
	return err
}
