package stream

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/sync/errgroup"

	"github.com/kandev/lsp/agent/catalog"
	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/agent/proc"
	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/agent/watch"
	"github.com/kandev/lsp/internal/replay"
	"github.com/kandev/lsp/internal/wire"
)

// closeNow is the teardown "code" for a peer that is already gone (it closed,
// or a write to it failed): there is nobody to send a close frame to.
const closeNow websocket.StatusCode = 0

// goodbyeWait is how long teardown waits for the stdin writer before it
// decides the server is not reading and skips shutdown/exit.
const goodbyeWait = 100 * time.Millisecond

// session is one admitted stream request.
type session struct {
	h      *Handler
	logger *slog.Logger
	lang   wire.Language
	// srv is the catalog entry the stream runs.
	srv      catalog.Entry
	shutdown chan struct{} // closed by stop
	stopOnce sync.Once

	// sock is the stream's socket: the request's, then each resume's
	// (resume.go); nil while the server is held for a resume. Data frames
	// to it are written under outMu, through send.
	sock atomic.Pointer[socket]
	// outMu orders the data frames to the peer (the server's messages,
	// files frames): each is numbered and kept in out, then written to
	// the socket of the moment, so a resume can send again what the peer
	// missed. out is nil when the stream cannot be resumed.
	outMu sync.Mutex
	out   *replay.Buffer
	// received counts the peer's data frames written to stdin; only the
	// socket reader touches it. acks is set when the stream is resumable
	// (before the bridge starts): the reader then acknowledges them.
	received atomic.Uint64
	acks     bool
	// token is the stream's current resume token ("" when it has none);
	// guarded by Handler.mu, like the holds map it is the key of.
	token string
	// attach hands a held stream the socket of a resume request.
	attach chan *attachment
	// serverDone is closed once the bridge has ended (the server is
	// stopped or stopping): a resume arriving then is refused.
	serverDone chan struct{}
	// stdinLock is a one-slot channel that serialises writes to the
	// server's stdin (the socket pump's frames, teardown's shutdown/exit);
	// a channel rather than a mutex so teardown can give up waiting.
	stdinLock chan struct{}
	stdinW    *framing.Writer
	// ending is set when teardown begins: from then on stdout is drained
	// but no longer forwarded, so the answer to our own shutdown request
	// never reaches the peer.
	ending atomic.Bool
	// ahead is the reader of an install, whose kept messages the bridge
	// forwards first; nil when there was no install.
	ahead *readAhead
	// files reports workspace changes to the peer (files.go); nil when
	// the agent does not watch the workspace.
	files *watch.Subscription

	// reading is set while a reader waits on the socket, and heard counts
	// the messages the peer sent: keepAlive pings an idle peer only when
	// a reader is there to take the pong.
	reading atomic.Bool
	heard   atomic.Uint64
}

// stop asks the session to end with 1001. It may come before the session
// has a connection or a process; run checks for it at each step.
func (s *session) stop() { s.stopOnce.Do(func() { close(s.shutdown) }) }

// socket is the stream's socket of the moment; nil while it is held.
func (s *session) socket() *socket { return s.sock.Load() }

func (s *session) stopping() bool {
	select {
	case <-s.shutdown:
		return true
	default:
		return false
	}
}

