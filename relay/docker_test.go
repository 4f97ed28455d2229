package relay

import (
	"context"
	"crypto/rand"
	"net"
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
)

// fakeDockerCLI writes a "docker" script that logs its arguments to a file
// and exits with code, printing msg.
func fakeDockerCLI(t *testing.T, code int, msg string) (cli, log string) {
	t.Helper()
	dir := t.TempDir()
	cli, log = filepath.Join(dir, "docker"), filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> '" + log + "'\necho '" + msg + "'\nexit " + strconv.Itoa(code) + "\n"
	require.NoError(t, os.WriteFile(cli, []byte(script), 0o755))
	return cli, log
}

// The local_docker path through the real DockerStarter, with a stand-in
// for the docker CLI: `docker start -- <container>` runs on every stream,
// then the relay dials the agent at the session's address.
func TestDockerStarterRunsDockerStart(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	cli, log := fakeDockerCLI(t, 0, "task-1")
	sess := Session{ID: "d", Executor: ExecutorLocalDocker, Workspace: "/workspace", Container: "task-1",
		Agent: AgentRef{URL: a.url(), Token: a.token}}
	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(sess),
		Starter:  NewStarter(StarterConfig{DockerCLI: cli}),
	})
	for range 2 {
		b, code := connect(t, srv.URL, "d")
		require.Zero(t, code)
		require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
		a.next(t).ended(t)
	}
	calls, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "start -- task-1\nstart -- task-1\n", string(calls))
	waitIdle(t, rl)
}

func TestDockerStarterFailures(t *testing.T) {
	t.Parallel()
	a := newFakeAgent(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedURL := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close())

	failCLI, _ := fakeDockerCLI(t, 1, "Error response from daemon: No such container: task-1")
	okCLI, _ := fakeDockerCLI(t, 0, "task-1")
	base := Session{ID: "d", Executor: ExecutorLocalDocker, Container: "task-1", Agent: AgentRef{URL: a.url(), Token: a.token}}
	for _, tc := range []struct {
		name, cli, want string
		edit            func(*Session)
	}{
		{"no container", okCLI, "no container", func(s *Session) { s.Container = "" }},
		{"no agent url", okCLI, "no agent URL", func(s *Session) { s.Agent.URL = "" }},
		{"docker fails", failCLI, "No such container", func(*Session) {}},
		{"agent never answers", okCLI, "not answering", func(s *Session) { s.Agent.URL = closedURL }},
	} {
		sess := base
		tc.edit(&sess)
		d := &DockerStarter{CLI: tc.cli, ReadyTimeout: 300 * time.Millisecond}
		_, err := d.Start(context.Background(), sess)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// With a Docker engine: a container whose main process is the real agent
// is started by the relay, and the agent inside answers the stream (4001:
// no gopls in the image, and the user has not enabled auto-install).
func TestDockerRealEngine(t *testing.T) {
	if err := exec.Command("docker", "info").Run(); err != nil {
		t.Skip("no Docker engine answers `docker info` here; the local_docker path is covered by " +
			"TestDockerStarterRunsDockerStart (stand-in CLI) and TestCheckOrder")
	}
	needAgent(t)
	ctx := testCtx(t)
	dir := t.TempDir()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "kandev-agent"), "github.com/kandev/lsp/agent/cmd/kandev-agent")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Dockerfile"),
		[]byte("FROM scratch\nCOPY kandev-agent /kandev-agent\nWORKDIR /\n"), 0o644))

	name := "kandev-relay-test-" + strings.ToLower(rand8())
	docker := func(args ...string) string {
		out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
		require.NoError(t, err, "docker %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	docker("build", "-q", "-t", name, dir)
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", name).Run() })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	docker("create", "--name", name, "-e", "KANDEV_AGENT_TOKEN=tok",
		"-p", "127.0.0.1:"+itoa(port)+":7070", name, "/kandev-agent", "-addr", "0.0.0.0:7070", "-workspace", "/")
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", name).Run() })

	srv, rl := newRelay(t, Config{
		Sessions: StaticSessions(Session{ID: "d", Executor: ExecutorLocalDocker, Workspace: "/", Container: name,
			Agent: AgentRef{URL: "http://127.0.0.1:" + itoa(port), Token: "tok"}}),
	})
	_, code := connect(t, srv.URL, "d")
	assert.Equal(t, wire.CloseBinaryMissing, code, "the agent inside the container answered")
	assert.Equal(t, "true", docker("inspect", "-f", "{{.State.Running}}", name))
	waitIdle(t, rl)
}

func itoa(n int) string { return strconv.Itoa(n) }

func rand8() string { return rand.Text()[:8] }
