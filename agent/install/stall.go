package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrStalled: an install made no progress for the stall timeout — a
// download received no bytes, or npm or go printed nothing.
var ErrStalled = errors.New("install stalled")

// ErrTimeout: an install did not finish within the overall limit.
var ErrTimeout = errors.New("install timed out")

// stallGuard calls fire once d passes without progress.
type stallGuard struct {
	d     time.Duration
	timer *time.Timer
}

func newStallGuard(d time.Duration, fire func()) stallGuard {
	return stallGuard{d: d, timer: time.AfterFunc(d, fire)}
}

// progress restarts the wait.
func (g stallGuard) progress() { g.timer.Reset(g.d) }

// stop disarms the guard once the work is done with.
func (g stallGuard) stop() { g.timer.Stop() }

// stallReader cancels a download that stops delivering bytes: a slow but
// moving download of a large release on a poor link must finish (only the
// overall install limit, minutes long, bounds it), a dead one must not
// hold the install (and the browser watching it) for that long.
type stallReader struct {
	stallGuard
	r io.Reader
}

// newStallReader wraps r; when d passes without a byte read, cancel is
// called with ErrStalled, which aborts the request and so the pending Read.
func newStallReader(r io.Reader, d time.Duration, cancel context.CancelCauseFunc) *stallReader {
	return &stallReader{r: r, stallGuard: newStallGuard(d, func() {
		cancel(fmt.Errorf("%w: no data for %s", ErrStalled, d))
	})}
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.progress()
	}
	return n, err
}

// stallWriter is the same guard for an installer's output: npm (at
// loglevel http, one line per package fetched) and go install (-v, one
// line per package built) print as they make progress, so silence for
// the stall timeout means a hung registry, proxy or toolchain.
type stallWriter struct {
	stallGuard
	w io.Writer
}

// newStallWriter wraps w; when d passes without a write, cancel is called
// with ErrStalled, which ends the installer's tree.
func newStallWriter(w io.Writer, d time.Duration, cancel context.CancelCauseFunc) *stallWriter {
	return &stallWriter{w: w, stallGuard: newStallGuard(d, func() {
		cancel(fmt.Errorf("%w: no output for %s", ErrStalled, d))
	})}
}

func (s *stallWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		s.progress()
	}
	return s.w.Write(p)
}
