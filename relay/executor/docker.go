package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// defaultDockerReadyTimeout bounds the wait for a resumed container's agent
// to accept connections.
const defaultDockerReadyTimeout = 30 * time.Second

// dockerStopGrace is how long `docker stop` lets the agent finish its task
// stop (the agent itself allows its servers 15 s) before the engine kills
// the container.
const dockerStopGrace = 15 * time.Second

// dockerFailedStopGrace is the grace of the stop that undoes a resume whose
// agent never answered: an agent that did not answer in ReadyTimeout has no
// stream to close, so there is nothing to wait for.
const dockerFailedStopGrace = time.Second

// DockerStarter resumes and stops a local_docker task's host through the
// docker CLI. The agent is the container's main process — the container
// was created with KANDEV_AGENT_TOKEN in its environment, the workspace
// mounted, and the agent's port published at the task's agent URL — so the
// binary and every language server run inside the container, never on the
// relay's host.
//
// Each stream asks the engine whether the container runs and starts it if
// not: the relay keeps no state that a container stopped behind its back
// could make stale. Task stop is `docker stop`: SIGTERM reaches the agent
// as PID 1, which is its task stop (streams close with 1001, servers are
// reaped), and the container ends with it.
type DockerStarter struct {
	// CLI is the docker executable ("docker" when empty).
	CLI string
	// Env is the CLI's environment (nil: the relay's own), e.g. with
	// DOCKER_HOST naming the engine.
	Env []string
	// ReadyTimeout bounds a start: the engine's answers and the wait for
	// the agent to accept connections (defaultDockerReadyTimeout). When the
	// relay resumed the container and its agent never answered, the
	// container is stopped again before Start returns, which adds at most
	// about a second.
	ReadyTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Start implements Starter.
func (d *DockerStarter) Start(ctx context.Context, t Task) (Execution, error) {
	if t.Container == "" {
		return Execution{}, errors.New("local_docker task names no container")
	}
	if t.Agent.URL == "" {
		return Execution{}, errors.New("local_docker task names no agent URL")
	}
	u, err := url.Parse(t.Agent.URL)
	if err != nil || u.Host == "" {
		return Execution{}, fmt.Errorf("agent URL %q: not a URL with a host", t.Agent.URL)
	}
	timeout := d.ReadyTimeout
	if timeout <= 0 {
		timeout = defaultDockerReadyTimeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	running, err := d.running(ctx, t.Container)
	if err != nil {
		return Execution{}, err
	}
	if running {
		// Streams to a running task host cost one engine call.
		if err := waitAnswering(ctx, t.Agent.URL, nil); err != nil {
			return Execution{}, fmt.Errorf("agent in %s: %w", t.Container, err)
		}
		return Execution{Agent: t.Agent}, nil
	}

	if _, err := d.run(ctx, "start", "--", t.Container); err != nil {
		return Execution{}, err
	}
	d.logger().Info("relay: container resumed", "session", t.ID, "container", t.Container)
	// A container whose agent exits at once (a missing token, a bad
	// workspace) ends the wait then, not at the timeout.
	wctx, stopWatch := context.WithCancel(ctx)
	exited, watchDone := d.watchExit(wctx, t.Container)
	err = waitAnswering(ctx, t.Agent.URL, exited)
	stopWatch()
	<-watchDone
	if err != nil && parent.Err() == nil {
		// The agent never answered (or its container exited): this stream
		// resumed the container for nothing, so stop it again and leave
		// nothing running. Not when the caller gave up first: the agent
		// may be fine, and another stream may be using it by now. Its own
		// context, as ctx has ended.
		sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), dockerFailedStopGrace+5*time.Second)
		defer scancel()
		if _, serr := d.run(sctx, "stop", "--time", seconds(dockerFailedStopGrace), "--", t.Container); serr != nil {
			d.logger().Warn("relay: stopping a container whose agent never answered", "container", t.Container, "err", serr)
		}
	}
	if err != nil {
		return Execution{}, fmt.Errorf("agent in %s: %w", t.Container, err)
	}
	return Execution{Agent: t.Agent}, nil
}

// StopTask implements TaskStopper: `docker stop` of the task's
// container when it runs. SIGTERM is the agent's task stop; the engine
// kills the container if the agent has not exited after dockerStopGrace.
func (d *DockerStarter) StopTask(ctx context.Context, t Task) (bool, error) {
	if t.Container == "" {
		return false, errors.New("local_docker task names no container")
	}
	running, err := d.running(ctx, t.Container)
	if err != nil || !running {
		return false, err
	}
	if _, err := d.run(ctx, "stop", "--time", seconds(dockerStopGrace), "--", t.Container); err != nil {
		return false, err
	}
	d.logger().Info("relay: container stopped", "session", t.ID, "container", t.Container)
	return true, nil
}

// running asks the engine whether the container runs. A container that does
// not exist, or an engine that does not answer, is an error carrying the
// CLI's own message.
func (d *DockerStarter) running(ctx context.Context, name string) (bool, error) {
	out, err := d.run(ctx, "container", "inspect", "--format", "{{.State.Running}}", "--", name)
	if err != nil {
		return false, err
	}
	switch out {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("docker container inspect %s: unexpected answer %q", name, out)
}

// watchExit runs `docker wait` for the container until ctx ends. exited
// receives the container's exit code if it ends first; done is closed once
// the CLI process is gone.
func (d *DockerStarter) watchExit(ctx context.Context, name string) (exited <-chan string, done <-chan struct{}) {
	ex, dn := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(dn)
		if out, err := d.run(ctx, "wait", "--", name); err == nil {
			ex <- out
		}
	}()
	return ex, dn
}

// run runs the docker CLI with "--" before any container name, so a name
// can never be read as an option. Its trimmed stdout is returned; a failure
// carries the CLI's stderr, the engine's own words.
func (d *DockerStarter) run(ctx context.Context, args ...string) (string, error) {
	cli := d.CLI
	if cli == "" {
		cli = "docker"
	}
	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Env = d.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A CLI stuck on a hung engine must not outlive ctx by holding the
	// pipes open through a child.
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		return "", fmt.Errorf("docker %s: %w: %s", args[0], err, msg)
	}
	return strings.TrimSpace(stdout.String()), nil
}

func (d *DockerStarter) logger() *slog.Logger {
	if d.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return d.Logger
}

// seconds formats a whole number of seconds for the CLI's --time.
func seconds(t time.Duration) string { return strconv.Itoa(int(t / time.Second)) }

// waitAnswering polls the agent's base URL until it answers HTTP at all
// (a 401 or 404 is an answer), exited yields (the container ended; nil
// never does), or ctx ends. A TCP connect is not enough: Docker's port
// proxy accepts connections before the agent inside listens.
func waitAnswering(ctx context.Context, base string, exited <-chan string) error {
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	backoff := 20 * time.Millisecond
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			return nil
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("not answering at %s: %w", base, err)
		case code := <-exited:
			t.Stop()
			return fmt.Errorf("the container exited (code %s) before its agent answered at %s", code, base)
		case <-t.C:
		}
		backoff = min(2*backoff, 500*time.Millisecond)
	}
}