// run starts the server, sends the ready frame and bridges until the first
// of: the peer goes, the server exits, a pipe fails, or task stop. Whatever
// ends it, the process tree is stopped and every goroutine has returned
// before run does.
func (s *session) run(path string) {
	cfg := s.h.cfg
	// Every path below has closed the socket by the time it returns, which
	// ends a read-ahead the bridge did not take.
	defer s.dropReadAhead()
	if s.stopping() {
		_ = s.socket().close(websocket.StatusCode(wire.CloseGoingAway))
		return
	}
	// The workspace is walked while the server starts; ready waits for
	// the walk, so every change after ready is reported. The ready frame's
	// repositories are found meanwhile too (a walk of the workspace's top
	// two levels), not after.
	s.watchFiles()
	defer s.unwatchFiles()
	repos := make(chan []string, 1)
	go func() { repos <- cfg.Workspace.RepoSubpaths() }()
	args := s.srv.Args
	// A launcher script's "#!/usr/bin/env node" is resolved here, like
	// discovery, not by env over the task PATH. No such interpreter
	// outside the workspace is a server that cannot run on this host:
	// reported like a missing server with no installer (4007, the
	// manual-install guidance), never left to a PATH search.
	interp, err := cfg.Env.Interpreter(path)
	if err != nil {
		s.logger.Info("language server's interpreter not found outside the workspace", "path", path, "err", err)
		_ = s.socket().close(websocket.StatusCode(wire.CloseNoInstaller))
		return
	}
	if interp != "" {
		path, args = interp, append([]string{path}, args...)
	}
	p, err := s.h.launcher.Start(proc.Command{
		Path: path, Args: args, Dir: cfg.Workspace.Dir(), Env: serverEnv(cfg.Env, s.srv),
		Grace: cfg.StopGrace, KillGrace: cfg.KillGrace,
	})
	if err != nil {
		s.logger.Error("language server failed to start", "path", path, "err", err)
		_ = s.socket().close(websocket.StatusCode(wire.CloseStartFailed))
		return
	}
	s.h.cfg.Metrics.ServerStarted(s.lang)
	s.logger = s.logger.With("pid", p.Pid())
	s.logger.Info("language server started", "path", path)
	s.stdinW = framing.NewWriter(p.Stdin())

	s.awaitWatch()
	ws := cfg.Workspace
	if err := s.sendStatus(wire.Status{
		Status:                wire.StatusReady,
		Server:                s.srv.ID,
		WorkspacePath:         ws.Dir(),
		WorkspaceURI:          wire.FileURI(filepath.ToSlash(ws.Dir())),
		RepoSubpaths:          <-repos,
		InitializationOptions: wire.RawJSON(s.srv.InitOptions(cfg.Env)),
		Configuration:         wire.RawJSON(s.srv.Configuration),
		PushConfiguration:     s.srv.PushConfiguration,
		Features:              s.srv.Features,
		Heartbeat:             true,
		Resume:                s.resumable(),
	}); err != nil {
		// A stalled peer: the process started before the frame could be
		// delivered is stopped all the same.
		s.logger.Info("ready frame not delivered", "err", err)
		s.teardown(p, closeNow)
		return
	}
	s.bridge(p)
}

// serverEnv is the environment a server runs with: the allowed part of
// the task's, PATH confined (taskenv.ServerList), with the entry's tools
// (Entry.Tools) set to what discovery finds, replacing any value the task
// had for them.
func serverEnv(env *taskenv.Env, e catalog.Entry) []string {
	list := env.ServerList()
	if len(e.Tools) == 0 {
		return list
	}
	tools := e.ToolEnv(env)
	out := make([]string, 0, len(list)+len(tools))
	for _, kv := range list {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(e.Tools, func(t catalog.Tool) bool { return t.Env == name }) {
			out = append(out, kv)
		}
	}
	return append(out, tools...)
}

// sendStatus writes one status frame within the write timeout: ready, and
// the installing, installed and install_failed frames of an install.
func (s *session) sendStatus(st wire.Status) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.socket().write(b)
}

