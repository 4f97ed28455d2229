package webdemo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/kandev/lsp/relay"
	"github.com/kandev/lsp/relay/access"
	"github.com/kandev/lsp/relay/settings"
)

// The demo's sessions: the page's own, a twin with its own task host over
// the same directory, a Local Docker task when an engine and the image are
// there, a session with no language server at all, and an SSH task — an
// executor the relay does not serve, so its editors show the unsupported
// task-host status and nothing is started for it.
const (
	SessionID       = "demo"
	TwinSessionID   = "twin"
	DockerSessionID = "docker"
	PlainSessionID  = "demo2"
	SSHSessionID    = "ssh"
)

// Options are what the demo's command line chooses.
type Options struct {
	// AgentBin is the kandev-agent binary each Local PC task host runs.
	AgentBin string
	// Sample is the workspace copied into a temporary directory.
	Sample string
	// WASMDir, ESMDir, BenchDir, PackageDir and MonacoDir: see Config.
	WASMDir, ESMDir, BenchDir, PackageDir, MonacoDir string
	// DBPath is the settings database; empty: DefaultSettingsPath.
	DBPath string
	// FakeLSP is the scripted fake language server, put on the task PATH
	// as rust-analyzer and kotlin-lsp (tests). Empty: none.
	FakeLSP string
	// ToolPath lists folders put first on the agents' PATH.
	ToolPath string
	// DockerImage is the task image of the Local Docker session; empty, or
	// no engine answering: no such session.
	DockerImage string
	// MaxConnections caps the relay's active streams (the command reads
	// KANDEV_LSP_MAX_CONNECTIONS); zero: the relay's default.
	MaxConnections int
	// Unlaunchable names commands planted first on the task PATH as files
	// that cannot be executed, so discovery finds them and the launch fails
	// (tests of the start-failure status).
	Unlaunchable []string
	// Repositories are folders of the sample made Git repositories in the
	// workspace copy (git init), since a repository cannot hold another's
	// .git: a task laid out as several checked-out repositories.
	Repositories []string
	// Workspace, when set, is an existing task workspace served as it is
	// (not copied from Sample, not removed).
	Workspace string
	// AgentURL and AgentToken, when set, name the page's session's agent,
	// already running as a task host of its own: the demo starts none for
	// that session, and one that lives on when the demo exits or is
	// killed, as a task host outlives a relay (tests of resuming).
	AgentURL, AgentToken string
	// Secret is the browser credential; empty: a fresh one. A demo started
	// again with the same one keeps its pages signed in.
	Secret string
	// Hosts are names the page is reached by besides its own address.
	Hosts []string
	// Logger receives the relay's and the demo's log; Logs the agents'
	// output.
	Logger *slog.Logger
	Logs   io.Writer
}

// Demo is a running demo: the workspace copy, its task hosts, the settings
// database and the relay, behind one HTTP handler.
type Demo struct {
	// Handler serves the page, its assets, the relay and the file routes.
	Handler http.Handler
	// Workspace is the temporary copy of the sample the agents serve.
	Workspace string
	// Container names the Local Docker session's container; empty: none.
	Container string

	signIn  *access.Token
	relay   *relay.Relay
	agents  []*Agent
	cleanup []func()
	exited  chan error
}

