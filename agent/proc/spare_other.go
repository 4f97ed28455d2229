//go:build !unix

package proc

import (
	"errors"
	"io"
)

// spare exists only where servers run under a reaper shim (Unix): here a
// Launcher always starts afresh, which costs no extra process anyway.
type spare struct{}

var errSpareGone = errors.New("spare reaper shim gone")

func newSpare(io.Writer) (*spare, error) { return nil, errors.ErrUnsupported }

func (*spare) claim(Command) (*Process, error) { return nil, errSpareGone }

func (*spare) discard() {}
