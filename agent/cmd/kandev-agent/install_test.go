//go:build linux

package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// launch builds the agent and starts it on a loopback port with env as
// its whole environment (the task environment); it returns its base URL.
func launch(t *testing.T, ctx context.Context, ws string, env []string) (*exec.Cmd, string) {
	t.Helper()
	return startBinary(t, ctx, build(t), ws, env, nil)
}

// startBinary starts the agent binary on a loopback port for workspace ws,
// with env and KANDEV_AGENT_TOKEN=tok as its whole environment, its
// standard error to stderr (nil: discarded) and args after -addr and
// -workspace. It returns the base URL from the first stdout line; the
// test's end kills it if it still runs.
func startBinary(t *testing.T, ctx context.Context, agent, ws string, env []string, stderr io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, agent, append([]string{"-addr", "127.0.0.1:0", "-workspace", ws}, args...)...)
	cmd.Env = append(append([]string(nil), env...), "KANDEV_AGENT_TOKEN=tok")
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}

// dialGo opens a Go stream on the agent at base with the test token.
func dialGo(t *testing.T, ctx context.Context, base string) *websocket.Conn {
	t.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + wire.AgentStreamPath + "?language=go"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// stream dials the agent's stream for lang with autoInstall=true.
func stream(t *testing.T, ctx context.Context, base, lang string) *websocket.Conn {
	t.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + wire.AgentStreamPath + "?language=" + lang + "&autoInstall=true"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	c.SetReadLimit(wire.MaxMessageSize)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// nextStatus reads a frame that must be a status frame with status want.
func nextStatus(t *testing.T, ctx context.Context, c *websocket.Conn, want string) wire.Status {
	t.Helper()
	_, b, err := c.Read(ctx)
	require.NoError(t, err)
	var st wire.Status
	require.NoError(t, json.Unmarshal(b, &st), string(b))
	require.Equal(t, want, st.Status, string(b))
	return st
}

// hangingNPM is an npm that writes a partial install, starts a
// TERM-ignoring child, records both pids in $PIDS and never finishes.
const hangingNPM = `#!/bin/sh
mkdir -p node_modules/.bin; echo partial > node_modules/partial
sh -c 'trap "" TERM HUP; echo $$ >> "$PIDS"; exec sleep 60' &
echo $$ >> "$PIDS"
wait
`

// Spec: instance teardown during auto-install. SIGTERM while npm runs:
// the stream closes 1001 with no prose, npm and its TERM-ignoring child
// are gone, nothing is published or left half-made, and the agent exits 0.
func TestSIGTERMDuringInstall(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	ws, home, tbin, pidFile := filepath.Join(dir, "ws"), filepath.Join(dir, "home"), filepath.Join(dir, "bin"), filepath.Join(dir, "pids")
	for _, d := range []string{ws, home, tbin} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(tbin, "npm"), []byte(hangingNPM), 0o755))
	// PIDS is the stand-in npm's, passed by name like any task variable
	// outside the allowlist.
	cmd, base := startBinary(t, ctx, build(t), ws, []string{"PATH=" + tbin + ":/usr/bin:/bin", "HOME=" + home, "PIDS=" + pidFile}, nil,
		"-pass-env", "PIDS")

	c := stream(t, ctx, base, "python")
	nextStatus(t, ctx, c, wire.StatusInstalling)
	var pids []int
	require.Eventually(t, func() bool {
		b, _ := os.ReadFile(pidFile)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			p, _ := strconv.Atoi(f)
			pids = append(pids, p)
		}
		return len(pids) == 2
	}, 20*time.Second, 5*time.Millisecond)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	_, _, err := c.Read(ctx)
	var ce websocket.CloseError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, websocket.StatusGoingAway, ce.Code)
	require.Empty(t, ce.Reason)
	require.NoError(t, cmd.Wait(), "exit 0 after task stop")
	for _, p := range pids {
		require.False(t, running(p), "installer process %d survived", p)
	}
	entries, _ := os.ReadDir(filepath.Join(home, ".kandev", "lsp-servers"))
	for _, e := range entries {
		require.Equal(t, ".locks", e.Name(), "nothing published or left half-made")
	}
}

// KANDEV_RELEASE_BASE_URL points release downloads at a mirror (here a
// loopback server), and the pinned checksums still decide: content that
// does not match is refused (4003, nothing installed). On a host whose
// asset has no pinned sum, nothing is downloaded at all.
func TestReleaseBaseURLFromEnv(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	var paths []string
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		zw := gzip.NewWriter(w)
		_, _ = zw.Write([]byte("#!/bin/sh\necho not the pinned release\n"))
		_ = zw.Close()
	}))
	defer mirror.Close()
	home := t.TempDir()
	_, base := launch(t, ctx, t.TempDir(), []string{"PATH=/usr/bin:/bin", "HOME=" + home, "KANDEV_RELEASE_BASE_URL=" + mirror.URL + "/mirror"})

	c := stream(t, ctx, base, "rust")
	nextStatus(t, ctx, c, wire.StatusInstalling)
	st := nextStatus(t, ctx, c, wire.StatusInstallFailed)
	_, _, err := c.Read(ctx)
	require.Equal(t, websocket.StatusCode(wire.CloseInstallFailed), websocket.CloseStatus(err))
	mu.Lock()
	defer mu.Unlock()
	if runtime.GOARCH == "amd64" {
		require.Equal(t, []string{"/mirror/rust-analyzer-x86_64-unknown-linux-gnu.gz"}, paths)
		require.Contains(t, st.Error, "checksum mismatch")
	} else {
		require.Empty(t, paths, "no pinned sum: nothing downloaded")
		require.Contains(t, st.Error, "no pinned checksum")
	}
	_, err = os.Stat(filepath.Join(home, ".kandev", "lsp-servers", "rust-analyzer", "rust-analyzer"))
	require.ErrorIs(t, err, os.ErrNotExist)
}
