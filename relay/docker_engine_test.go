//go:build linux

package relay

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/relay/executor"
)

// The local_docker executor against a real Docker engine, with task
// containers made from the task image (docker/build-image: the static
// agent, gopls and a Go toolchain). KANDEV_DOCKER_IMAGE names the image.
// The test task sets it and KANDEV_REQUIRE_DOCKER=1, under which a missing
// engine or image fails these tests with the engine's own words instead of
// skipping them.

// needDockerImage returns the task image, or ends the test.
func needDockerImage(t *testing.T) string {
	t.Helper()
	required := os.Getenv("KANDEV_REQUIRE_DOCKER") == "1"
	image := os.Getenv("KANDEV_DOCKER_IMAGE")
	switch {
	case image == "" && required:
		t.Fatal("KANDEV_REQUIRE_DOCKER=1 but KANDEV_DOCKER_IMAGE names no task image")
	case image == "":
		t.Skip("KANDEV_DOCKER_IMAGE is not set: build the task image with `task docker:image` " +
			"(a Docker engine running) and name it there to run the local_docker tests against the engine")
	case testing.Short() && !required:
		t.Skip("-short: no containers")
	}
	if out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", image).CombinedOutput(); err != nil {
		msg := fmt.Sprintf("docker image inspect %s: %v: %s", image, err, bytes.TrimSpace(out))
		if required {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return image
}

// taskContainer is a task container created as docs/docker.md tells: the task
// image, the token in its environment, the agent's port published on a
// loopback port, the workspace mounted at /workspace. It is created, not
// started: the relay resumes it.
type taskContainer struct {
	name  string
	agent AgentRef
}

// newTaskContainer creates one over the host directory ws; agentArgs, if
// any, replace the image's CMD (the agent's flags).
func newTaskContainer(t *testing.T, image, ws string, agentArgs ...string) *taskContainer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())
	c := &taskContainer{
		name:  "kandev-relay-test-" + strings.ToLower(rand.Text()[:10]),
		agent: AgentRef{URL: "http://127.0.0.1:" + port, Token: rand.Text()},
	}
	args := append([]string{"create", "--name", c.name, "-e", "KANDEV_AGENT_TOKEN",
		"-p", "127.0.0.1:" + port + ":7070", "-v", ws + ":/workspace", image}, agentArgs...)
	cmd := exec.Command("docker", args...)
	// The token reaches the container through the CLI's environment, never
	// its command line.
	cmd.Env = append(os.Environ(), "KANDEV_AGENT_TOKEN="+c.agent.Token)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "docker create: %s", out)
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := exec.Command("docker", "logs", c.name).CombinedOutput()
			t.Logf("container %s output:\n%s", c.name, logs)
		}
		_ = exec.Command("docker", "rm", "-f", "--", c.name).Run()
	})
	return c
}

func (c *taskContainer) session(id string) Session {
	return Session{ID: id, Executor: ExecutorLocalDocker, Workspace: "/workspace", Container: c.name, Agent: c.agent}
}

// state reads one field of the container's state ("Running", "Pid", ...).
func (c *taskContainer) state(t *testing.T, field string) string {
	t.Helper()
	out, err := exec.Command("docker", "container", "inspect", "--format", "{{.State."+field+"}}", "--", c.name).CombinedOutput()
	require.NoError(t, err, "docker container inspect: %s", out)
	return strings.TrimSpace(string(out))
}

// pid is the host pid of the container's main process (the agent).
func (c *taskContainer) pid(t *testing.T) int {
	t.Helper()
	pid, err := strconv.Atoi(c.state(t, "Pid"))
	require.NoError(t, err)
	require.NotZero(t, pid, "the container runs")
	return pid
}

// goWorkspace writes a Go module into a fresh host directory: files maps
// names to contents.
func goWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/task\n\ngo 1.22\n"), 0o644))
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644))
	}
	return ws
}

// typeErrorMain is a main.go whose only mistake is a type error.
const typeErrorMain = "package main\n\nfunc main() {\n\tvar n int = \"not an int\"\n\t_ = n\n}\n"

// lspClient speaks just enough LSP through a browser stream to read a real
// server's diagnostics.
type lspClient struct {
	t     *testing.T
	ctx   context.Context
	c     *websocket.Conn
	ready wire.Status
}

type lspMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Error  json.RawMessage `json:"error"`
}

