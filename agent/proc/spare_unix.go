//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// spare is a reaper shim started ahead of need (see Launcher): in its own
// process group and cgroup, with the server's stdio pipes already made,
// waiting on its command pipe for what to start.
//
// Starting a shim is most of what a stream's set-up costs: the agent
// binary is executed again, and the Go runtime and every package of the
// agent initialise before the shim's code runs (about 2 ms of a 4 ms
// set-up, measured). A spare pays that before the stream arrives.
type spare struct {
	cmd           *exec.Cmd
	own           *owner
	stdin, stdout *os.File // the agent's ends of the server's stdio
	commands      *os.File // the write end of the shim's fd 5
}

// newSpare starts a spare shim whose server's stderr goes to stderr.
func newSpare(stderr io.Writer) (_ *spare, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("proc: spare reaper shim: %w", err)
		}
	}()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	growPipe(inW)
	growPipe(outW)
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	own, err := newOwner()
	if err != nil {
		closeAll(inR, inW, outR, outW, cmdR, cmdW)
		return nil, err
	}
	own.childEnds = append(own.childEnds, cmdR) // fd 5
	build := func() *exec.Cmd {
		cmd := own.shim(spareArg, own.cgroupArg())
		// The spare's own directory and environment are not the task's:
		// the spawn names the server's.
		cmd.Dir = "/"
		cmd.Env = []string{}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
		cmd.WaitDelay = time.Second
		return cmd
	}
	cmd := build()
	err = cmd.Start()
	if err != nil && own.dropCgroup() {
		cmd = build()
		err = cmd.Start()
	}
	// The shim holds its own copies now.
	closeAll(inR, outW)
	closeAll(own.childEnds...)
	own.childEnds = nil
	if err != nil {
		own.release()
		closeAll(inW, outR, cmdW)
		return nil, err
	}
	own.pgid = cmd.Process.Pid
	return &spare{cmd: cmd, own: own, stdin: inW, stdout: outR, commands: cmdW}, nil
}

// claim starts c in the spare. A spare that cannot be told (it died) is
// discarded and errSpareGone returned, so the caller starts c afresh; any
// other error is c's own (its executable could not be run).
func (s *spare) claim(c Command) (*Process, error) {
	msg, err := spawn{
		grace: orDefault(c.KillGrace, DefaultKillGrace), dir: c.Dir,
		argv: append([]string{c.Path}, c.Args...), env: c.Env,
	}.encode()
	if err == nil {
		_ = s.commands.SetWriteDeadline(time.Now().Add(startReportTimeout))
		_, err = s.commands.Write(msg)
		if err != nil {
			err = fmt.Errorf("%w: %w", errSpareGone, err)
		}
	}
	s.commands.Close()
	if err == nil {
		err = s.own.started(s.cmd)
	}
	if err != nil {
		s.discard()
		return nil, fmt.Errorf("proc: start %s: %w", c.Path, err)
	}
	return newProcess(c, s.cmd, s.own, s.stdin, s.stdout), nil
}

// errSpareGone: the spare shim could not be told what to start.
var errSpareGone = errors.New("spare reaper shim gone")

// discard kills the spare, reaps it and removes its cgroup.
func (s *spare) discard() {
	s.commands.Close()
	s.own.kill()
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.own.release()
	closeAll(s.stdin, s.stdout)
}

// spawn is what a spare shim is told to start: the server's argv, working
// directory and complete environment, and the kill grace for when the
// agent dies. On the wire its fields are NUL-separated, which no argument
// or environment entry can contain:
//
//	GRACE \0 DIR \0 ARGC \0 ARGV... \0 ENV...
type spawn struct {
	grace     time.Duration
	dir       string
	argv, env []string
}

func (sp spawn) encode() ([]byte, error) {
	fields := append([]string{sp.grace.String(), sp.dir, strconv.Itoa(len(sp.argv))}, sp.argv...)
	fields = append(fields, sp.env...)
	for _, f := range fields {
		if strings.IndexByte(f, 0) >= 0 {
			return nil, errors.New("NUL byte in an argument or the environment")
		}
	}
	return []byte(strings.Join(fields, "\x00")), nil
}

func decodeSpawn(b []byte) (spawn, error) {
	fields := strings.Split(string(b), "\x00")
	if len(fields) < 4 {
		return spawn{}, errors.New("reaper shim: short spawn")
	}
	grace, err := time.ParseDuration(fields[0])
	if err != nil {
		return spawn{}, fmt.Errorf("reaper shim: spawn grace: %w", err)
	}
	argc, err := strconv.Atoi(fields[2])
	if err != nil || argc < 1 || argc > len(fields)-3 {
		return spawn{}, errors.New("reaper shim: spawn argv")
	}
	rest := fields[3:]
	// Never nil: a nil environment would make the server inherit the
	// spare's own.
	env := append([]string{}, rest[argc:]...)
	return spawn{grace: grace, dir: fields[1], argv: rest[:argc], env: env}, nil
}
