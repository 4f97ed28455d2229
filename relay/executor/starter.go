package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// Starter starts or resumes the task-host agent of a task. The relay calls
// it only for a session that passed every admission check (known, supported
// executor, a capacity slot), so a refused request never starts or resumes
// anything.
type Starter interface {
	Start(ctx context.Context, t Task) (Execution, error)
}

// TaskStopper is implemented by a Starter that can stop the task hosts it
// resumes (DockerStarter: `docker stop`). Task stop for a session whose
// agent the relay neither owns nor can stop this way goes to the agent's
// own stop route.
type TaskStopper interface {
	// StopTask stops t's task host and reports whether it was running.
	// errors.ErrUnsupported means this Starter cannot stop t.
	StopTask(ctx context.Context, t Task) (stopped bool, err error)
}

// Execution is a running task-host agent as a Starter returns it.
type Execution struct {
	// Agent is how to reach it.
	Agent AgentRef
	// Done is closed when the agent has exited. Nil when the relay does
	// not own the agent's process (an agent inside a container).
	Done <-chan struct{}
	// Stop is task stop for an agent process the relay owns: it returns
	// once the agent has closed its streams with 1001, reaped its language
	// servers and exited, or ctx ended (the agent is then killed). Nil when
	// the relay does not own the process: the relay then calls the agent's
	// own stop route.
	Stop func(ctx context.Context) error
	// PID is the agent's process id when the relay owns the process (for
	// logs and tests); 0 otherwise.
	PID int
}

// StarterConfig configures NewStarter.
type StarterConfig struct {
	// AgentBinary is the kandev-agent executable for local_pc sessions.
	AgentBinary string
	// AgentEnv is the task environment of started agents (nil: the
	// relay's own environment through the allowlist; see ProcessStarter).
	AgentEnv []string
	// AgentPassEnv: see ProcessStarter.PassEnv.
	AgentPassEnv []string
	// ResumeGrace: see ProcessStarter.ResumeGrace.
	ResumeGrace time.Duration
	// AgentOutput receives started agents' stdout (after the listening
	// line) and stderr; nil discards them.
	AgentOutput io.Writer
	// DockerCLI is the docker executable ("docker" when empty).
	DockerCLI string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// NewStarter returns the production Starter: a kandev-agent process on
// loopback for local_pc sessions (ProcessStarter), `docker start` of the
// session's container for local_docker ones (DockerStarter, which also
// stops it: the Starter is a TaskStopper).
func NewStarter(cfg StarterConfig) Starter {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return byExecutor{
		LocalPC: &ProcessStarter{
			Binary: cfg.AgentBinary, Env: cfg.AgentEnv, PassEnv: cfg.AgentPassEnv, ResumeGrace: cfg.ResumeGrace,
			Output: cfg.AgentOutput, Logger: cfg.Logger,
		},
		LocalDocker: &DockerStarter{CLI: cfg.DockerCLI, Logger: cfg.Logger},
	}
}

// byExecutor dispatches on the task's executor.
type byExecutor map[string]Starter

func (b byExecutor) Start(ctx context.Context, t Task) (Execution, error) {
	s, ok := b[t.Executor]
	if !ok {
		return Execution{}, fmt.Errorf("no starter for executor %q", t.Executor)
	}
	return s.Start(ctx, t)
}

// StopTask implements TaskStopper for the executors whose Starter does.
func (b byExecutor) StopTask(ctx context.Context, t Task) (bool, error) {
	if s, ok := b[t.Executor].(TaskStopper); ok {
		return s.StopTask(ctx, t)
	}
	return false, errors.ErrUnsupported
}
