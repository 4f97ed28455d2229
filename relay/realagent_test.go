//go:build unix

package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/executor"
)

// realAgentRelay is a relay whose single session "s" is a local_pc task
// without an agent URL, so the relay starts the real kandev-agent for it.
// server is the body of a shell script installed as "gopls" on the agent's
// PATH; $KANDEV_TEST_PIDS is a directory it may write to.
type realAgentRelay struct {
	srv    string
	rl     *Relay
	starts *countingStarter
	pids   string
	// process is the starter of local_pc agents; out is their output.
	process *executor.ProcessStarter
	out     *syncBuffer
	// ws is the session's task workspace.
	ws string

	mu sync.Mutex
	// started holds the last execution process started, by session id.
	started map[string]executor.Execution
}

func newRealAgentRelay(t testing.TB, server string) *realAgentRelay {
	t.Helper()
	bin := needAgent(t)
	dir := t.TempDir()
	binDir, pids, ws := filepath.Join(dir, "bin"), filepath.Join(dir, "pids"), filepath.Join(dir, "work space")
	for _, d := range []string{binDir, pids, ws} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(binDir, "gopls"), []byte("#!/bin/sh\n"+server), 0o755))

	env := append(envWithout(os.Environ(), "PATH", "KANDEV_TEST_PIDS"),
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "KANDEV_TEST_PIDS="+pids)
	out := &syncBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("agent output:\n%s", out.String())
		}
	})
	// The starter the relay would make of AgentBinary, AgentEnv,
	// AgentPassEnv and AgentOutput for these local_pc sessions, with every
	// start counted and its execution kept for the test.
	r := &realAgentRelay{pids: pids, out: out, ws: ws, started: map[string]executor.Execution{},
		process: &executor.ProcessStarter{Binary: bin, Env: env, PassEnv: []string{"KANDEV_TEST_PIDS"}, Output: out}}
	r.starts = &countingStarter{start: func(ctx context.Context, task executor.Task) (executor.Execution, error) {
		e, err := r.process.Start(ctx, task)
		if err == nil {
			r.mu.Lock()
			r.started[task.ID] = e
			r.mu.Unlock()
		}
		return e, err
	}}
	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(
			Session{ID: "s", Executor: ExecutorLocalPC, Workspace: ws},
			Session{ID: "no-workspace", Executor: ExecutorLocalPC, Workspace: filepath.Join(dir, "missing")},
		),
		Starter: r.starts,
	})
	r.srv, r.rl = srv.URL, rl
	return r
}

// open connects a browser to "s" and reads until the agent's ready frame.
func (r *realAgentRelay) open(t testing.TB) *websocket.Conn { return r.openSession(t, "s") }

// openSession connects a browser to session id and reads until the
// agent's ready frame.
func (r *realAgentRelay) openSession(t testing.TB, id string) *websocket.Conn {
	t.Helper()
	ctx := testCtx(t)
	b, _, err := dialBrowser(ctx, "ws"+strings.TrimPrefix(r.srv, "http")+wire.RelayStreamPrefix+id+"?language=go", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.CloseNow() })
	for {
		_, msg, err := b.Read(ctx)
		require.NoError(t, err, "no ready frame")
		var st wire.Status
		require.NoError(t, json.Unmarshal(msg, &st))
		if st.Status == wire.StatusReady {
			return b
		}
	}
}

// echo sends one JSON-RPC message and expects it back (the server is cat).
func echo(t testing.TB, b *websocket.Conn, id int) {
	t.Helper()
	ctx := testCtx(t)
	msg := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
	require.NoError(t, b.Write(ctx, websocket.MessageText, msg))
	_, got, err := b.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, string(msg), string(got))
}

// owned returns the execution of the agent the relay last started for
// session id; call it once a stream of that session has been served.
func (r *realAgentRelay) owned(t testing.TB, id string) executor.Execution {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.started[id]
	require.True(t, ok, "no relay-owned agent for %s", id)
	return e
}

// gone reports whether pid no longer runs (a zombie waiting for its reaper
// counts as gone: it runs nothing and holds nothing but its pid).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// pid (comm) S ...: the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}

func requireGone(t *testing.T, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for _, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still runs", pid)
			}
			time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
		}
	}
}

// readPids reads every pid the server scripts recorded.
func readPids(t *testing.T, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var pids []int
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			require.NoError(t, err)
			pids = append(pids, pid)
		}
	}
	return pids
}

