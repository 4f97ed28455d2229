package executor

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// fakeStarter "starts" a process for every task: its execution has Done
// and Stop, and the test may end it from outside (exit).
type fakeStarter struct {
	starts atomic.Int32
	stops  atomic.Int32
	// incomplete leaves Done and Stop out, as no process starter may.
	incomplete bool

	mu   sync.Mutex
	last chan struct{} // Done of the last start
}

func (f *fakeStarter) Start(_ context.Context, t Task) (Execution, error) {
	f.starts.Add(1)
	e := Execution{Agent: AgentRef{URL: "http://127.0.0.1:1", Token: t.ID}}
	if f.incomplete {
		return e, nil
	}
	done := make(chan struct{})
	var once sync.Once
	e.Done = done
	e.Stop = func(context.Context) error {
		f.stops.Add(1)
		once.Do(func() { close(done) })
		return nil
	}
	f.mu.Lock()
	f.last = done
	f.mu.Unlock()
	return e, nil
}

// exit ends the last started process as if it died on its own.
func (f *fakeStarter) exit() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.last)
}

// A relay-owned agent is started once however many streams ask at once,
// reused while it runs, started again after task stop or its own exit, and
// stopped by Close, after which nothing is started any more.
func TestExecutionsOwnedAgent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := &fakeStarter{}
	x := NewExecutions(st, nil, nil)
	task := Task{ID: "s", Executor: LocalPC, Workspace: "/w"}
	require.True(t, task.Owned())

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			ref, err := x.Resolve(ctx, task)
			assert.NoError(t, err)
			assert.Equal(t, "s", ref.Token)
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), st.starts.Load(), "one start for concurrent streams")
	assert.Equal(t, 1, x.Running())

	stopped, err := x.StopTask(ctx, task)
	require.NoError(t, err)
	assert.True(t, stopped)
	assert.Equal(t, int32(1), st.stops.Load())
	assert.Zero(t, x.Running())
	stopped, err = x.StopTask(ctx, task)
	require.NoError(t, err)
	assert.False(t, stopped, "nothing runs")

	_, err = x.Resolve(ctx, task)
	require.NoError(t, err)
	assert.Equal(t, int32(2), st.starts.Load(), "started again after task stop")
	st.exit()
	assert.Zero(t, x.Running(), "an agent that exited is not counted")
	_, err = x.Resolve(ctx, task)
	require.NoError(t, err)
	assert.Equal(t, int32(3), st.starts.Load(), "started again after it exited")

	require.NoError(t, x.Close(ctx))
	assert.Equal(t, int32(2), st.stops.Load(), "Close stopped the running agent")
	assert.Zero(t, x.Running())
	_, err = x.Resolve(ctx, task)
	assert.ErrorIs(t, err, errClosed)
	_, err = x.Resolve(ctx, Task{ID: "d", Executor: LocalDocker, Container: "c", Agent: AgentRef{URL: "http://127.0.0.1:1"}})
	assert.ErrorIs(t, err, errClosed)
	assert.Equal(t, int32(3), st.starts.Load(), "nothing started after Close")
}

// A Starter that returns a relay-owned agent it could neither watch nor
// stop fails the start rather than leave a process nobody can end.
func TestExecutionsOwnedNeedsDoneAndStop(t *testing.T) {
	t.Parallel()
	x := NewExecutions(&fakeStarter{incomplete: true}, nil, nil)
	_, err := x.Resolve(context.Background(), Task{ID: "s", Executor: LocalPC, Workspace: "/w"})
	assert.ErrorContains(t, err, "without Done or Stop")
	require.NoError(t, x.Close(context.Background()))
}

// unsupportedStopper is a TaskStopper that cannot stop anything.
type unsupportedStopper struct{ fakeStarter }

func (*unsupportedStopper) StopTask(context.Context, Task) (bool, error) {
	return false, errors.ErrUnsupported
}

// An agent the relay does not own is stopped through its own route with
// its bearer token, also when the Starter is a TaskStopper that cannot stop
// it; an agent without the route (404) stopped nothing, and any other
// answer is an error. Nothing is started.
func TestExecutionsStopThroughAgentRoute(t *testing.T) {
	t.Parallel()
	var status atomic.Int32
	var auth atomic.Value
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/base"+wire.AgentTaskStopPath {
			http.NotFound(w, r)
			return
		}
		auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(int(status.Load()))
	}))
	defer agent.Close()
	task := Task{ID: "pc", Executor: LocalPC, Agent: AgentRef{URL: agent.URL + "/base/", Token: "tok"}}

	for _, st := range []Starter{&fakeStarter{}, &unsupportedStopper{}} {
		x := NewExecutions(st, nil, nil)
		status.Store(http.StatusNoContent)
		stopped, err := x.StopTask(context.Background(), task)
		require.NoError(t, err)
		assert.True(t, stopped)
		assert.Equal(t, "Bearer tok", auth.Load())

		status.Store(http.StatusNotFound)
		stopped, err = x.StopTask(context.Background(), task)
		require.NoError(t, err, "an agent without the route is not an error")
		assert.False(t, stopped)

		status.Store(http.StatusInternalServerError)
		_, err = x.StopTask(context.Background(), task)
		assert.ErrorContains(t, err, "HTTP 500")
		require.NoError(t, x.Close(context.Background()))
	}
}
