package relay

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/kandev/lsp/internal/wire"
)

// sessionStopPattern is the task-stop route. It is the backend's, not the
// browser's: whoever stops a task (the task UI, an orchestrator) calls it.
const sessionStopPattern = "/api/v1/sessions/{sessionId}/stop"

// stopTimeout bounds a task stop: the agent's own shutdown allows 15 s for
// its servers, and SIGKILL follows after this.
const stopTimeout = 20 * time.Second

// stopResult is the answer of the stop route.
type stopResult struct {
	// Stopped is true when an agent was running and has been stopped;
	// false when nothing was running, or the agent has no stop route.
	Stopped bool `json:"stopped"`
}

// stopSession is POST /api/v1/sessions/{sessionId}/stop: task stop. The
// session's agent closes its streams with 1001 — browsers still connected
// see that code through the relay — and reaps every language-server tree.
// How is the executions' business (executions.stopTask): a relay-owned
// agent is signalled, a container is stopped through the Starter
// (TaskStopper), any other agent is asked through its stop route.
//
//	200 {"stopped":true|false}  done (false: nothing to stop)
//	404                         unknown session, or another user's
//	409                         executor the relay does not serve
//	502                         the agent could not be reached or failed
func (rl *Relay) stopSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("sessionId")
	sess, code, why := rl.admit(r, id)
	switch code {
	case 0:
	case wire.CloseExecutorUnsupported:
		writeError(w, http.StatusConflict, "", fmt.Sprintf("executor %q is not served", sess.Executor))
		return
	default:
		rl.log.Info("relay: task stop refused: "+why, "session", id)
		writeError(w, http.StatusNotFound, "", "unknown session")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), stopTimeout)
	defer cancel()

	stopped, err := rl.execs.stopTask(ctx, sess)
	log := rl.log.With("session", id, "executor", sess.Executor)
	if err != nil {
		log.Warn("relay: task stop failed", "err", err)
		writeError(w, http.StatusBadGateway, "", "the session's agent could not be stopped")
		return
	}
	log.Info("relay: task stop", "stopped", stopped)
	writeJSON(w, http.StatusOK, stopResult{Stopped: stopped})
}

// requestTaskStop posts task stop to the agent at ref with its bearer token
// and reports whether it stopped: true on 2xx (the agent answers once its
// servers are reaped and its streams closed), false on 404 (an agent
// without the route), an error otherwise.
func requestTaskStop(ctx context.Context, client *http.Client, ref AgentRef) (bool, error) {
	resp, err := agentRequest(ctx, client, ref, http.MethodPost, wire.AgentTaskStopPath)
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

// agentRequest makes one request to route on the agent at ref with its
// bearer token.
func agentRequest(ctx context.Context, client *http.Client, ref AgentRef, method, route string) (*http.Response, error) {
	u, err := url.Parse(ref.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent URL %q: want http(s)://host", ref.URL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + route
	u.RawQuery, u.Fragment = "", ""
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+ref.Token)
	return client.Do(req)
}
