package executor

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
)

// Executions resolves the running agent of a task, starting or resuming it
// through the Starter when needed, and remembers the agent processes the
// relay owns so that later streams reuse them and task stop and Close can
// end them. Its methods may be called from many goroutines.
//
//   - local_pc with an agent URL: the agent is someone else's; used as named.
//   - local_pc without one (Task.Owned): one relay-owned process per task
//     id, started on first use, reused while it runs, started again after
//     it exits or is stopped.
//   - local_docker: resumed through the Starter on every stream (idempotent).
type Executions struct {
	starter Starter
	// client calls the stop route of agents the relay does not own.
	client *http.Client
	log    *slog.Logger

	// ctx bounds starts: they belong to the relay, not to the request that
	// triggered them (a second browser may be waiting on the same start),
	// and Close cancels them.
	ctx    context.Context
	cancel context.CancelFunc
	starts sync.WaitGroup

	mu     sync.Mutex
	closed bool
	owned  map[string]*owned // by task id
}

// owned is a relay-owned agent process, or its start in progress.
type owned struct {
	ready chan struct{} // closed when the start has finished
	exec  Execution     // valid after ready, if err is nil
	err   error
}

// exited reports whether a finished start failed or its process is gone.
func (o *owned) exited() bool {
	select {
	case <-o.ready:
	default:
		return false
	}
	if o.err != nil {
		return true
	}
	select {
	case <-o.exec.Done:
		return true
	default:
		return false
	}
}

// NewExecutions returns the executions of the agents starter starts and
// resumes. client calls the stop route of agents the relay does not own
// (nil: one without a proxy or pooled connections); log receives
// diagnostics (nil discards them).
func NewExecutions(starter Starter, client *http.Client, log *slog.Logger) *Executions {
	if client == nil {
		client = stopClient
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Executions{starter: starter, client: client, log: log, ctx: ctx, cancel: cancel, owned: map[string]*owned{}}
}

// errClosed is returned for tasks that need a start after Close.
var errClosed = errors.New("relay: closed")

// Resolve returns how to reach t's agent, starting or resuming it if
// needed. t's session must have passed admission. The start of a
// relay-owned agent is the Executions', not ctx's: a caller that gives up
// stops waiting for it, not the start.
func (x *Executions) Resolve(ctx context.Context, t Task) (AgentRef, error) {
	switch {
	case t.Owned():
		return x.resolveOwned(ctx, t)
	case t.Executor == LocalPC:
		return t.Agent, nil
	default:
		x.mu.Lock()
		closed := x.closed
		x.mu.Unlock()
		if closed {
			return AgentRef{}, errClosed
		}
		e, err := x.starter.Start(ctx, t)
		return e.Agent, err
	}
}

var errAgentExited = errors.New("agent exited")

func (x *Executions) resolveOwned(ctx context.Context, t Task) (AgentRef, error) {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return AgentRef{}, errClosed
	}
	o := x.owned[t.ID]
	if o == nil || o.exited() {
		o = &owned{ready: make(chan struct{})}
		x.owned[t.ID] = o
		x.starts.Add(1)
		go x.start(o, t)
	}
	x.mu.Unlock()

	select {
	case <-o.ready:
	case <-ctx.Done():
		return AgentRef{}, ctx.Err()
	}
	if o.err != nil {
		return AgentRef{}, o.err
	}
	if o.exited() {
		return AgentRef{}, errAgentExited
	}
	return o.exec.Agent, nil
}

func (x *Executions) start(o *owned, t Task) {
	defer x.starts.Done()
	o.exec, o.err = x.starter.Start(x.ctx, t)
	if o.err == nil && (o.exec.Done == nil || o.exec.Stop == nil) {
		o.err = errors.New("starter returned an execution without Done or Stop for a relay-owned agent")
	}
	close(o.ready)
	if o.err != nil {
		x.log.Warn("relay: agent start failed", "session", t.ID, "err", o.err)
		x.mu.Lock()
		if x.owned[t.ID] == o {
			delete(x.owned, t.ID)
		}
		x.mu.Unlock()
	}
}

// StopTask is task stop for t: its agent closes its streams with 1001 and
// reaps every language-server tree. A relay-owned agent is signalled;
// a container is stopped through the Starter (TaskStopper), and the call
// returns once it has ended, so the next stream resumes it; any other
// agent is asked through its own stop route. It reports whether an agent
// was running.
func (x *Executions) StopTask(ctx context.Context, t Task) (bool, error) {
	ts, canStop := x.starter.(TaskStopper)
	switch {
	case t.Owned():
		return x.stopOwned(ctx, t)
	case canStop:
		stopped, err := ts.StopTask(ctx, t)
		if errors.Is(err, errors.ErrUnsupported) {
			return x.stopRemote(ctx, t.Agent)
		}
		return stopped, err
	default:
		return x.stopRemote(ctx, t.Agent)
	}
}

// stopRemote calls the agent's own stop route. An agent without it (HTTP
// 404, an older agent) is not an error: nothing was stopped.
func (x *Executions) stopRemote(ctx context.Context, ref AgentRef) (bool, error) {
	stopped, err := requestTaskStop(ctx, x.client, ref)
	if err == nil && !stopped {
		x.log.Info("relay: agent has no task stop route", "url", ref.URL)
	}
	return stopped, err
}

// stopOwned is task stop for a relay-owned agent: it ends the process (its
// streams close with 1001, its servers are reaped) and forgets it, so the
// next stream starts a new one. It reports whether an agent was running.
func (x *Executions) stopOwned(ctx context.Context, t Task) (bool, error) {
	x.mu.Lock()
	o := x.owned[t.ID]
	delete(x.owned, t.ID)
	x.mu.Unlock()
	if o == nil {
		return false, nil
	}
	select {
	case <-o.ready:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	if o.exited() {
		return false, nil
	}
	return true, o.exec.Stop(ctx)
}

// Close refuses further starts, cancels those in progress and stops every
// relay-owned agent, waiting for them until ctx ends.
func (x *Executions) Close(ctx context.Context) error {
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
	x.cancel()
	x.starts.Wait() // a start honours its context, so this is short

	x.mu.Lock()
	all := x.owned
	x.owned = map[string]*owned{}
	x.mu.Unlock()

	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for id, o := range all {
		if o.exited() {
			continue
		}
		wg.Go(func() {
			if err := o.exec.Stop(ctx); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				x.log.Warn("relay: agent stop", "session", id, "err", err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Running counts the relay-owned agent processes alive now.
func (x *Executions) Running() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := 0
	for _, o := range x.owned {
		select {
		case <-o.ready:
			if !o.exited() {
				n++
			}
		default:
		}
	}
	return n
}
