package executor

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/kandev/lsp/internal/envallow"
)

// agentTokenEnv is where kandev-agent reads its bearer token.
const agentTokenEnv = "KANDEV_AGENT_TOKEN"

// defaultAgentStartTimeout bounds an agent's start-up, from exec to its
// "listening on" line.
const defaultAgentStartTimeout = 30 * time.Second

// ProcessStarter runs kandev-agent as a child process for a local_pc
// task, on a free loopback port, in the task's workspace, with a fresh
// random token that only the relay knows.
type ProcessStarter struct {
	// Binary is the kandev-agent executable.
	Binary string
	// Env is the agent's environment, its task environment. Nil: the
	// relay's own, with only the variables envallow.Allowed names (and
	// PassEnv's): the relay's environment holds its own secrets — a
	// database password, cloud keys, the browser token — and an agent runs
	// the repository's code inside its language servers. Any
	// KANDEV_AGENT_TOKEN in it is replaced.
	Env []string
	// PassEnv names variables of the environment the agent passes on to
	// its language servers besides its allowlist (its -pass-env), and
	// which a nil Env keeps.
	PassEnv []string
	// ResumeGrace, when not zero, is the agent's -resume-grace (negative:
	// 0, none): the relay holds a lost stream's slot as long as the agent
	// holds its server, so the two are given the same. Zero: the agent's
	// default, which is the relay's.
	ResumeGrace time.Duration
	// Output receives the agent's stderr and the rest of its stdout; nil
	// discards them.
	Output io.Writer
	// StartTimeout bounds the start-up (defaultAgentStartTimeout).
	StartTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger

	// StopByRoute makes task stop ask the agent through its stop route
	// rather than with SIGTERM. Always so on Windows, which has no SIGTERM
	// to send; set, it runs that path elsewhere (the tests do).
	StopByRoute bool
}

// noSIGTERM: the OS cannot deliver SIGTERM (os.Process.Signal supports
// only Kill on Windows).
const noSIGTERM = runtime.GOOS == "windows"

// errNoAgentBinary: a local_pc task names no agent and the relay has no
// binary to start one with.
var errNoAgentBinary = errors.New("no agent URL and no agent binary to start one")

// Start implements Starter. The process outlives ctx: ctx bounds only the
// start-up.
func (p *ProcessStarter) Start(ctx context.Context, t Task) (Execution, error) {
	if p.Binary == "" {
		return Execution{}, errNoAgentBinary
	}
	if t.Workspace == "" {
		return Execution{}, errors.New("task has no workspace")
	}
	log := p.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	out := p.Output
	if out == nil {
		out = io.Discard
	}
	// stderr as given: nil is /dev/null, an *os.File is passed straight
	// through, any other writer gets a copying goroutine (see WaitDelay).
	token := rand.Text()

	env := p.Env
	if env == nil {
		env = envallow.FilterEnviron(os.Environ(), p.PassEnv...)
	}
	args := []string{"-addr", "127.0.0.1:0", "-workspace", t.Workspace}
	if len(p.PassEnv) > 0 {
		args = append(args, "-pass-env", strings.Join(p.PassEnv, ","))
	}
	if p.ResumeGrace != 0 {
		args = append(args, "-resume-grace", max(p.ResumeGrace, 0).String())
	}
	cmd := exec.Command(p.Binary, args...)
	cmd.Env = append(withoutVar(env, agentTokenEnv), agentTokenEnv+"="+token)
	if p.Output != nil {
		cmd.Stderr = p.Output
	}
	// The agent's language servers inherit its stderr. An agent killed
	// outright can leave one running for a moment, holding that pipe: Wait
	// must not wait for it, or Done would not tell that the agent is gone.
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = agentProcAttr()
	// Our own pipe rather than StdoutPipe: the reader below must keep
	// draining after the first line while Wait runs in another goroutine.
	rd, wr, err := os.Pipe()
	if err != nil {
		return Execution{}, err
	}
	cmd.Stdout = wr
	err = cmd.Start()
	_ = wr.Close()
	if err != nil {
		_ = rd.Close()
		return Execution{}, fmt.Errorf("start agent: %w", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	first := make(chan string, 1)
	go func() {
		defer rd.Close()
		br := bufio.NewReader(rd)
		line, _ := br.ReadString('\n')
		first <- line
		// Keep draining so the agent never blocks on stdout; ends when
		// the agent exits.
		_, _ = io.Copy(out, br)
	}()

	kill := func() {
		_ = cmd.Process.Kill()
		<-done
	}
	timeout := p.StartTimeout
	if timeout <= 0 {
		timeout = defaultAgentStartTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var line string
	select {
	case line = <-first:
	case <-ctx.Done():
		kill()
		return Execution{}, ctx.Err()
	case <-timer.C:
		kill()
		return Execution{}, errors.New("agent did not report its address in time")
	}
	u, err := listeningURL(line)
	if err != nil {
		kill()
		return Execution{}, err
	}
	log.Info("relay: agent started", "session", t.ID, "pid", cmd.Process.Pid, "url", u)

	ref := AgentRef{URL: u, Token: token}
	// Task stop: SIGTERM, or the agent's stop route where there is no
	// SIGTERM. Either way the agent closes admission, reaps every server
	// tree, closes its streams with 1001 and exits.
	ask := func(context.Context) error {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return err
		}
		return nil
	}
	if p.StopByRoute || noSIGTERM {
		ask = func(ctx context.Context) error {
			stopped, err := requestTaskStop(ctx, stopClient, ref)
			if err == nil && !stopped {
				err = errors.New("the agent has no stop route")
			}
			return err
		}
	}
	stop := func(ctx context.Context) error { return stopAgent(ctx, ask, kill, done) }
	return Execution{Agent: ref, Done: done, Stop: stop, PID: cmd.Process.Pid}, nil
}

// stopAgent asks a started agent to stop and waits for it to exit; if the
// request fails or ctx ends first, it kills the agent (kill returns once it
// has exited). A killed agent may leave language servers behind where the
// OS does not end a process's children with it (Windows), which is why the
// request comes first.
func stopAgent(ctx context.Context, ask func(context.Context) error, kill func(), done <-chan struct{}) error {
	select {
	case <-done:
		return nil // already gone: nothing to ask
	default:
	}
	if err := ask(ctx); err != nil {
		kill()
		return fmt.Errorf("agent stop request failed (%w); killed", err)
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		kill()
		return fmt.Errorf("agent did not stop in time; killed: %w", ctx.Err())
	}
}

// stopClient calls the stop route of agents this relay started: they are
// on loopback (no proxy), and it keeps no idle connections.
var stopClient = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// listeningURL parses the agent's first stdout line,
// "listening on http://HOST:PORT".
func listeningURL(line string) (string, error) {
	raw, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if u, err := url.Parse(raw); !ok || err != nil || u.Host == "" {
		return "", fmt.Errorf("agent printed %q, want a listening line", strings.TrimSpace(line))
	}
	return raw, nil
}

// withoutVar returns env without the entries for name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return out
}