// Task stop through the relay: the relay-started agent stops while two
// browsers are still connected; they see 1001, and every language-server
// process — each server and the child it spawned — is gone.
func TestTaskStopReapsServersWithBrowsersOpen(t *testing.T) {
	t.Parallel()
	// A server with a descendant: a background sleep, then cat as the
	// echo server. Both pids are recorded before cat runs.
	r := newRealAgentRelay(t, `sleep 300 </dev/null >/dev/null 2>&1 &
echo "$$ $!" > "$KANDEV_TEST_PIDS/$$"
exec cat
`)
	b1 := r.open(t)
	echo(t, b1, 1)
	b2 := r.open(t)
	echo(t, b2, 2)
	assert.Equal(t, int32(1), r.starts.n.Load(), "the second stream reuses the running agent")

	agent := r.owned(t, "s")
	pids := readPids(t, r.pids)
	require.Len(t, pids, 4, "two servers, each with a child")
	for _, pid := range append(pids, agent.PID) {
		require.False(t, gone(pid), "pid %d should run before the stop", pid)
	}

	resp, err := testClient.Post(r.srv+"/api/v1/sessions/s/stop", "", nil)
	require.NoError(t, err)
	var res stopResult
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, res.Stopped)

	requireClose(t, b1, wire.CloseGoingAway)
	requireClose(t, b2, wire.CloseGoingAway)
	<-agent.Done // the stop route answered after the agent exited
	requireGone(t, append(pids, agent.PID)...)
	waitIdle(t, r.rl)

	// Stopping again is harmless: nothing runs.
	resp, err = testClient.Post(r.srv+"/api/v1/sessions/s/stop", "", nil)
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	_ = resp.Body.Close()
	assert.False(t, res.Stopped)

	// The next stream restores the task: a new agent.
	b3 := r.open(t)
	echo(t, b3, 3)
	assert.Equal(t, int32(2), r.starts.n.Load())
	require.NoError(t, b3.Close(websocket.StatusNormalClosure, ""))
	waitIdle(t, r.rl)
}

// Task stop the way it runs on Windows, where there is no SIGTERM: the
// relay-started agent is stopped through its stop route (its log says so),
// the browser sees 1001, and every server process and its child are gone.
func TestTaskStopByRouteForStartedAgent(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, `sleep 300 </dev/null >/dev/null 2>&1 &
echo "$$ $!" > "$KANDEV_TEST_PIDS/$$"
exec cat
`)
	r.process.StopByRoute = true
	b := r.open(t)
	echo(t, b, 1)
	agent := r.owned(t, "s")
	pids := readPids(t, r.pids)
	require.Len(t, pids, 2)

	status, res := postStop(t, r.srv, "s")
	assert.Equal(t, http.StatusOK, status)
	assert.True(t, res.Stopped)
	requireClose(t, b, wire.CloseGoingAway)
	<-agent.Done
	requireGone(t, append(pids, agent.PID)...)
	assert.Contains(t, r.out.String(), `by="stop route"`, "asked through the route, not by a signal")
	waitIdle(t, r.rl)
}

// The agent dies mid-stream (SIGKILL: no close frame): the browser gets
// 4002 — the task host's hop failed, not the server, so lsp.wasm connects
// again — and the next stream starts a new agent.
func TestAgentKilledMidStream(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	b := r.open(t)
	echo(t, b, 1)
	agent := r.owned(t, "s")

	require.NoError(t, syscall.Kill(agent.PID, syscall.SIGKILL))
	requireClose(t, b, wire.CloseUnavailable)
	<-agent.Done
	waitIdle(t, r.rl)

	b2 := r.open(t)
	echo(t, b2, 2)
	assert.Equal(t, int32(2), r.starts.n.Load(), "a dead agent is started again")
	require.NoError(t, b2.Close(websocket.StatusNormalClosure, ""))
	waitIdle(t, r.rl)
}

// Close (kandev-relay's SIGTERM path) stops the agents the relay started.
func TestCloseStopsStartedAgents(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	b := r.open(t)
	echo(t, b, 1)
	agent := r.owned(t, "s")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, r.rl.Close(ctx))
	requireClose(t, b, wire.CloseGoingAway)
	<-agent.Done
	requireGone(t, agent.PID)
	waitIdle(t, r.rl)

	// After Close nothing is started any more.
	b2, code := connect(t, r.srv, "s")
	_ = b2
	assert.Equal(t, wire.CloseUnavailable, code)
	assert.Equal(t, int32(1), r.starts.n.Load())
}

// An agent that cannot start (its workspace is gone) is a 4002, and the
// next stream tries again.
func TestAgentStartFailure(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	for i := range 2 {
		_, code := connect(t, r.srv, "no-workspace")
		assert.Equal(t, wire.CloseUnavailable, code)
		assert.Equal(t, int32(i+1), r.starts.n.Load())
	}
	waitIdle(t, r.rl)
}

