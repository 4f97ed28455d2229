package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
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

	baseline := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
		}
		if n := runtime.NumGoroutine(); n > baseline {
			fmt.Fprintf(os.Stderr, "goroutine leak: %d running, %d at start\n", n, baseline)
			_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
			code = 1
		}
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
