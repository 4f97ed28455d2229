package relay

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kandev/lsp/tools/leakcheck"
)

// agentBin is the real kandev-agent, built once by TestMain for the tests
// that run it; agentBuildErr says why there is none.
var (
	agentBin      string
	agentBuildErr error
)

// TestMain builds the real agent, then fails the run if goroutines outlive
// the tests: every bridge, pump, fake-agent loop, server goroutine and
// agent-process watcher must end once its test has cleaned up.
func TestMain(m *testing.M) {
	flag.Parse() // for testing.Short
	dir, err := os.MkdirTemp("", "relay-test-agent-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	agentBin, agentBuildErr = buildAgent(dir)

	code := leakcheck.Run(m)
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// buildAgent runs `go build` for cmd/kandev-agent into dir. Skipped in
// -short runs (and the tests that need it skip).
func buildAgent(dir string) (string, error) {
	if testing.Short() {
		return "", nil
	}
	bin := filepath.Join(dir, "kandev-agent")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/kandev/lsp/agent/cmd/kandev-agent")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build kandev-agent: %v\n%s", err, out)
	}
	return bin, nil
}

// needAgent returns the real agent binary or ends the test.
func needAgent(t testing.TB) string {
	t.Helper()
	switch {
	case agentBuildErr != nil:
		t.Fatal(agentBuildErr)
	case agentBin == "":
		t.Skip("-short: the real agent is not built")
	}
	return agentBin
}

// envWithout returns env without the entries for names.
func envWithout(env []string, names ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, k)
	})
}

// syncBuffer collects output the relay's goroutines write (a started
// agent's, the log) while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
