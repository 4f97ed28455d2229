package main

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
)

// agentBinary is the kandev-agent the relay runs for local_pc sessions
// that name no agent URL: -agent-binary, else the one findAgent finds.
// Without one such sessions close with 4002, which the log says at start
// rather than at the first stream.
func agentBinary(flag string, logger *slog.Logger) string {
	bin := flag
	if bin == "" {
		bin = findAgent()
	}
	if bin == "" {
		logger.Warn("no kandev-agent found: local_pc sessions without agent.url will close with 4002")
	}
	return bin
}

// findAgent returns kandev-agent beside this executable, else on PATH, else "".
func findAgent() string {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "kandev-agent")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath("kandev-agent"); err == nil {
		return p
	}
	return ""
}
