package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// DefaultPoll is how often Acquire retries a lock another process holds.
// Installs take seconds to minutes, so a fraction of a second costs
// nothing noticeable.
const DefaultPoll = 100 * time.Millisecond

// errBusy: another process holds the lock (platform files map to it).
var errBusy = errors.New("lock: busy")

// File is an exclusive lock on a file, held across processes. The operating
// system releases it when the holder exits, so a crashed agent never leaves
// a stale lock behind; the file itself stays (it is empty and reused).
type File struct {
	f *os.File
}

// Acquire creates path (and its directory) if needed and locks it,
// retrying every poll until it succeeds or ctx ends. poll <= 0 means
// DefaultPoll.
func Acquire(ctx context.Context, path string, poll time.Duration) (*File, error) {
	if poll <= 0 {
		poll = DefaultPoll
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The OS offers no lock call that waits on a context; polling a
	// non-blocking attempt is what lets a cancelled install stop waiting.
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		err := tryLock(f)
		if err == nil {
			return &File{f: f}, nil
		}
		if !errors.Is(err, errBusy) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// Release unlocks and closes the file.
func (l *File) Release() error {
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
