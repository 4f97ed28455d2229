package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kandev/lsp/tools/leakcheck"
)

// TestMain writes the stand-in docker CLI's script (see stubDocker), then
// fails the run if goroutines outlive the tests: every process watcher,
// `docker wait` and start must end once its test has cleaned up.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "executor-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stubDockerPath = filepath.Join(dir, "docker-stub")
	if err := os.WriteFile(stubDockerPath, []byte(stubDockerScript), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	code := leakcheck.Run(m)
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
