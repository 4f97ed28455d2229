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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// The relay's own secrets never reach a language server. kandev-relay runs
// with a database password, a pgpass file, a cloud key and its browser
// token in its environment; the agent it starts for a local_pc session
// runs a server that writes its whole environment down. Through a real
// stream, that environment holds PATH, HOME and the one variable the
// operator passed (-agent-pass-env), and none of the secrets.
func TestSecretsDoNotReachLanguageServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the agent")
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "kandev-agent")
	build := exec.Command("go", "build", "-o", agent, "github.com/kandev/lsp/agent/cmd/kandev-agent")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	binDir, dump, ws, home := filepath.Join(dir, "bin"), filepath.Join(dir, "dump"), filepath.Join(dir, "ws"), filepath.Join(dir, "home")
	for _, d := range []string{binDir, dump, ws, home} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	// The "language server": its environment, written where the test
	// reads it (renamed into place whole), then an echo server.
	require.NoError(t, os.WriteFile(filepath.Join(binDir, "gopls"),
		[]byte("#!/bin/sh\nenv > \"$KANDEV_TEST_DUMP/env.tmp\" && mv \"$KANDEV_TEST_DUMP/env.tmp\" \"$KANDEV_TEST_DUMP/env\"\nexec cat\n"), 0o755))
	sessions := filepath.Join(dir, "sessions.json")
	require.NoError(t, os.WriteFile(sessions, []byte(`{"sessions":[{"id":"s","executor":"local_pc","workspace":`+
		jsonString(ws)+`}]}`), 0o600))

	env := []string{
		"PATH=" + binDir + ":/usr/bin:/bin", "HOME=" + home,
		"PGPASSWORD=pg-secret-1", "PGPASSFILE=/etc/kandev/pgpass-secret", "AWS_SECRET_ACCESS_KEY=aws-secret-1",
		"DATABASE_URL=postgres://u:db-secret-1@h/db", "KANDEV_RELAY_BROWSER_TOKEN=tok",
		"KANDEV_TEST_DUMP=" + dump,
	}
	s := start(t, filepath.Join(dir, "s.db"), env,
		"-sessions", sessions, "-agent-binary", agent, "-agent-pass-env", "KANDEV_TEST_DUMP")
	defer s.stop()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+wire.RelayStreamPrefix+"s?language=go",
		&websocket.DialOptions{HTTPHeader: bearer("tok")})
	require.NoError(t, err)
	defer b.CloseNow()
	for {
		_, msg, err := b.Read(ctx)
		require.NoError(t, err, "no ready frame; relay log:\n%s", s.log.String())
		var st wire.Status
		require.NoError(t, json.Unmarshal(msg, &st))
		if st.Status == wire.StatusReady {
			break
		}
	}
	// The server writes its environment as it starts; ready comes once it
	// runs. Wait for the file with the test's deadline.
	var got string
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(dump, "env"))
		got = string(b)
		return err == nil
	}, 30*time.Second, 20*time.Millisecond, "the server wrote its environment")

	for _, want := range []string{"PATH=", "HOME=" + home, "KANDEV_TEST_DUMP=" + dump} {
		assert.Contains(t, got, want)
	}
	for _, secret := range []string{"pg-secret-1", "pgpass-secret", "aws-secret-1", "db-secret-1", "PGPASSWORD", "PGPASSFILE",
		"AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "KANDEV_RELAY_BROWSER_TOKEN", "KANDEV_AGENT_TOKEN"} {
		assert.NotContains(t, got, secret, "the server's environment:\n%s", got)
	}
	require.NoError(t, b.Close(websocket.StatusNormalClosure, ""))
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