// An agent the relay did not start (a session with agent.url) is stopped
// through the agent's own stop route: the browser sees 1001, the server
// and its child are gone, and the agent exits.
func TestTaskStopThroughAgentRoute(t *testing.T) {
	t.Parallel()
	bin := needAgent(t)
	dir := t.TempDir()
	binDir, pids, ws := filepath.Join(dir, "bin"), filepath.Join(dir, "pids"), filepath.Join(dir, "ws")
	for _, d := range []string{binDir, pids, ws} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(binDir, "gopls"), []byte(`#!/bin/sh
sleep 300 </dev/null >/dev/null 2>&1 &
echo "$$ $!" > "$KANDEV_TEST_PIDS/$$"
exec cat
`), 0o755))
	env := append(envWithout(os.Environ(), "PATH", "KANDEV_TEST_PIDS"),
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "KANDEV_TEST_PIDS="+pids)

	// Someone else's agent: started here, not by the relay.
	agent, err := (&executor.ProcessStarter{Binary: bin, Env: env, PassEnv: []string{"KANDEV_TEST_PIDS"}}).Start(context.Background(),
		executor.Task{ID: "ext", Workspace: ws})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = agent.Stop(ctx)
	})
	st := &countingStarter{}
	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(Session{ID: "ext", Executor: ExecutorLocalPC, Workspace: ws, Agent: agent.Agent}),
		Starter:  st,
	})
	r := &realAgentRelay{srv: srv.URL, rl: rl, starts: st, pids: pids}
	b := r.openSession(t, "ext")
	echo(t, b, 1)
	procs := readPids(t, pids)
	require.Len(t, procs, 2)

	status, res := postStop(t, srv.URL, "ext")
	assert.Equal(t, http.StatusOK, status)
	assert.True(t, res.Stopped)
	requireClose(t, b, wire.CloseGoingAway)
	requireGone(t, procs...)
	<-agent.Done // the agent exits after its task stop
	assert.Zero(t, st.n.Load(), "the relay started nothing")
	waitIdle(t, rl)
}

// With the real agent, restored for the request: its answer reaches the
// browser as the agent wrote it, gopls found where the task PATH has it.
func TestInstallersRouteRealAgent(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat\n")
	status, _, body := getInstallers(t, r.srv, "s", nil)
	require.Equal(t, http.StatusOK, status, string(body))
	var got wire.Installers
	require.NoError(t, json.Unmarshal(body, &got))
	require.Len(t, got.Languages, len(wire.Languages))
	byLang := map[wire.Language]wire.InstallerInfo{}
	for _, l := range got.Languages {
		byLang[l.Language] = l.InstallerInfo
	}
	require.True(t, byLang[wire.Go].Found, "the fake gopls on the task PATH")
	require.Equal(t, wire.NotInstallableManual, byLang[wire.Kotlin].Reason)
	require.EqualValues(t, 1, r.starts.n.Load(), "the session's agent was restored to answer")
}

// The server the browser names reaches the real agent: its ready frame
// names the entry that runs. An id shaped right but held by neither the
// built-in nor the task host's catalog passes the relay (it could be an
// operator's) and is refused by the agent before any process, which the
// browser sees as the task host's refusal, 4002.
func TestServerParamRealAgent(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "echo started >> \"$KANDEV_TEST_PIDS/started\"\nexec cat\n")
	ctx := testCtx(t)
	base := "ws" + strings.TrimPrefix(r.srv, "http") + wire.RelayStreamPrefix + "s?language=go"
	b, _, err := dialBrowser(ctx, base+"&server=gopls", nil)
	require.NoError(t, err)
	_, msg, err := b.Read(ctx)
	require.NoError(t, err)
	var st wire.Status
	require.NoError(t, json.Unmarshal(msg, &st))
	require.Equal(t, wire.StatusReady, st.Status)
	assert.Equal(t, "gopls", st.Server)
	echo(t, b, 1)
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))

	b, _, err = dialBrowser(ctx, base+"&server=not-in-any-catalog", nil)
	require.NoError(t, err)
	_, _, err = b.Read(ctx)
	assert.Equal(t, websocket.StatusCode(wire.CloseUnavailable), websocket.CloseStatus(err))
	started, _ := os.ReadFile(filepath.Join(r.pids, "started"))
	assert.Equal(t, "started\n", string(started), "one server started, for the first stream only")
}

// An agent the relay starts holds a lost stream's server exactly as long
// as the relay holds its slot: it is given the relay's resume grace.
func TestStartedAgentIsGivenTheResumeGrace(t *testing.T) {
	t.Parallel()
	r := newRealAgentRelay(t, "exec cat")
	r.process.ResumeGrace = 1500 * time.Millisecond
	b := r.open(t)
	echo(t, b, 1)
	require.NoError(t, b.CloseNow())
	require.Eventually(t, func() bool { return strings.Contains(r.out.String(), "server held for a resume") }, 15*time.Second, 10*time.Millisecond)
	assert.Contains(t, r.out.String(), "resume-grace=1.5s")
	assert.Regexp(t, `server held for a resume".*grace=1.5s`, r.out.String())
}
