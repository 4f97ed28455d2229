//go:build linux

package bridgebench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kandev/lsp/agent/proc/procfs"
)

// built holds the binaries the table runs, built once per test binary.
type built struct{ agent, relay, minbridge string }

func build(t testing.TB) built {
	t.Helper()
	dir := t.TempDir()
	b := built{
		agent:     filepath.Join(dir, "kandev-agent"),
		relay:     filepath.Join(dir, "kandev-relay"),
		minbridge: filepath.Join(dir, "minbridge"),
	}
	for out, pkg := range map[string]string{
		b.agent: "./agent/cmd/kandev-agent", b.relay: "./relay/cmd/kandev-relay", b.minbridge: "./tools/bridgebench/minbridge",
	} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir = filepath.Join("..", "..")
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	// Another build of the agent, to compare before and after a change.
	if a := os.Getenv("KANDEV_BENCH_AGENT"); a != "" {
		b.agent = a
	}
	return b
}

// server is one program of the table running in its own process.
type server struct {
	url   string // http://HOST:PORT
	cmd   *exec.Cmd
	spare *bool // keepsSpare's answer, once known
	// claimed is the spare idle last waited for, which the stream after it
	// took: a claimed spare keeps its command line, so only its pid tells
	// it from the next one, and while it runs the teardown is not over.
	claimed int
}

// start runs argv and waits for its "listening on URL" line.
func start(t testing.TB, env []string, argv ...string) *server {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	lines := bufio.NewReader(out)
	first := make(chan string, 1)
	go func() {
		line, _ := lines.ReadString('\n')
		first <- line
		_, _ = io.Copy(io.Discard, lines)
	}()
	select {
	case line := <-first:
		raw, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if u, err := url.Parse(raw); !ok || err != nil || u.Host == "" {
			t.Fatalf("%s printed %q", argv[0], line)
		}
		return &server{url: raw, cmd: cmd}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start", argv[0])
	}
	return nil
}

// idle waits until the previous stream's teardown is over, so it does not
// overlap the next measurement: the server has no child left but, for an
// agent that keeps one, its spare reaper shim, which is there again as
// between two streams a person opens.
func (s *server) idle(t testing.TB, spare bool) {
	t.Helper()
	spare = spare && s.keepsSpare()
	pid := s.cmd.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for {
		spares, others, next := 0, 0, 0
		for _, c := range procfs.Members(func(p procfs.Proc) bool { return p.PPid == pid }) {
			if c.Pid != s.claimed && isSpare(c.Pid) {
				if age(c.Pid) >= spareSettle {
					spares++
					next = c.Pid
				}
			} else {
				others++
			}
		}
		if others == 0 && (!spare || spares == 1) {
			s.claimed = next
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d: %d children, %d spare shims", pid, others, spares)
		}
		time.Sleep(time.Millisecond)
	}
}

// keepsSpare reports whether the server (an agent) keeps a spare reaper
// shim: one shows up within a few seconds of its start. Builds from before
// the spare keep none.
func (s *server) keepsSpare() bool {
	if s.spare == nil {
		v := false
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && !v; time.Sleep(5 * time.Millisecond) {
			v = len(procfs.Members(func(p procfs.Proc) bool { return p.PPid == s.cmd.Process.Pid && isSpare(p.Pid) })) > 0
		}
		s.spare = &v
	}
	return *s.spare
}

// spareSettle is how long a spare shim has to have been running to count
// as ready: its runtime has started and it waits for a spawn. Between two
// streams a person opens it has had far longer.
const spareSettle = 100 * time.Millisecond

// age is how long pid has been running, to the kernel's clock tick.
func age(pid int) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	up, err2 := os.ReadFile("/proc/uptime")
	if err != nil || err2 != nil {
		return 0
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	ticks, _ := strconv.ParseFloat(f[19], 64) // starttime, field 22
	secs, _ := strconv.ParseFloat(strings.Fields(string(up))[0], 64)
	return time.Duration((secs - ticks/100) * float64(time.Second)) // USER_HZ is 100 on Linux
}

// isSpare reports whether pid is a spare reaper shim (agent/proc).
func isSpare(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.HasPrefix(b, []byte("kandev-lsp-reaper\x00spare\x00"))
}

// paths starts the echo server's three bridges: the minimal bridge, the
// agent, and the relay in front of that agent. The echo server is `cat`
// under the name gopls, so the agent finds it as it finds gopls.
type paths struct {
	echo      string // the echo server's path
	minbridge *server
	agent     *server
	relay     *server
	token     string
}

func startPaths(t testing.TB, b built) *paths {
	t.Helper()
	dir := t.TempDir()
	bin, ws, home := filepath.Join(dir, "bin"), filepath.Join(dir, "workspace"), filepath.Join(dir, "home")
	for _, d := range []string{bin, ws, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Fatal(err)
	}
	echo := filepath.Join(bin, "gopls")
	if err := os.Symlink(cat, echo); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home}
	p := &paths{echo: echo, token: "bench-token"}
	p.minbridge = start(t, env, b.minbridge, "-addr", "127.0.0.1:0", echo)
	p.agent = start(t, append(env, "KANDEV_AGENT_TOKEN="+p.token), b.agent, "-addr", "127.0.0.1:0", "-workspace", ws)

	sessions := filepath.Join(dir, "sessions.json")
	doc, _ := json.Marshal(map[string]any{"sessions": []any{map[string]any{
		"id": "bench", "executor": "local_pc", "workspace": ws,
		"agent": map[string]string{"url": p.agent.url, "token": p.token},
	}}})
	if err := os.WriteFile(sessions, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	p.relay = start(t, env, b.relay, "-addr", "127.0.0.1:0", "-sessions", sessions,
		"-db", filepath.Join(dir, "settings.db"), "-insecure-no-browser-auth")
	return p
}

func wsURL(httpURL, path string) string {
	return "ws" + strings.TrimPrefix(httpURL, "http") + path
}