// bridge pumps messages both ways until the first cause to end, then tears
// down and waits for every pump to return.
func (s *session) bridge(p *proc.Process) {
	// causes holds the first reason to end; later ones are dropped.
	causes := make(chan websocket.StatusCode, 1)
	report := func(c websocket.StatusCode) {
		select {
		case causes <- c:
		default:
		}
	}
	finished := make(chan struct{}) // ends the exit watcher
	stdoutDone := make(chan struct{})

	var g errgroup.Group
	g.Go(func() error {
		defer close(stdoutDone)
		// The stdout forwarder ending means nobody will read replies: close
		// stdin at once so a blocked stdin write is released.
		defer p.CloseStdin()
		report(s.stdoutToSocket(p))
		return nil
	})
	g.Go(func() error {
		report(s.socketToStdin(p))
		return nil
	})
	g.Go(func() error {
		select {
		case <-p.Done():
			// Let stdout deliver the server's last messages first; stdout
			// reaching EOF reports 4006 itself.
			t := time.NewTimer(s.h.cfg.ExitDrain)
			defer t.Stop()
			select {
			case <-stdoutDone:
			case <-t.C:
			case <-s.shutdown:
				report(websocket.StatusCode(wire.CloseGoingAway))
			case <-finished:
			}
			report(websocket.StatusCode(wire.CloseServerExited))
		case <-s.shutdown:
			report(websocket.StatusCode(wire.CloseGoingAway))
		case <-finished:
		}
		return nil
	})

	// Workspace changes go to the peer between the server's messages;
	// they are the agent's own frames and never reach the server.
	filesCtx, stopFiles := context.WithCancel(context.Background())
	if s.files != nil {
		g.Go(func() error {
			if code, failed := s.filesToSocket(filesCtx); failed {
				report(code)
			}
			return nil
		})
	}

	code := <-causes
	close(finished)
	stopFiles()
	// Closing the socket unblocks the socket reader and any socket write;
	// Stop closes both pipes, which unblocks the stdio sides.
	s.teardown(p, code)
	_ = g.Wait()
}

// teardown closes the socket with code and stops the process tree, both at
// once: a close handshake with a slow peer must not delay reaping, nor the
// reverse.
func (s *session) teardown(p *proc.Process, code websocket.StatusCode) {
	s.ending.Store(true)
	s.forget()
	close(s.serverDone)
	var wg sync.WaitGroup
	s.outMu.Lock()
	sock := s.sock.Swap(nil)
	s.outMu.Unlock()
	if sock != nil {
		wg.Go(func() {
			_ = sock.close(code)
			sock.release()
		})
	}
	if code != websocket.StatusCode(wire.CloseServerExited) {
		s.goodbye(p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopBudget(s.h.cfg))
	defer cancel()
	if err := p.Stop(ctx); err != nil {
		s.logger.Warn("language server stop", "err", err)
	}
	s.h.cfg.Metrics.ServerStopped(s.lang)
	wg.Wait()
	s.logger.Info("stream ended", "code", int(code), "exit", p.Err())
}

// Messages teardown sends a server that still reads: the LSP way to end a
// session, so a server can save state and exit 0 before any signal.
var (
	shutdownRequest  = []byte(`{"jsonrpc":"2.0","id":"kandev-agent-shutdown","method":"shutdown"}`)
	exitNotification = []byte(`{"jsonrpc":"2.0","method":"exit"}`)
)

// goodbye sends shutdown and exit when the server is alive and its stdin
// free; a server that is not reading (a write already pending) is left to
// Stop's signals. The two are sent back to back: waiting for the shutdown
// answer would mean parsing stdout, and servers handle messages in order.
func (s *session) goodbye(p *proc.Process) {
	select {
	case <-p.Done():
		return
	default:
	}
	t := time.NewTimer(goodbyeWait)
	defer t.Stop()
	select {
	case s.stdinLock <- struct{}{}:
	case <-t.C:
		return
	}
	defer func() { <-s.stdinLock }()
	_ = p.Stdin().SetWriteDeadline(time.Now().Add(goodbyeWait))
	if s.stdinW.Write(shutdownRequest) == nil {
		_ = s.stdinW.Write(exitNotification)
	}
}

// stopBudget bounds one Stop: both graces and a margin for the final kill.
func stopBudget(cfg Config) time.Duration {
	g, k := cfg.StopGrace, cfg.KillGrace
	if g <= 0 {
		g = proc.DefaultGrace
	}
	if k <= 0 {
		k = proc.DefaultKillGrace
	}
	return g + k + 2*time.Second
}
