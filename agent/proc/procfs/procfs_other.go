//go:build !linux

package procfs

import "errors"

// Supported reports whether this host has a process table to read.
const Supported = false

// Each has no process table to walk here: it calls nothing and reports
// false.
func Each(func(Proc) bool) bool { return false }

// Stat has no process table to read here.
func Stat(int) (Proc, error) { return Proc{}, errors.New("procfs: no /proc on this host") }