// openLSP connects a browser to session id for Go, reads the ready frame
// and initializes the server with the workspace the ready frame names.
func openLSP(t *testing.T, srvURL, id string) *lspClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, _, err := dialBrowser(ctx, "ws"+strings.TrimPrefix(srvURL, "http")+wire.RelayStreamPrefix+id+"?language=go", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.CloseNow() })
	l := &lspClient{t: t, ctx: ctx, c: c}
	_, b, err := c.Read(ctx)
	require.NoError(t, err, "no ready frame")
	require.NoError(t, json.Unmarshal(b, &l.ready), string(b))
	require.Equal(t, wire.StatusReady, l.ready.Status, string(b))

	l.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": l.ready.WorkspaceURI, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": l.ready.WorkspaceURI, "name": "task"}},
	}})
	for m := l.next(); string(m.ID) != "1"; m = l.next() {
	}
	l.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	return l
}

func (l *lspClient) send(v any) {
	l.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(l.t, err)
	require.NoError(l.t, l.c.Write(l.ctx, websocket.MessageText, b))
}

// next returns the next message that is not a server request; requests get
// a minimal answer so the server is never left waiting.
func (l *lspClient) next() lspMsg {
	l.t.Helper()
	for {
		_, b, err := l.c.Read(l.ctx)
		require.NoError(l.t, err)
		var m lspMsg
		require.NoError(l.t, json.Unmarshal(b, &m), string(b))
		if m.Method == "" || len(m.ID) == 0 {
			return m
		}
		var result any
		if m.Method == "workspace/configuration" {
			var p struct{ Items []any }
			_ = json.Unmarshal(m.Params, &p)
			result = make([]any, len(p.Items))
		}
		l.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
}

// diagnostics opens path (relative to the workspace the ready frame named)
// with text and returns the messages of the first non-empty
// publishDiagnostics for it.
func (l *lspClient) diagnostics(path, text string) []string {
	l.t.Helper()
	uri := l.ready.WorkspaceURI + "/" + path
	l.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": text},
	}})
	for {
		m := l.next()
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		require.NoError(l.t, json.Unmarshal(m.Params, &p))
		if p.URI != uri || len(p.Diagnostics) == 0 {
			continue
		}
		var msgs []string
		for _, d := range p.Diagnostics {
			msgs = append(msgs, d.Message)
		}
		return msgs
	}
}

