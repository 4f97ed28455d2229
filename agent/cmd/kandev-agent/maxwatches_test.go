//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The watch cap reaches the agent's workspace watcher from
// KANDEV_AGENT_MAX_WATCHES, and -max-watches wins over it: with a workspace
// of eight directories (the root and seven below), a stream's ready comes
// after the walk, and the agent's log says the cap was reached with
// exactly that many directories watched; without either, the default cap
// is far away and nothing is said.
func TestMaxWatchesReachesTheWatcher(t *testing.T) {
	t.Parallel()
	agent := build(t)
	for name, c := range map[string]struct {
		args    []string
		env     string
		watched string // "" for no cap line
	}{
		"env":       {nil, "KANDEV_AGENT_MAX_WATCHES=2", "watched=2"},
		"flag wins": {[]string{"-max-watches", "5"}, "KANDEV_AGENT_MAX_WATCHES=2", "watched=5"},
		"default":   {nil, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			ws, bin := t.TempDir(), t.TempDir()
			for _, d := range []string{"a", "b", "c", "d", "e", "f", "g"} {
				require.NoError(t, os.Mkdir(filepath.Join(ws, d), 0o755))
			}
			require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"), []byte("#!/bin/sh\nexec cat\n"), 0o755))
			var stderr bytes.Buffer
			cmd, base := startBinary(t, ctx, agent, ws, []string{"PATH=" + bin + ":/usr/bin:/bin", c.env}, &stderr, c.args...)
			conn := dialGo(t, ctx, base)
			_, b, err := conn.Read(ctx)
			require.NoError(t, err)
			require.Contains(t, string(b), wire.StatusReady, "ready: the walk is done")

			// Stop the agent so its whole log has been read.
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			_, _, err = conn.Read(ctx)
			require.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err))
			require.NoError(t, cmd.Wait())
			log := stderr.String()
			if c.watched == "" {
				require.NotContains(t, log, "watch limit reached")
				return
			}
			var capLine string
			for _, l := range strings.Split(log, "\n") {
				if strings.Contains(l, "workspace watch limit reached") {
					require.Empty(t, capLine, "logged once:\n%s", log)
					capLine = l
				}
			}
			require.NotEmpty(t, capLine, log)
			require.Contains(t, capLine, " "+c.watched+" ")
			require.Contains(t, capLine, "-max-watches")
		})
	}
}
