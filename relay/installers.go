package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/kandev/lsp/internal/wire"
)

// installersTimeout bounds the whole installers request: resolving (or
// restoring) the session's agent and its answer, which only looks up a
// few executables.
const installersTimeout = 30 * time.Second

// maxInstallersBody bounds the agent's answer; it is a few kilobytes.
const maxInstallersBody = 1 << 20

// serveInstallers is GET /api/v1/sessions/{sessionId}/lsp/installers: the
// task host's own answer to "how would you install each language server,
// with what, and where", for the Editors settings page, which never talks
// to an agent itself. It makes the stream's checks in the stream's order
// and answers their refusals with the stream's close codes:
//
//	200  the agent's Installers JSON, byte for byte
//	404  {"code":4002}  unknown session, or another user's
//	409  {"code":4004}  executor the relay does not serve
//	502  {"code":4002}  the agent could not be started, reached or answered
//
// No capacity slot is taken: the answer holds no connection and starts no
// language server. Like the stream, it resolves the session's agent, so a
// stopped local task host is restored to answer.
func (rl *Relay) serveInstallers(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("sessionId")
	log := rl.log.With("session", id)
	sess, code, why := rl.admit(r, id)
	switch code {
	case 0:
	case wire.CloseExecutorUnsupported:
		log.Info("installers: "+why, "executor", sess.Executor)
		writeCodeError(w, http.StatusConflict, code, "this session's executor is not served")
		return
	default:
		log.Info("installers: " + why)
		writeCodeError(w, http.StatusNotFound, code, "unknown session")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), installersTimeout)
	defer cancel()
	ref, err := rl.execs.Resolve(ctx, sess.task())
	if err == nil {
		var body []byte
		if body, err = rl.fetchInstallers(ctx, ref); err == nil {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write(body)
			return
		}
	}
	log.Info("installers: task host unavailable", "executor", sess.Executor, "err", err)
	writeCodeError(w, http.StatusBadGateway, wire.CloseUnavailable, "the session's task host is unavailable")
}

// fetchInstallers asks the agent for its Installers answer.
func (rl *Relay) fetchInstallers(ctx context.Context, ref AgentRef) ([]byte, error) {
	// The relay's agent transport: no proxy, no pooled connections.
	resp, err := ref.Call(ctx, &http.Client{Transport: rl.dialer.transport}, http.MethodGet, wire.AgentInstallersPath)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("agent answered HTTP %d", resp.StatusCode)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, fmt.Errorf("agent answered %q, want application/json", mt)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxInstallersBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxInstallersBody {
		return nil, errors.New("agent's answer is larger than 1 MiB")
	}
	if !json.Valid(body) {
		return nil, errors.New("agent's answer is not JSON")
	}
	return body, nil
}

func writeCodeError(w http.ResponseWriter, status int, code wire.CloseCode, msg string) {
	writeJSON(w, status, apiError{Error: msg, Code: int(code)})
}
