//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/agent/taskenv"
	"github.com/kandev/lsp/internal/wire"
)

// The task host's backend secrets are in the agent's environment; the
// language server a stream starts sees none of them, only the allowlist
// (PATH, HOME, ...) and the variable the operator passes by name.
func TestServerGetsAllowlistOnly(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ws, bin, out := t.TempDir(), t.TempDir(), t.TempDir()
	dump := filepath.Join(out, "env")
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gopls"),
		[]byte("#!/bin/sh\nenv > "+dump+".tmp && mv "+dump+".tmp "+dump+"\nexec cat\n"), 0o755))
	home := t.TempDir()
	_, base := startBinary(t, ctx, build(t), ws, []string{
		"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home,
		"PGPASSWORD=pg-secret", "PGPASSFILE=/secrets/.pgpass", "AWS_SECRET_ACCESS_KEY=aws-secret",
		"DATABASE_URL=postgres://u:p@db/app", "MY_TASK_VAR=wanted", "OTHER_TASK_VAR=unwanted",
	}, nil, "-pass-env", "MY_TASK_VAR")

	c := dialGo(t, ctx, base)
	nextStatus(t, ctx, c, wire.StatusReady)
	var got map[string]string
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(dump)
		if err != nil {
			return false
		}
		got = taskenv.Parse(strings.Split(string(b), "\n"))
		return true
	}, 10*time.Second, 5*time.Millisecond)
	for _, secret := range []string{"PGPASSWORD", "PGPASSFILE", "AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "OTHER_TASK_VAR", tokenEnv} {
		require.NotContains(t, got, secret)
	}
	require.Equal(t, bin+":/usr/bin:/bin", got["PATH"])
	require.Equal(t, home, got["HOME"])
	require.Equal(t, "wanted", got["MY_TASK_VAR"])
}
