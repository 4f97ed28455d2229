//go:build linux

package soak

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Marked returns the processes whose environment holds key=value. Every
// process the soak starts, and everything those start (agents, language
// servers, their children), inherits the soak's marker, so this finds
// what is left over after a run however it was re-parented.
func Marked(key, value string) []int {
	want := []byte(key + "=" + value)
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue // gone, or not ours to read
		}
		if zombie(pid) {
			continue // exited; its parent has not reaped it yet
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command name's closing parenthesis.
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z'
}

// Stat is one process's resource use.
type Stat struct {
	FDs   int
	RSSKB int
}

// ReadStat reads pid's open descriptors and resident memory from /proc.
func ReadStat(pid int) (Stat, error) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return Stat{}, errNoProc
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Stat{}, errNoProc
	}
	s := Stat{FDs: len(fds)}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			s.RSSKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return s, nil
}