// anyContains reports whether one of msgs contains sub.
func anyContains(msgs []string, sub string) bool {
	for _, m := range msgs {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

// procInfo is what /proc tells of one process.
type procInfo struct {
	comm string
	ppid int
}

// processes reads every process's name and parent from /proc.
func processes(t *testing.T) map[int]procInfo {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	all := map[int]procInfo{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(string(stat[end+1:]))
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		all[pid] = procInfo{comm: string(stat[open+1 : end]), ppid: ppid}
	}
	return all
}

// descendantsNamed returns the pids of the processes called comm below root.
func descendantsNamed(t *testing.T, root int, comm string) []int {
	t.Helper()
	all := processes(t)
	var pids []int
	for pid, p := range all {
		if p.comm != comm {
			continue
		}
		for up := p.ppid; up > 1; up = all[up].ppid {
			if up == root {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// namespace is the identity of a process's namespace of the given kind
// ("mnt", "pid"), e.g. "mnt:[4026531841]".
func namespace(t *testing.T, pid int, kind string) string {
	t.Helper()
	ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", pid, kind))
	require.NoError(t, err)
	return ns
}

// The whole life of a task container through the relay: a stopped
// container is resumed by the first stream, whose ready frame names the
// container's /workspace, and gopls inside reports a type error; task stop
// closes the stream with 1001, reaps gopls and ends the container (the
// agent exits cleanly); the next stream resumes it again.
func TestDockerEngineResumeStreamStopRestart(t *testing.T) {
	t.Parallel()
	image := needDockerImage(t)
	tc := newTaskContainer(t, image, goWorkspace(t, map[string]string{"main.go": typeErrorMain}))
	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(tc.session("d")),
		Starter:  executor.NewStarter(executor.StarterConfig{}),
	})
	require.Equal(t, "false", tc.state(t, "Running"), "created, not started")

	l := openLSP(t, srv.URL, "d")
	assert.Equal(t, "file:///workspace", l.ready.WorkspaceURI)
	assert.Equal(t, "/workspace", l.ready.WorkspacePath)
	msgs := l.diagnostics("main.go", typeErrorMain)
	assert.True(t, anyContains(msgs, `cannot use "not an int"`), "gopls in the container: %q", msgs)
	require.Equal(t, "true", tc.state(t, "Running"))
	gopls := descendantsNamed(t, tc.pid(t), "gopls")
	require.NotEmpty(t, gopls, "gopls runs under the container's agent")

	status, res := postStop(t, srv.URL, "d")
	require.Equal(t, http.StatusOK, status)
	assert.True(t, res.Stopped)
	requireClose(t, l.c, wire.CloseGoingAway)
	// The route answered once the container had ended, its agent by its
	// own task stop (SIGTERM), not by the engine's kill.
	assert.Equal(t, "false", tc.state(t, "Running"))
	assert.Equal(t, "0", tc.state(t, "ExitCode"))
	requireGone(t, gopls...)
	status, res = postStop(t, srv.URL, "d")
	require.Equal(t, http.StatusOK, status)
	assert.False(t, res.Stopped, "nothing runs")
	waitIdle(t, rl)

	l = openLSP(t, srv.URL, "d")
	msgs = l.diagnostics("main.go", typeErrorMain)
	assert.True(t, anyContains(msgs, `cannot use "not an int"`), "gopls after the restart: %q", msgs)
	assert.Equal(t, "true", tc.state(t, "Running"))
	require.NoError(t, l.c.Close(websocket.StatusNormalClosure, ""))
	waitIdle(t, rl)
}

// The language server runs in the container: gopls descends from the
// container's agent, shares its mount and pid namespaces (not the relay's),
// and is the image's binary; a decoy gopls first on the relay host's PATH
// never runs.
func TestDockerEngineServerRunsInContainer(t *testing.T) {
	image := needDockerImage(t)
	decoy := t.TempDir()
	ran := filepath.Join(decoy, "ran")
	require.NoError(t, os.WriteFile(filepath.Join(decoy, "gopls"),
		[]byte("#!/bin/sh\necho \"$@\" >> '"+ran+"'\nexit 3\n"), 0o755))
	t.Setenv("PATH", decoy+string(os.PathListSeparator)+os.Getenv("PATH"))

	tc := newTaskContainer(t, image, goWorkspace(t, map[string]string{"main.go": typeErrorMain}))
	srv, rl := newRelay(t, Config{Sessions: StaticSessions(tc.session("d")), Starter: executor.NewStarter(executor.StarterConfig{})})
	l := openLSP(t, srv.URL, "d")
	msgs := l.diagnostics("main.go", typeErrorMain)
	assert.True(t, anyContains(msgs, `cannot use "not an int"`), "%q", msgs)

	agent := tc.pid(t)
	gopls := descendantsNamed(t, agent, "gopls")
	require.NotEmpty(t, gopls, "gopls runs under the container's agent")
	for _, pid := range gopls {
		for _, kind := range []string{"mnt", "pid"} {
			assert.Equal(t, namespace(t, agent, kind), namespace(t, pid, kind), "gopls %d shares the container's %s namespace", pid, kind)
			assert.NotEqual(t, namespace(t, os.Getpid(), kind), namespace(t, pid, kind), "gopls %d is not in the relay's %s namespace", pid, kind)
		}
		// The link is resolved in the process's own mount namespace.
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		require.NoError(t, err)
		assert.Equal(t, "/usr/local/bin/gopls", exe, "the image's gopls")
	}
	_, err := os.Stat(ran)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the decoy gopls on the relay host's PATH ran")

	require.NoError(t, l.c.Close(websocket.StatusNormalClosure, ""))
	waitIdle(t, rl)
}

// Two sessions in two containers, both rooted at /workspace with the same
// main.go: each gopls reads its own container's files (only one workspace
// defines helper), so each reports its own diagnostic; the servers are two
// processes in two mount namespaces.
func TestDockerEngineTwoContainersKeepApart(t *testing.T) {
	t.Parallel()
	image := needDockerImage(t)
	const main = "package main\n\nfunc main() {\n\tvar s string = helper()\n\t_ = s\n}\n"
	withHelper := newTaskContainer(t, image, goWorkspace(t, map[string]string{
		"main.go": main, "helper.go": "package main\n\nfunc helper() int { return 1 }\n"}))
	without := newTaskContainer(t, image, goWorkspace(t, map[string]string{"main.go": main}))
	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(withHelper.session("a"), without.session("b")),
		Starter:  executor.NewStarter(executor.StarterConfig{}),
	})

	a, b := openLSP(t, srv.URL, "a"), openLSP(t, srv.URL, "b")
	assert.Equal(t, a.ready.WorkspaceURI, b.ready.WorkspaceURI, "both rooted at /workspace")
	msgsA, msgsB := a.diagnostics("main.go", main), b.diagnostics("main.go", main)
	assert.True(t, anyContains(msgsA, "cannot use helper()"), "a: %q", msgsA)
	assert.False(t, anyContains(msgsA, "undefined: helper"), "a: %q", msgsA)
	assert.True(t, anyContains(msgsB, "undefined: helper"), "b: %q", msgsB)
	assert.False(t, anyContains(msgsB, "cannot use helper()"), "b: %q", msgsB)

	// Each server (gopls and the crash monitor it forks of itself) is in
	// its own container's mount namespace.
	for _, tc := range []*taskContainer{withHelper, without} {
		agent := tc.pid(t)
		gopls := descendantsNamed(t, agent, "gopls")
		require.NotEmpty(t, gopls, tc.name)
		for _, pid := range gopls {
			assert.Equal(t, namespace(t, agent, "mnt"), namespace(t, pid, "mnt"))
		}
	}
	assert.NotEqual(t, namespace(t, withHelper.pid(t), "mnt"), namespace(t, without.pid(t), "mnt"))

	require.NoError(t, a.c.Close(websocket.StatusNormalClosure, ""))
	require.NoError(t, b.c.Close(websocket.StatusNormalClosure, ""))
	waitIdle(t, rl)
}

// Failures with a real engine end with 4002 and no reason, within the
// configured ready timeout (plus the second that undoing a resume may
// take), and leave nothing running.
func TestDockerEngineFailures(t *testing.T) {
	t.Parallel()
	image := needDockerImage(t)
	const readyTimeout = 3 * time.Second

	// closesWithin connects a browser to session id of a relay over
	// starter and expects 4002 before the deadline.
	closesWithin := func(t *testing.T, sess Session, starter *executor.DockerStarter) {
		t.Helper()
		srv, rl := newRelay(t, Config{Sessions: StaticSessions(sess), Starter: starter})
		// The undoing of a failed resume is a `docker stop --time 1`.
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout+time.Second+5*time.Second)
		defer cancel()
		c, _, err := dialBrowser(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+wire.RelayStreamPrefix+sess.ID+"?language=go", nil)
		require.NoError(t, err)
		defer c.CloseNow()
		_, _, err = c.Read(ctx)
		var ce websocket.CloseError
		require.ErrorAs(t, err, &ce, "a close frame before the deadline")
		assert.Equal(t, websocket.StatusCode(wire.CloseUnavailable), ce.Code)
		assert.Empty(t, ce.Reason)
		waitIdle(t, rl)
	}

	t.Run("no such container", func(t *testing.T) {
		t.Parallel()
		name := "kandev-relay-test-missing-" + strings.ToLower(rand.Text()[:10])
		sess := Session{ID: "d", Executor: ExecutorLocalDocker, Workspace: "/workspace", Container: name,
			Agent: AgentRef{URL: "http://127.0.0.1:9", Token: "t"}}
		closesWithin(t, sess, &executor.DockerStarter{ReadyTimeout: readyTimeout})
		out, err := exec.Command("docker", "container", "inspect", "--", name).CombinedOutput()
		assert.Error(t, err, "nothing was created: %s", out)
	})

	t.Run("engine not running", func(t *testing.T) {
		t.Parallel()
		// A container that exists on the running engine, reached through
		// an engine that does not: it must stay untouched.
		tc := newTaskContainer(t, image, t.TempDir())
		env := append(envWithout(os.Environ(), "DOCKER_HOST"), "DOCKER_HOST=unix://"+filepath.Join(t.TempDir(), "docker.sock"))
		closesWithin(t, tc.session("d"), &executor.DockerStarter{ReadyTimeout: readyTimeout, Env: env})
		assert.Equal(t, "false", tc.state(t, "Running"))
	})

	t.Run("agent never answers", func(t *testing.T) {
		t.Parallel()
		// The agent runs but listens on a port that is not published.
		tc := newTaskContainer(t, image, t.TempDir(), "-addr", "0.0.0.0:7071", "-workspace", "/workspace")
		closesWithin(t, tc.session("d"), &executor.DockerStarter{ReadyTimeout: readyTimeout})
		assert.Equal(t, "false", tc.state(t, "Running"), "the resume that failed is undone")
		assert.NotEqual(t, "0001-01-01T00:00:00Z", tc.state(t, "StartedAt"), "it was started")
	})
}
