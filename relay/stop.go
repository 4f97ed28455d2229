package relay

import (
	"context"
	"fmt"
	"net/http"
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
// How is package executor's business (Executions.StopTask): a
// relay-owned agent is signalled, a container is stopped through the
// Starter (TaskStopper), any other agent is asked through its stop route.
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

	stopped, err := rl.execs.StopTask(ctx, sess.task())
	log := rl.log.With("session", id, "executor", sess.Executor)
	if err != nil {
		log.Warn("relay: task stop failed", "err", err)
		writeError(w, http.StatusBadGateway, "", "the session's agent could not be stopped")
		return
	}
	log.Info("relay: task stop", "stopped", stopped)
	writeJSON(w, http.StatusOK, stopResult{Stopped: stopped})
}
