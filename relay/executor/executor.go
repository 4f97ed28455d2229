// Package executor starts, resumes and stops the task-host agents the
// relay streams to: a kandev-agent process on the relay's own host for a
// local_pc task that names no agent (ProcessStarter), the task's container
// through the docker CLI for a local_docker one (DockerStarter), and the
// set of agents the relay started (Executions), which later streams reuse
// and which task stop and Close end.
//
// It is apart from package relay, which serves the HTTP routes, because it
// is the relay's only code that runs processes and drives a container
// engine, with their own life cycles, OS differences and failure modes. The
// routes decide whether a request may start anything (a known session, a
// served executor, a capacity slot); this package decides how, and never
// sees a request. Package relay imports it and hands it a Task, the part of
// a session it needs; it imports nothing of package relay.
package executor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/kandev/lsp/internal/wire"
)

// The executors this package serves, as a session names them.
const (
	// LocalPC: the task runs on the relay's own host; its agent is the
	// session's (Agent.URL) or started by the relay (Task.Owned).
	LocalPC = "local_pc"
	// LocalDocker: the task runs in a container on the relay's Docker
	// engine, with the agent as its main process.
	LocalDocker = "local_docker"
)

// Task is what the executor needs of a task session: where the task runs
// and how its agent is reached. Package relay makes one of each session it
// has admitted.
type Task struct {
	// ID is the session's id, for logs.
	ID string
	// Executor is where the task runs: LocalPC or LocalDocker.
	Executor string
	// Workspace is the task's working directory on the task host; an agent
	// ProcessStarter starts serves it.
	Workspace string
	// Agent is how to reach the task host's agent. Empty URL on a LocalPC
	// task: the relay starts the agent itself (Owned).
	Agent AgentRef
	// Container is a LocalDocker task's container, which DockerStarter
	// resumes and stops.
	Container string
}

// Owned reports whether the relay runs t's agent process itself: a
// local_pc task that names no agent URL (the restore path). Such an agent
// is started on first use, reused while it runs, and started again after
// it exits or is stopped.
func (t Task) Owned() bool { return t.Executor == LocalPC && t.Agent.URL == "" }

// AgentRef locates and authenticates a task-host agent.
type AgentRef struct {
	// URL is the agent's base URL (http or https; ws and wss are accepted too).
	URL string `json:"url"`
	// Token is sent as "Authorization: Bearer Token" on every agent request.
	Token string `json:"token"`
}

// Call makes one request to route (a wire.Agent*Path) on the agent with its
// bearer token, over client. The caller closes the response's body.
func (a AgentRef) Call(ctx context.Context, client *http.Client, method, route string) (*http.Response, error) {
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent URL %q: want http(s)://host", a.URL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + route
	u.RawQuery, u.Fragment = "", ""
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.Token)
	return client.Do(req)
}

// requestTaskStop posts task stop to the agent at ref with its bearer token
// and reports whether it stopped: true on 2xx (the agent answers once its
// servers are reaped and its streams closed), false on 404 (an agent
// without the route), an error otherwise.
func requestTaskStop(ctx context.Context, client *http.Client, ref AgentRef) (bool, error) {
	resp, err := ref.Call(ctx, client, http.MethodPost, wire.AgentTaskStopPath)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return true, nil
	case resp.StatusCode == http.StatusNotFound:
		return false, nil
	default:
		return false, fmt.Errorf("agent answered HTTP %d", resp.StatusCode)
	}
}
