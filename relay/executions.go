package relay

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
)

// executions resolves the running agent of a session, starting or resuming
// it through the Starter when needed, and remembers the agent processes the
// relay owns so that later streams reuse them and task stop and Close can
// end them.
//
//   - local_pc with agent.url: the agent is someone else's; used as named.
//   - local_pc without agent.url: one relay-owned process per session,
//     started on first use, reused while it runs, started again after it
//     exits or is stopped.
//   - local_docker: resumed through the Starter on every stream (idempotent).
type executions struct {
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
	owned  map[string]*owned // by session id
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

func newExecutions(s Starter, client *http.Client, log *slog.Logger) *executions {
	ctx, cancel := context.WithCancel(context.Background())
	return &executions{starter: s, client: client, log: log, ctx: ctx, cancel: cancel, owned: map[string]*owned{}}
}

// relayOwned reports whether the relay runs sess's agent process itself.
func relayOwned(sess Session) bool {
	return sess.Executor == ExecutorLocalPC && sess.Agent.URL == ""
}

// resolve returns how to reach sess's agent, starting or resuming it if
// needed. sess must have passed admission.
func (x *executions) resolve(ctx context.Context, sess Session) (AgentRef, error) {
	switch {
	case relayOwned(sess):
		return x.resolveOwned(ctx, sess)
	case sess.Executor == ExecutorLocalPC:
		return sess.Agent, nil
	default:
		x.mu.Lock()
		closed := x.closed
		x.mu.Unlock()
		if closed {
			return AgentRef{}, errClosed
		}
		e, err := x.starter.Start(ctx, sess)
		return e.Agent, err
	}
}

var errAgentExited = errors.New("agent exited")

func (x *executions) resolveOwned(ctx context.Context, sess Session) (AgentRef, error) {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return AgentRef{}, errClosed
	}
	o := x.owned[sess.ID]
	if o == nil || o.exited() {
		o = &owned{ready: make(chan struct{})}
		x.owned[sess.ID] = o
		x.starts.Add(1)
		go x.start(o, sess)
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

func (x *executions) start(o *owned, sess Session) {
	defer x.starts.Done()
	o.exec, o.err = x.starter.Start(x.ctx, sess)
	if o.err == nil && (o.exec.Done == nil || o.exec.Stop == nil) {
		o.err = errors.New("starter returned an execution without Done or Stop for a relay-owned agent")
	}
	close(o.ready)
	if o.err != nil {
		x.log.Warn("relay: agent start failed", "session", sess.ID, "err", o.err)
		x.mu.Lock()
		if x.owned[sess.ID] == o {
			delete(x.owned, sess.ID)
		}
		x.mu.Unlock()
	}
}

// stopTask is task stop for sess, whose agent closes its streams with 1001
// and reaps every language-server tree. A relay-owned agent is signalled;
// a container is stopped through the Starter (TaskStopper), and the call
// returns once it has ended, so the next stream resumes it; any other
// agent is asked through its own stop route. It reports whether an agent
// was running.
func (x *executions) stopTask(ctx context.Context, sess Session) (bool, error) {
	ts, canStop := x.starter.(TaskStopper)
	switch {
	case relayOwned(sess):
		return x.stopOwned(ctx, sess)
	case canStop:
		stopped, err := ts.StopTask(ctx, sess)
		if errors.Is(err, errors.ErrUnsupported) {
			return x.stopRemote(ctx, sess.Agent)
		}
		return stopped, err
	default:
		return x.stopRemote(ctx, sess.Agent)
	}
}

// stopRemote calls the agent's own stop route. An agent without it (HTTP
// 404, an older agent) is not an error: nothing was stopped.
func (x *executions) stopRemote(ctx context.Context, ref AgentRef) (bool, error) {
	stopped, err := requestTaskStop(ctx, x.client, ref)
	if err == nil && !stopped {
		x.log.Info("relay: agent has no task stop route", "url", ref.URL)
	}
	return stopped, err
}

// stopOwned is task stop for a relay-owned agent: it ends the process (its
// streams close with 1001, its servers are reaped) and forgets it, so the
// next stream starts a new one. It reports whether an agent was running.
func (x *executions) stopOwned(ctx context.Context, sess Session) (bool, error) {
	x.mu.Lock()
	o := x.owned[sess.ID]
	delete(x.owned, sess.ID)
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

// close refuses further starts, cancels those in progress and stops every
// relay-owned agent, waiting for them until ctx ends.
func (x *executions) close(ctx context.Context) error {
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

// running counts the relay-owned agent processes alive now.
func (x *executions) running() int {
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
