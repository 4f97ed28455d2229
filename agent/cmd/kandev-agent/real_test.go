//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// TestRealAutoInstallThroughAgent is the whole path with the real servers:
// the agent binary, a fresh task HOME, a stream with autoInstall=true that
// npm-installs the pinned typescript-language-server + typescript, pyright
// and — named by server=tsgo — TypeScript 7's tsgo from the registry
// (installing, installed, ready), and a real LSP initialize answered
// through the bridge by each. It needs the network, so it runs only with
// KANDEV_REAL_INSTALL=1.
func TestRealAutoInstallThroughAgent(t *testing.T) {
	if os.Getenv("KANDEV_REAL_INSTALL") != "1" {
		t.Skip("set KANDEV_REAL_INSTALL=1 to auto-install the real servers from the npm registry")
	}
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm on PATH")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ws, home := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "main.ts"), []byte("export const x: number = 1;\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "main.py"), []byte("x: int = 1\n"), 0o644))
	// The task is this machine with a fresh HOME: the machine's global
	// npmrc (CA file, proxy) and its proxy variables still apply, the
	// user's npmrc does not.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "KANDEV_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "PATH="+filepath.Dir(npm)+":"+os.Getenv("PATH"))
	_, base := launch(t, ctx, ws, env)
	for _, lang := range []string{"typescript", "python", "typescript&server=tsgo"} {
		t.Run(lang, func(t *testing.T) {
			start := time.Now()
			c := stream(t, ctx, base, lang)
			nextStatus(t, ctx, c, wire.StatusInstalling)
			_, b, err := c.Read(ctx)
			require.NoError(t, err)
			var st wire.Status
			require.NoError(t, json.Unmarshal(b, &st))
			require.Equal(t, wire.StatusInstalled, st.Status, st.Error)
			t.Logf("%s installed through the agent in %v", lang, time.Since(start).Round(time.Millisecond))
			ready := nextStatus(t, ctx, c, wire.StatusReady)
			realInitialize(t, ctx, c, ready.WorkspaceURI)
			require.NoError(t, c.Close(websocket.StatusNormalClosure, ""))
		})
	}
}

// realInitialize sends initialize and waits for its result, skipping what
// the server sends first (log messages, progress, its own requests).
func realInitialize(t *testing.T, ctx context.Context, c *websocket.Conn, rootURI string) {
	t.Helper()
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI, "capabilities": map[string]any{},
		"workspaceFolders": []map[string]any{{"uri": rootURI, "name": "ws"}},
	}})
	require.NoError(t, err)
	require.NoError(t, c.Write(ctx, websocket.MessageText, req))
	for {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				Capabilities map[string]any `json:"capabilities"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		require.NoError(t, json.Unmarshal(b, &msg), string(b))
		if msg.Method != "" || string(msg.ID) != "1" {
			continue
		}
		require.Empty(t, msg.Error, string(b))
		require.NotNil(t, msg.Result, string(b))
		require.NotEmpty(t, msg.Result.Capabilities, "a real server advertises capabilities")
		return
	}
}
