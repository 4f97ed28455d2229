package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/kandev/lsp/relay/executor"
)

// Executors a session may name. Only the local ones are served in V1; the
// others close the browser stream with wire.CloseExecutorUnsupported before
// anything is dialled or started.
const (
	ExecutorLocalPC      = executor.LocalPC
	ExecutorLocalDocker  = executor.LocalDocker
	ExecutorRemoteDocker = "remote_docker"
	ExecutorSSH          = "ssh"
	ExecutorSprites      = "sprites"
)

// supportedExecutor reports whether the relay serves sessions on executor e.
func supportedExecutor(e string) bool {
	return e == ExecutorLocalPC || e == ExecutorLocalDocker
}

// Session is one task session the relay can serve.
type Session struct {
	ID string `json:"id"`
	// Executor is where the task runs: one of the Executor* values.
	Executor string `json:"executor"`
	// Workspace is the task's working directory on the task host.
	Workspace string `json:"workspace"`
	// Agent is how the relay reaches the task host's agent. A local_pc
	// session without Agent.URL has its agent started by the relay on
	// first use (and again after it exits or is stopped).
	Agent AgentRef `json:"agent"`
	// Container is the local_docker task's container, which the relay
	// resumes with `docker start` (see executor.DockerStarter). Unused
	// otherwise.
	Container string `json:"container,omitempty"`
	// Owner is the user the session belongs to, as Config.Authenticate
	// names users. When set, only that user may stream from, read the
	// installers of or stop the session (unless Config.Authorize decides
	// otherwise). Empty: every user the relay admits may use it — right for
	// kandev-relay's one browser credential, wrong for a backend with
	// several users, whose lookup must name the owner (or which sets
	// Config.Authorize).
	Owner string `json:"owner,omitempty"`
}

// ownedBy is the default session check (Config.Authorize nil): a session
// with an owner is that user's alone.
func ownedBy(user string, s Session) bool {
	return s.Owner == "" || s.Owner == user
}

// task is what package executor needs of the session to start, resume,
// reach or stop its agent.
func (s Session) task() executor.Task {
	return executor.Task{ID: s.ID, Executor: s.Executor, Workspace: s.Workspace, Agent: s.Agent, Container: s.Container}
}

// AgentRef locates and authenticates a task-host agent: its base URL and
// bearer token. It is package executor's, which starts and stops agents.
type AgentRef = executor.AgentRef

// Sessions resolves a session id.
type Sessions interface {
	Lookup(id string) (Session, bool)
}

// SessionsFunc adapts a function to Sessions: an embedding backend's own
// lookup of its task sessions (its database, its executor registry). It
// is called for every stream and session route, from many goroutines.
type SessionsFunc func(id string) (Session, bool)

// Lookup implements Sessions.
func (f SessionsFunc) Lookup(id string) (Session, bool) { return f(id) }

// staticSessions is an immutable id → Session map, safe for concurrent use.
type staticSessions map[string]Session

func (s staticSessions) Lookup(id string) (Session, bool) {
	sess, ok := s[id]
	return sess, ok
}

// StaticSessions is a fixed Sessions set. When two sessions share an id the
// later one wins.
func StaticSessions(s ...Session) Sessions {
	m := make(staticSessions, len(s))
	for _, sess := range s {
		m[sess.ID] = sess
	}
	return m
}

// LoadSessions reads the sessions file: {"sessions":[{...Session...}]}.
//
// Unknown fields, a missing "sessions" list, an empty or duplicate id and
// trailing data are errors, and so is a local_docker session without a
// container or agent.url: the file is hand-written configuration and a typo
// should fail at start-up, not as a 4002 at connect time. A local_pc session
// without agent.url is valid — its agent is started by the relay on first use
// (the restore path).
func LoadSessions(path string) (Sessions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("relay: read sessions file: %w", err)
	}
	s, err := parseSessions(data)
	if err != nil {
		return nil, fmt.Errorf("relay: sessions file %s: %w", path, err)
	}
	return s, nil
}

func parseSessions(data []byte) (Sessions, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	// A pointer, so an absent list is told apart from an empty one.
	var f struct {
		Sessions *[]Session `json:"sessions"`
	}
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invalid JSON: data after the top-level object")
	}
	if f.Sessions == nil {
		return nil, errors.New(`missing "sessions" list`)
	}
	m := make(staticSessions, len(*f.Sessions))
	for i, sess := range *f.Sessions {
		switch {
		case sess.ID == "":
			return nil, fmt.Errorf("session %d: empty id", i)
		case sess.Executor == "":
			return nil, fmt.Errorf("session %q: empty executor", sess.ID)
		case sess.Executor == ExecutorLocalDocker && (sess.Container == "" || sess.Agent.URL == ""):
			return nil, fmt.Errorf("session %q: local_docker needs container and agent.url", sess.ID)
		}
		if _, dup := m[sess.ID]; dup {
			return nil, fmt.Errorf("session %q: duplicate id", sess.ID)
		}
		m[sess.ID] = sess
	}
	return m, nil
}
