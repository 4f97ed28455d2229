//go:build linux

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The limits reach the agent from the environment when no flag is given:
// KANDEV_AGENT_MAX_CONNECTIONS=1 refuses a second stream with 4005, and
// the variable is the agent's own — the language server's environment
// does not have it. A flag wins over its variable.
func TestLimitsFromEnvAndFlags(t *testing.T) {
	t.Parallel()
	agent := build(t)
	for name, c := range map[string]struct {
		args []string
		open int // streams that get ready before the cap refuses one
	}{
		"env":       {nil, 1},
		"flag wins": {[]string{"-max-connections", "2"}, 2},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			ws, bin := t.TempDir(), t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte("#!/bin/sh\nenv > server.env\nexec cat\n"), 0o755))
			_, base := startBinary(t, ctx, agent, ws, []string{"PATH=" + bin + ":/usr/bin:/bin", "KANDEV_AGENT_MAX_CONNECTIONS=1"}, nil, c.args...)
			dial := func() *websocket.Conn { return dialGo(t, ctx, base) }
			for range c.open {
				_, b, err := dial().Read(ctx)
				require.NoError(t, err)
				require.Contains(t, string(b), wire.StatusReady)
			}
			_, _, err := dial().Read(ctx)
			require.Equal(t, websocket.StatusCode(wire.CloseCapacity), websocket.CloseStatus(err))

			var env []byte
			require.Eventually(t, func() bool {
				env, err = os.ReadFile(filepath.Join(ws, "server.env"))
				return err == nil && len(env) > 0
			}, 10*time.Second, 5*time.Millisecond)
			require.NotContains(t, string(env), "KANDEV_AGENT_")
		})
	}
}

// A limit that does not parse, or is not positive, stops the agent at
// start rather than running with one nobody asked for.
func TestBadLimitRefusesToStart(t *testing.T) {
	t.Parallel()
	agent := build(t)
	for _, c := range []struct {
		args []string
		env  string
		want string
	}{
		{nil, "KANDEV_AGENT_PING_TIMEOUT=soon", "KANDEV_AGENT_PING_TIMEOUT"},
		{[]string{"-install-timeout", "0s"}, "", "-install-timeout must be positive"},
	} {
		cmd := exec.Command(agent, append([]string{"-addr", "127.0.0.1:0", "-workspace", t.TempDir()}, c.args...)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "KANDEV_AGENT_TOKEN=tok", c.env}
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee)
		require.Equal(t, 2, ee.ExitCode())
		require.Contains(t, string(out), c.want)
	}
}
