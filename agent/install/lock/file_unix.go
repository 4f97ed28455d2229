//go:build unix

package lock

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an flock without waiting. flock locks belong to the open
// file description, so two opens of the same file conflict even within one
// process, just as two agents do.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errBusy
	}
	return err
}

func unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
