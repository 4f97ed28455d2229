package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"time"
)

// defaultDockerReadyTimeout bounds the wait for a resumed container's agent
// to accept connections.
const defaultDockerReadyTimeout = 30 * time.Second

// DockerStarter resumes a local_docker session's task host through the
// docker CLI. The agent is the container's main process — the container
// was created with KANDEV_AGENT_TOKEN in its environment, the workspace
// mounted, and the agent's port published at the session's agent.url — so
// the binary and every language server run inside the container, never on
// the relay's host. `docker start` resumes a stopped container and is a
// no-op for a running one, so it runs on every stream: the relay keeps no
// state that a container stopped behind its back could make stale.
type DockerStarter struct {
	// CLI is the docker executable ("docker" when empty).
	CLI string
	// ReadyTimeout bounds the wait for the agent to accept connections
	// after the start (defaultDockerReadyTimeout).
	ReadyTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Start implements Starter.
func (d *DockerStarter) Start(ctx context.Context, sess Session) (Execution, error) {
	if sess.Container == "" {
		return Execution{}, errors.New("local_docker session names no container")
	}
	if sess.Agent.URL == "" {
		return Execution{}, errors.New("local_docker session names no agent URL")
	}
	u, err := url.Parse(sess.Agent.URL)
	if err != nil || u.Host == "" {
		return Execution{}, fmt.Errorf("agent URL %q: not a URL with a host", sess.Agent.URL)
	}
	timeout := d.ReadyTimeout
	if timeout <= 0 {
		timeout = defaultDockerReadyTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cli := d.CLI
	if cli == "" {
		cli = "docker"
	}
	// "--" so a container name can never be read as an option.
	out, err := exec.CommandContext(ctx, cli, "start", "--", sess.Container).CombinedOutput()
	if err != nil {
		return Execution{}, fmt.Errorf("docker start %s: %w: %s", sess.Container, err, strings.TrimSpace(string(out)))
	}
	if d.Logger != nil {
		d.Logger.Debug("relay: container started", "session", sess.ID, "container", sess.Container)
	}
	if err := waitAnswering(ctx, sess.Agent.URL); err != nil {
		return Execution{}, fmt.Errorf("agent in %s: %w", sess.Container, err)
	}
	return Execution{Agent: sess.Agent}, nil
}

// waitAnswering polls the agent's base URL until it answers HTTP at all
// (a 401 or 404 is an answer) or ctx ends. A TCP connect is not enough:
// Docker's port proxy accepts connections before the agent inside listens.
func waitAnswering(ctx context.Context, base string) error {
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
		case <-t.C:
		}
		backoff = min(2*backoff, 500*time.Millisecond)
	}
}