// Start assembles the demo: it copies the sample, starts a Local PC agent
// for the page's session and one for its twin, creates the Docker task
// when it can, opens the settings and mounts the relay. Close undoes it;
// on error nothing is left running.
func Start(ctx context.Context, opts Options) (d *Demo, err error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logs := opts.Logs
	if logs == nil {
		logs = io.Discard
	}
	d = &Demo{exited: make(chan error, 2)}
	defer func() {
		if err != nil {
			d.Close(ctx)
		}
	}()

	if opts.Workspace != "" {
		d.Workspace = opts.Workspace
	} else {
		if d.Workspace, err = NewWorkspace(opts.Sample); err != nil {
			return nil, err
		}
		workspace := d.Workspace
		d.cleanup = append(d.cleanup, func() { os.RemoveAll(workspace) })
		if err := InitRepositories(ctx, workspace, opts.Repositories); err != nil {
			return nil, err
		}
	}
	workspace := d.Workspace

	env := os.Environ()
	if opts.ToolPath != "" {
		if env, err = PrependPath(env, opts.ToolPath); err != nil {
			return nil, err
		}
	}
	if opts.FakeLSP != "" {
		tools, err := os.MkdirTemp("", "kandev-demo-tools-")
		if err != nil {
			return nil, err
		}
		d.cleanup = append(d.cleanup, func() { os.RemoveAll(tools) })
		if env, err = WithFakeServers(env, tools, opts.FakeLSP); err != nil {
			return nil, err
		}
	}
	if len(opts.Unlaunchable) > 0 {
		tools, err := os.MkdirTemp("", "kandev-demo-broken-")
		if err != nil {
			return nil, err
		}
		d.cleanup = append(d.cleanup, func() { os.RemoveAll(tools) })
		if env, err = WithUnlaunchable(env, tools, opts.Unlaunchable); err != nil {
			return nil, err
		}
	}
	// The twin session's own task host over the same directory: its
	// servers see the same file URIs as the demo session's.
	var agent *Agent
	if opts.AgentURL != "" {
		u, err := url.Parse(opts.AgentURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("agent URL %q: want http://host:port", opts.AgentURL)
		}
		agent = &Agent{URL: u, Token: opts.AgentToken}
	} else if agent, err = d.startAgent(ctx, opts.AgentBin, env, logs, "the agent exited"); err != nil {
		return nil, err
	}
	twin, err := d.startAgent(ctx, opts.AgentBin, env, logs, "the twin session's agent exited")
	if err != nil {
		return nil, err
	}
	sessions := []relay.Session{{
		ID: SessionID, Executor: relay.ExecutorLocalPC, Workspace: workspace,
		Agent: relay.AgentRef{URL: agent.URL.String(), Token: agent.Token},
	}, {
		ID: TwinSessionID, Executor: relay.ExecutorLocalPC, Workspace: workspace,
		Agent: relay.AgentRef{URL: twin.URL.String(), Token: twin.Token},
	}, {
		// No agent.url: were its executor served, the relay would start
		// an agent for it on first use; as it is not, nothing starts.
		ID: SSHSessionID, Executor: relay.ExecutorSSH, Workspace: workspace,
	}}

	// The Local Docker session: a task container over the same workspace,
	// resumed by the relay on its first stream.
	var dockerSessions []string
	if opts.DockerImage != "" {
		token, err := randomToken()
		if err != nil {
			return nil, err
		}
		container, err := CreateDockerTask(ctx, opts.DockerImage, workspace, token)
		if err != nil {
			logger.Warn("no Local Docker session", "err", err)
		} else {
			d.cleanup = append(d.cleanup, func() { container.Remove() })
			d.Container = container.Name
			sessions = append(sessions, relay.Session{
				ID: DockerSessionID, Executor: relay.ExecutorLocalDocker, Workspace: "/workspace", Container: container.Name,
				Agent: relay.AgentRef{URL: container.URL.String(), Token: token},
			})
			dockerSessions = []string{DockerSessionID}
		}
	}

	store, err := OpenSettings(opts.DBPath)
	if err != nil {
		return nil, err
	}
	d.cleanup = append(d.cleanup, func() { store.Close() })

	// The browser credential: a fresh secret each run, shown only in the
	// sign-in URL, which sets the page's cookie and opens the page.
	secret := opts.Secret
	if secret == "" {
		secret = access.NewSecret()
	}
	d.signIn = access.NewToken(secret, settings.LocalUser, "/")
	guard := access.Config{Hosts: opts.Hosts, Authenticate: d.signIn.Authenticate, SignIn: d.signIn, Pages: true, Logger: logger}
	d.relay = relay.New(relay.Config{
		Hosts:        guard.Hosts,
		Authenticate: guard.Authenticate,
		Settings:     store,
		Sessions:     relay.StaticSessions(sessions...),
		Logger:       logger,
		// MaxConnections zero is the relay's own default.
		MaxConnections: opts.MaxConnections,
	})
	d.Handler = Handler(Config{
		Access: guard,
		Relay:  d.relay, AgentURL: agent.URL, AgentToken: agent.Token,
		WASMDir: opts.WASMDir, ESMDir: opts.ESMDir, BenchDir: opts.BenchDir, PackageDir: opts.PackageDir, MonacoDir: opts.MonacoDir,
		SessionID: SessionID, TwinSessions: []string{TwinSessionID}, DockerSessions: dockerSessions,
		PlainSessions: []string{PlainSessionID}, SSHSessions: []string{SSHSessionID},
	})
	return d, nil
}

// startAgent starts a Local PC agent over the workspace with a fresh token;
// its exit is reported on Exited with reason.
func (d *Demo) startAgent(ctx context.Context, bin string, env []string, logs io.Writer, reason string) (*Agent, error) {
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	a, err := StartAgent(ctx, bin, d.Workspace, token, env, logs)
	if err != nil {
		return nil, err
	}
	d.agents = append(d.agents, a)
	go func() {
		<-a.Done()
		select {
		case d.exited <- errors.New(reason):
		default:
		}
	}()
	return a, nil
}

// SignInURL is the URL that signs a browser in and opens the page, for a
// demo reached at base (scheme and host).
func (d *Demo) SignInURL(base string) string { return d.signIn.SignInURL(base) }

// Exited reports a task host that stopped on its own: the demo is of no
// use without it.
func (d *Demo) Exited() <-chan error { return d.exited }

// Serve serves srv, whose Handler is d.Handler, on ln until ctx ends or
// the task host exits, drains it as kandev-relay does (relay.Relay.Serve:
// every stream closes with 1012, so the page reconnects at once and an
// agent of its own holds the servers for that resume), then closes the
// demo. It returns the server's failure or the task host's exit, nil when
// ctx ended.
func (d *Demo) Serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case err := <-d.exited:
			if err == nil {
				err = errors.New("the task host exited")
			}
			cancel(err)
		case <-ctx.Done():
		}
	}()
	err := d.relay.Serve(ctx, srv, ln)
	if cause := context.Cause(ctx); err == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = cause
	}
	cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer stop()
	d.Close(cctx)
	return err
}

// Close drains the relay as a deploy does — every stream closes with 1012,
// so the page reconnects at once and an agent of its own (-agent-url)
// holds the servers for that resume; hijacked WebSockets are not tracked
// by http.Server.Shutdown — then stops the demo's own agents, removes the
// container, closes the relay and the settings, and removes the workspace
// copy.
func (d *Demo) Close(ctx context.Context) {
	if d.relay != nil {
		_ = d.relay.Shutdown(ctx)
	}
	for _, a := range d.agents {
		a.Stop()
	}
	if d.relay != nil {
		d.relay.Close(ctx)
	}
	for i := len(d.cleanup) - 1; i >= 0; i-- {
		d.cleanup[i]()
	}
	d.agents, d.cleanup = nil, nil
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
