//go:build linux

// Package soak runs the relay and the agent as real processes — several
// relay replicas on one PostgreSQL, agents with the scripted fake language
// server — and drives them the way a fleet of browsers does, to show what
// an operator would see: the global cap held, crashes reported, slots of a
// killed replica coming back, and nothing leaking (descriptors, goroutines,
// memory, processes). Run prints a table; tools/cmd/kandev-soak is its main.
//
// Its process helpers (Build, Start, Marked, Stat) are also what the
// replica tests of kandev-relay use.
package soak

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Binaries are the programs under test.
type Binaries struct {
	Relay, Agent, Fake string
}

// Build compiles kandev-relay, kandev-agent and the fake language server
// into dir (the Go build cache makes a rebuild cheap).
func Build(ctx context.Context, dir string) (Binaries, error) {
	b := Binaries{
		Relay: filepath.Join(dir, "kandev-relay"),
		Agent: filepath.Join(dir, "kandev-agent"),
		Fake:  filepath.Join(dir, "fakelsp"),
	}
	for out, pkg := range map[string]string{
		b.Relay: "github.com/kandev/lsp/relay/cmd/kandev-relay",
		b.Agent: "github.com/kandev/lsp/agent/cmd/kandev-agent",
		b.Fake:  "github.com/kandev/lsp/e2e/fakelsp",
	} {
		if msg, err := exec.CommandContext(ctx, "go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			return Binaries{}, fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	return b, nil
}

// startTimeout bounds the wait for a program's "listening on" line.
const startTimeout = 30 * time.Second

// Proc is a started relay or agent.
type Proc struct {
	// Name is for tables and errors.
	Name string
	// URL is the http:// base from the program's "listening on" line.
	URL string
	cmd *exec.Cmd
	out *tail
	// done is closed when the process has exited and been waited for.
	done chan struct{}
	err  error
}

// Start runs bin with args and env, and returns once it has printed its
// "listening on http://HOST:PORT" line. Its output is kept (the last part)
// for Output. The process is in its own process group, so a signal meant
// for the soak does not reach it first.
func Start(name, bin string, args, env []string) (*Proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Proc{Name: name, cmd: cmd, out: &tail{max: 64 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(stdout)
		first, _ := br.ReadString('\n')
		lines <- first
		_, _ = io.Copy(p.out, br) // keeps draining: a full pipe would block it
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	select {
	case first := <-lines:
		url, ok := strings.CutPrefix(strings.TrimSpace(first), "listening on ")
		if !ok {
			p.Kill()
			return nil, fmt.Errorf("%s: first line %q\n%s", name, first, p.Output())
		}
		p.URL = url
		return p, nil
	case <-time.After(startTimeout):
		p.Kill()
		return nil, fmt.Errorf("%s: not listening after %v\n%s", name, startTimeout, p.Output())
	}
}

// Pid is the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Output returns the last of what the process wrote.
func (p *Proc) Output() string { return p.out.String() }

// Stop sends SIGTERM and waits for the exit, then SIGKILLs the group
// after grace. It returns the exit error of a process that failed.
func (p *Proc) Stop(grace time.Duration) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err
	case <-time.After(grace):
		p.Kill()
		return fmt.Errorf("%s: still running %v after SIGTERM; killed", p.Name, grace)
	}
}

// Stacks ends the process with SIGQUIT, on which the Go runtime writes
// every goroutine's stack to stderr, and returns what it wrote from the
// signal on (within grace; SIGKILL after it).
func (p *Proc) Stacks(grace time.Duration) string {
	from := p.out.Len()
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
	case <-time.After(grace):
		p.Kill()
	}
	return p.out.Since(from)
}

// Kill sends SIGKILL to the process alone — not its group: what a dead
// replica leaves behind is what is under test — and waits for it.
func (p *Proc) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Exited reports whether the process has exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu    sync.Mutex
	max   int
	b     []byte
	total int // bytes ever written, of which b holds the last
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	t.total += len(p)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// Len is how many bytes were ever written.
func (t *tail) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Since returns what was written after the first from bytes, as far as
// the tail still holds it.
func (t *tail) Since(from int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	skip := from - (t.total - len(t.b))
	if skip < 0 {
		skip = 0
	}
	return string(t.b[skip:])
}

// errNoProc is returned for a process that is gone.
var errNoProc = errors.New("soak: no such process")

// Env returns os.Environ() without the named variables, plus extra.
func Env(drop []string, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			if k == d {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}
