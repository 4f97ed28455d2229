//go:build unix

package workspace

import "syscall"

// openNonblock makes opening a FIFO return at once instead of waiting for
// a writer; regular files ignore it.
const openNonblock = syscall.O_NONBLOCK
