package relay

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// TestMain fails the run if goroutines outlive the tests: every bridge,
// pump, fake-agent loop and server goroutine must end once its test has
// cleaned up.
func TestMain(m *testing.M) {
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
	os.Exit(code)
}
