//go:build !unix

package library

import "testing"

// mkfifo skips where the system has no named pipes in the file tree.
func mkfifo(t *testing.T, _ string) {
	t.Skip("no named pipes on this system")
}
