package executor

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// stubDocker is a stand-in for the docker CLI that keeps one container's
// running state in a file and logs every call but `wait` (which runs
// concurrently with the others and only blocks). A failing stub answers
// every call with fail on stderr and exit 1, as the CLI does when the
// engine refuses.
//
// Each stub is a symlink to one script written by TestMain, before any test
// starts a process: a script written while another test forks would be held
// open for writing by that child until it execs, and running it would fail
// with "text file busy". The script finds its files beside the link.
type stubDocker struct {
	cli, log, state string
}

// stubDockerScript is the stub's program; TestMain writes it to
// stubDockerPath.
const stubDockerScript = `#!/bin/sh
d=$(dirname "$0")
if [ -f "$d/fail" ]; then
	echo "$*" >> "$d/calls"
	cat "$d/fail" >&2
	exit 1
fi
case "$1" in
wait) exec sleep 60 ;;
esac
echo "$*" >> "$d/calls"
case "$1" in
container) cat "$d/state" ;;
start) echo true > "$d/state" ;;
stop) echo false > "$d/state" ;;
esac
`

var stubDockerPath string

func newStubDocker(t *testing.T, running bool, fail string) *stubDocker {
	t.Helper()
	require.NotEmpty(t, stubDockerPath, "TestMain writes the stub docker script")
	dir := t.TempDir()
	s := &stubDocker{cli: filepath.Join(dir, "docker"), log: filepath.Join(dir, "calls"), state: filepath.Join(dir, "state")}
	require.NoError(t, os.WriteFile(s.state, []byte(boolText(running)+"\n"), 0o644))
	if fail != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "fail"), []byte(fail+"\n"), 0o644))
	}
	require.NoError(t, os.Symlink(stubDockerPath, s.cli))
	return s
}

func (s *stubDocker) calls(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(s.log)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func (s *stubDocker) running(t *testing.T) bool {
	t.Helper()
	b, err := os.ReadFile(s.state)
	require.NoError(t, err)
	return strings.TrimSpace(string(b)) == "true"
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

const inspectCall = "container inspect --format {{.State.Running}} -- task-1"

// answering is an agent that answers every request, as far as resuming a
// container needs: DockerStarter waits for any HTTP answer. It counts the
// calls of its task-stop route.
type answering struct {
	url   string
	stops atomic.Int32
}

func newAnswering(t *testing.T) *answering {
	t.Helper()
	a := &answering{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == wire.AgentTaskStopPath {
			a.stops.Add(1)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	a.url = srv.URL
	return a
}

// closedURL is the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	return "http://" + ln.Addr().String()
}

// The local_docker path through the production Starter with the stand-in
// CLI: a stopped container is started by the first resolve, a running one
// only inspected, and task stop is `docker stop` (not the agent's route),
// after which the next resolve starts it again. Every container name
// follows "--".
func TestDockerStarterResumesAndStops(t *testing.T) {
	t.Parallel()
	a := newAnswering(t)
	stub := newStubDocker(t, false, "")
	task := Task{ID: "d", Executor: LocalDocker, Workspace: "/workspace", Container: "task-1",
		Agent: AgentRef{URL: a.url, Token: "t"}}
	x := NewExecutions(NewStarter(StarterConfig{DockerCLI: stub.cli}), nil, nil)
	ctx := context.Background()
	defer func() { require.NoError(t, x.Close(ctx)) }()

	for range 2 {
		ref, err := x.Resolve(ctx, task)
		require.NoError(t, err)
		assert.Equal(t, task.Agent, ref)
	}
	assert.Equal(t, []string{inspectCall, "start -- task-1", inspectCall}, stub.calls(t))

	stopped, err := x.StopTask(ctx, task)
	require.NoError(t, err)
	assert.True(t, stopped)
	assert.False(t, stub.running(t))
	stopped, err = x.StopTask(ctx, task)
	require.NoError(t, err)
	assert.False(t, stopped, "nothing runs")
	assert.Zero(t, a.stops.Load(), "a container is stopped through the engine")
	assert.Zero(t, x.Running(), "a container is no process of the relay's")

	_, err = x.Resolve(ctx, task)
	require.NoError(t, err)
	assert.Equal(t, []string{inspectCall, "start -- task-1", inspectCall,
		inspectCall, "stop --time 15 -- task-1", inspectCall,
		inspectCall, "start -- task-1"}, stub.calls(t))
}

// stubPatience bounds a start against the stand-in CLI where the agent
// never answers: long enough for a few runs of its shell script on a busy
// machine under the race detector, where 300 ms was not.
const stubPatience = 3 * time.Second

func TestDockerStarterFailures(t *testing.T) {
	t.Parallel()
	a := newAnswering(t)
	closed := closedURL(t)

	base := Task{ID: "d", Executor: LocalDocker, Container: "task-1", Agent: AgentRef{URL: a.url, Token: "t"}}
	for _, tc := range []struct {
		name      string
		running   bool
		fail      string
		want      string
		edit      func(*Task)
		wantCalls []string
	}{
		{name: "no container", want: "no container", edit: func(t *Task) { t.Container = "" }},
		{name: "no agent url", want: "no agent URL", edit: func(t *Task) { t.Agent.URL = "" }},
		{name: "engine refuses", fail: "Error response from daemon: No such container: task-1", want: "No such container",
			wantCalls: []string{inspectCall}},
		// Resumed for nothing: stopped again.
		{name: "agent never answers", want: "not answering", edit: func(t *Task) { t.Agent.URL = closed },
			wantCalls: []string{inspectCall, "start -- task-1", "stop --time 1 -- task-1"}},
		// Already running: someone else's to stop.
		{name: "running agent never answers", running: true, want: "not answering", edit: func(t *Task) { t.Agent.URL = closed },
			wantCalls: []string{inspectCall}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stub := newStubDocker(t, tc.running, tc.fail)
			task := base
			if tc.edit != nil {
				tc.edit(&task)
			}
			d := &DockerStarter{CLI: stub.cli, ReadyTimeout: stubPatience}
			_, err := d.Start(context.Background(), task)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.wantCalls, stub.calls(t))
		})
	}
}

// A caller that gives up while the resumed agent is still coming up (the
// browser left) does not stop the container: the agent may be fine, and
// another stream may be using it by then.
func TestDockerStarterCallerGivesUp(t *testing.T) {
	t.Parallel()
	stub := newStubDocker(t, false, "")
	ctx, cancel := context.WithTimeout(context.Background(), stubPatience)
	defer cancel()
	d := &DockerStarter{CLI: stub.cli, ReadyTimeout: time.Minute}
	_, err := d.Start(ctx, Task{ID: "d", Executor: LocalDocker, Container: "task-1", Agent: AgentRef{URL: closedURL(t), Token: "t"}})
	require.ErrorContains(t, err, "not answering")
	assert.Equal(t, []string{inspectCall, "start -- task-1"}, stub.calls(t))
	assert.True(t, stub.running(t))
}
