package webdemo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Agent is a Local PC task-host agent that the demo runs as a child process,
// exactly as a task host would run it: its own binary, its own environment,
// reached over loopback with a bearer token.
type Agent struct {
	// URL is the agent's base URL, read from its first stdout line.
	URL   *url.URL
	Token string

	cmd  *exec.Cmd
	done chan struct{}
}

// StartAgent runs the kandev-agent binary on a free loopback port for the
// workspace and waits for its `listening on` line. Its remaining output goes
// to logs. env is the task environment the agent (and so every language
// server) gets; KANDEV_AGENT_TOKEN is added to it.
func StartAgent(ctx context.Context, bin, workspace, token string, env []string, logs io.Writer) (*Agent, error) {
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-workspace", workspace)
	cmd.Env = append(append([]string(nil), env...), "KANDEV_AGENT_TOKEN="+token)
	cmd.Stderr = logs
	cmd.SysProcAttr = childAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start agent: %w", err)
	}
	a := &Agent{Token: token, cmd: cmd, done: make(chan struct{})}
	lines := bufio.NewReader(stdout)
	first := make(chan string, 1)
	go func() {
		line, _ := lines.ReadString('\n')
		first <- line
		io.Copy(logs, lines) // keep draining so the agent never blocks on stdout
	}()
	go func() { cmd.Wait(); close(a.done) }()

	wait, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	select {
	case line := <-first:
		raw, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if u, err := url.Parse(raw); ok && err == nil && u.Host != "" {
			a.URL = u
			return a, nil
		}
		a.Stop()
		return nil, fmt.Errorf("agent printed %q, want a listening line", strings.TrimSpace(line))
	case <-wait.Done():
		a.Stop()
		return nil, errors.New("agent did not report its address in time")
	}
}

// Stop asks the agent to stop its task (SIGTERM: reap every language
// server, close streams with 1001) and kills it if it has not exited after a
// grace period.
func (a *Agent) Stop() {
	if a.cmd.Process == nil {
		return
	}
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		a.cmd.Process.Kill()
		<-a.done
	}
}

// Done is closed when the agent process has exited.
func (a *Agent) Done() <-chan struct{} { return a.done }
