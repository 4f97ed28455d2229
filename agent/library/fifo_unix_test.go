//go:build unix

package library

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// mkfifo makes a named pipe: a path that is not a regular file and would
// block a reader that opened it.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(path, 0o644))
}
