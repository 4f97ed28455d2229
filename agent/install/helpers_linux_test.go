package install

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// writeScript writes an executable shell script.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755))
	return p
}

// waitFile waits until a file exists with content, and returns it.
func waitFile(t *testing.T, p string) string {
	t.Helper()
	var s string
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(p)
		s = string(b)
		return err == nil && strings.HasSuffix(s, "\n")
	}, 10*time.Second, 5*time.Millisecond, "waiting for %s", p)
	return strings.TrimSpace(s)
}

// requireGone asserts that none of the pids (one per line) is running.
func requireGone(t *testing.T, pids string) {
	t.Helper()
	for _, f := range strings.Fields(pids) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		require.False(t, running(pid), "process %d survived", pid)
	}
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i >= 0 && len(stat) > i+2 && stat[i+2] != 'Z'
}

// shPath is a task PATH holding the basic tools fake installers use.
const shPath = "/usr/local/bin:/usr/bin:/bin"

// readOr returns a file's content, "" if it cannot be read.
func readOr(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}
