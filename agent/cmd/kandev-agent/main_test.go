//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// built is the agent binary the tests run, built once for them all: each
// test building its own linked the same binary fifteen times over.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// build returns the path of the agent binary; the tests only run it.
func build(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "kandev-agent-test-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "kandev-agent")
		if out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("%w: %s", err, out)
		}
	})
	require.NoError(t, built.err)
	return built.path
}

func TestRequiresToken(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(build(t), "-addr", "127.0.0.1:0", "-workspace", t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 2, ee.ExitCode())
	require.Contains(t, string(out), "KANDEV_AGENT_TOKEN")
}

// TestSIGTERMAsItListens stops the agent the moment it names its port, as
// a task stopped right after its start: the signal is the agent's from
// before that line, so it exits 0 instead of dying of it.
func TestSIGTERMAsItListens(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, build(t), "-addr", "127.0.0.1:0", "-workspace", t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "KANDEV_AGENT_TOKEN=tok"}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "listening on "), line)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), "exit 0 after a stop as it listens")
}

// TestListenServeAndStop runs the binary: the first stdout line names the
// bound port, a stream works, and SIGTERM closes it with 1001, reaps the
// server and exits 0.
func TestListenServeAndStop(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	agent := build(t)
	ws, bin := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte("#!/bin/sh\necho $$ > server.pid\nexec cat\n"), 0o755))

	cmd := exec.CommandContext(ctx, agent, "-addr", "127.0.0.1:0", "-workspace", ws)
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "KANDEV_AGENT_TOKEN=tok"}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Regexp(t, `^listening on http://127\.0\.0\.1:[1-9][0-9]*\n$`, line)
	base := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))

	u := "ws" + strings.TrimPrefix(base, "http") + wire.AgentStreamPath + "?language=go"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	defer c.CloseNow()
	_, _, err = c.Read(ctx) // ready
	require.NoError(t, err)
	pidFile := filepath.Join(ws, "server.pid")
	for {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("server never started")
		case <-time.After(5 * time.Millisecond):
		}
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	_, _, err = c.Read(ctx)
	require.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err))
	require.NoError(t, cmd.Wait(), "exit 0 after task stop")
	b, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(b))
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	require.True(t, err != nil || strings.Contains(string(stat), ") Z "), "server reaped")
}
