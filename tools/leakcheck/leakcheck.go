// Package leakcheck fails a test binary whose goroutines outlive its
// tests: every bridge, pump, fake peer and process watcher a test starts
// must end once the test has cleaned up.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// Run runs m and returns its exit code, 1 when the tests passed but more
// goroutines run than before them after 10 s of waiting for them to end;
// their stacks go to stderr. Call it from TestMain.
func Run(m *testing.M) int {
	baseline := runtime.NumGoroutine()
	code := m.Run()
	if code != 0 {
		return code
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}
	if n := runtime.NumGoroutine(); n > baseline {
		fmt.Fprintf(os.Stderr, "goroutine leak: %d running, %d at start\n", n, baseline)
		_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
		return 1
	}
	return 0
}
