//go:build linux

package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kandev-agent")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
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
