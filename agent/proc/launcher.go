package proc

import (
	"errors"
	"io"
	"sync"
	"time"
)

// A Launcher starts processes as Start does, but keeps one reaper shim
// started ahead of need (a spare) and starts each server in it, so the
// shim's own start — executing the agent binary again and initialising its
// runtime, the larger part of a stream's set-up — is paid before a stream
// arrives rather than while it waits. The spare is in its own process
// group and cgroup from birth, exactly as a shim started by Start, so the
// reaping guarantees are the same; it is replaced in the background a
// moment after each use (RefillDelay).
//
// A Launcher whose spare cannot be had (none yet, one that died, a host
// without a reaper shim) starts afresh, as Start. Close releases the spare.
type Launcher struct {
	stderr io.Writer
	delay  time.Duration // RefillDelay, or a test's

	mu      sync.Mutex
	spare   *spare
	later   *time.Timer // the refill after a use, until it starts
	filling bool        // a spare is being started
	closed  bool
	fills   sync.WaitGroup
}

// RefillDelay is how long after a use the next spare starts. Starting a
// shim takes about as much CPU as the stream set-up it just served
// (executing the agent binary, initialising its runtime); started at once
// it competes with the server's own start and its initialize on a small
// task host, and the set-up a spare was kept for is slower (the bridge
// table's set-up rows show it; docs/performance.md). A second stream
// within that moment starts its shim afresh, as one that comes before a
// refill is done always has.
const RefillDelay = 100 * time.Millisecond

// NewLauncher returns a Launcher whose servers' stderr goes to stderr (nil
// discards it, as Command.Stderr) and starts its first spare.
func NewLauncher(stderr io.Writer) *Launcher {
	l := &Launcher{stderr: stderr, delay: RefillDelay}
	l.refill()
	return l
}

// Start starts c as Start does, in the spare when there is one. c.Stderr
// is ignored: the Launcher's stderr takes its place, since a spare's stdio
// is fixed when it starts.
func (l *Launcher) Start(c Command) (*Process, error) {
	c.Stderr = l.stderr
	l.mu.Lock()
	s := l.spare
	l.spare = nil
	l.mu.Unlock()
	defer l.refillLater()
	if s != nil {
		p, err := s.claim(c)
		if !errors.Is(err, errSpareGone) {
			return p, err
		}
	}
	return Start(c)
}

// refillLater starts a new spare after l.delay, unless one is there or
// coming, or the Launcher is closed.
func (l *Launcher) refillLater() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.spare != nil || l.filling || l.later != nil {
		return
	}
	l.later = time.AfterFunc(l.delay, func() {
		l.mu.Lock()
		l.later = nil
		l.mu.Unlock()
		l.refill()
	})
}

// refill starts a new spare in the background unless one is there or
// coming, or the Launcher is closed.
func (l *Launcher) refill() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.spare != nil || l.filling {
		return
	}
	l.filling = true
	l.fills.Go(func() {
		s, err := newSpare(l.stderr)
		l.mu.Lock()
		l.filling = false
		closed := l.closed
		if err == nil && !closed {
			l.spare = s
		}
		l.mu.Unlock()
		if err == nil && closed {
			s.discard()
		}
		// An error leaves no spare: the next Start starts afresh and
		// tries again afterwards.
	})
}

// Close releases the spare; later Starts start afresh. It returns once no
// spare process of this Launcher is left.
func (l *Launcher) Close() {
	l.mu.Lock()
	l.closed = true
	s := l.spare
	l.spare = nil
	if l.later != nil {
		l.later.Stop() // one already firing finds l closed
		l.later = nil
	}
	l.mu.Unlock()
	l.fills.Wait()
	if s != nil {
		s.discard()
	}
}
