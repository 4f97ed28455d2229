//go:build linux

package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/e2e/fakelsp/fakelsptest"
	"github.com/kandev/lsp/e2e/fakelsp/script"
	"github.com/kandev/lsp/internal/wire"
)

// agentProc is a running kandev-agent binary with the fake as gopls.
type agentProc struct {
	cmd    *exec.Cmd
	base   string // http://HOST:PORT
	record string
}

func startAgent(t *testing.T, ctx context.Context, s script.Script) *agentProc {
	t.Helper()
	ws, bin := t.TempDir(), t.TempDir()
	fakelsptest.Install(t, bin, "gopls")
	a := &agentProc{record: filepath.Join(t.TempDir(), "record.jsonl")}
	s.RecordFile = a.record
	require.NoError(t, script.Write(ws, s))
	a.cmd, a.base = startBinary(t, ctx, build(t), ws, []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + ws}, nil)
	return a
}

func (a *agentProc) dial(t *testing.T, ctx context.Context) *websocket.Conn {
	t.Helper()
	u := "ws" + strings.TrimPrefix(a.base, "http") + wire.AgentStreamPath + "?language=go"
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	require.NoError(t, err)
	t.Cleanup(func() { c.CloseNow() })
	_, _, err = c.Read(ctx) // ready
	require.NoError(t, err)
	return c
}

// pids waits until the fake and its child have both recorded their start.
func (a *agentProc) pids(t *testing.T, ctx context.Context) (server, child, pgid int) {
	t.Helper()
	for {
		rs, _ := script.ReadRecords(a.record)
		for _, r := range rs {
			switch {
			case r.Kind == "event" && r.Method == "start":
				server, pgid = r.Pid, r.Pgid
			case r.Kind == "event" && r.Method == "child":
				child = r.Pid
			}
		}
		if server != 0 && child != 0 {
			return server, child, pgid
		}
		select {
		case <-ctx.Done():
			t.Fatal("the fake never started")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && len(b) > i+2 && b[i+2] != 'Z'
}

// groupMembers counts live processes in a process group.
func groupMembers(pgid int) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid && running(pid) {
			n++
		}
	}
	return n
}

// TestAgentDeathReapsTree: SIGKILL gives the agent no chance to stop
// anything, yet the server and its TERM-ignoring child are gone within a
// deadline — the reaper shim sees its lifeline close and kills the group.
func TestAgentDeathReapsTree(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := startAgent(t, ctx, script.Script{SpawnChildIgnoringTERM: true})
	a.dial(t, ctx)
	server, child, pgid := a.pids(t, ctx)
	require.Equal(t, 3, groupMembers(pgid), "shim, server and child share the group")

	require.NoError(t, a.cmd.Process.Signal(syscall.SIGKILL))
	_ = a.cmd.Wait()
	// The shim's grace is the agent's kill grace (2 s) before SIGKILL.
	deadline := time.Now().Add(15 * time.Second)
	for running(server) || running(child) || groupMembers(pgid) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("left behind: server %v child %v group %d", running(server), running(child), groupMembers(pgid))
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestStopRouteExits: the relay's stop call ends the binary like SIGTERM:
// 200, the stream closed with 1001, the tree reaped, exit 0.
func TestStopRouteExits(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := startAgent(t, ctx, script.Script{SpawnChildIgnoringTERM: true})
	c := a.dial(t, ctx)
	server, child, _ := a.pids(t, ctx)

	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.base+wire.AgentTaskStopPath, nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, _, err = c.Read(ctx)
	require.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err))
	require.NoError(t, a.cmd.Wait(), "exit 0 after the stop route")
	require.False(t, running(server))
	require.False(t, running(child))
}

// spareShim waits for the agent's spare reaper shim (a shim started ahead
// of the next stream) and returns its pid and cgroup directory ("" without
// one). A claimed shim keeps the spare's command line and parent, so the
// spare is the one without a child: the claimed one runs a server.
func (a *agentProc) spareShim(t *testing.T, ctx context.Context) (pid int, cgroupDir string) {
	t.Helper()
	for {
		var shims []int
		parents := map[int]bool{}
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			p, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			parents[parent(p)] = true
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if strings.HasPrefix(string(cmdline), "kandev-lsp-reaper\x00spare\x00") && parent(p) == a.cmd.Process.Pid {
				shims = append(shims, p)
			}
		}
		for _, p := range shims {
			if parents[p] {
				continue
			}
			cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
			if f := strings.Split(string(cmdline), "\x00"); len(f) > 2 && f[2] != "-" {
				cgroupDir = f[2]
			}
			return p, cgroupDir
		}
		select {
		case <-ctx.Done():
			t.Fatal("no spare reaper shim")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func parent(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// The spare reaper shim the agent keeps for its next stream never outlives
// it: task stop releases it before the agent exits, and an agent killed
// outright takes it along (it sees its lifeline close), its cgroup removed
// either way.
func TestSpareShimEndsWithAgent(t *testing.T) {
	t.Parallel()
	for _, how := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(how.String(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			a := startAgent(t, ctx, script.Script{})
			a.dial(t, ctx) // a stream takes the first spare; a new one follows
			spare, dir := a.spareShim(t, ctx)

			require.NoError(t, a.cmd.Process.Signal(how))
			err := a.cmd.Wait()
			if how == syscall.SIGTERM {
				require.NoError(t, err)
				require.False(t, running(spare), "released before the agent exited")
			}
			deadline := time.Now().Add(10 * time.Second)
			for running(spare) {
				if time.Now().After(deadline) {
					t.Fatal("the spare shim outlived the agent")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if dir != "" {
				for {
					if _, err := os.Stat(dir); os.IsNotExist(err) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("cgroup %s left behind", dir)
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		})
	}
}
