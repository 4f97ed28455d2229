package install

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrStalled: a download received no bytes for the stall timeout.
var ErrStalled = errors.New("download stalled")

// stallReader cancels a download that stops delivering bytes. It is the
// only time limit on a body: a slow but moving download of a large release
// on a poor link must finish, a dead one must not hold the install (and
// the browser watching it) forever.
type stallReader struct {
	r     io.Reader
	d     time.Duration
	timer *time.Timer
}

// newStallReader wraps r; when d passes without a byte read, cancel is
// called with ErrStalled, which aborts the request and so the pending Read.
func newStallReader(r io.Reader, d time.Duration, cancel context.CancelCauseFunc) *stallReader {
	return &stallReader{r: r, d: d, timer: time.AfterFunc(d, func() { cancel(ErrStalled) })}
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(s.d)
	}
	return n, err
}

// stop disarms the guard once the body is done with.
func (s *stallReader) stop() { s.timer.Stop() }
