package framing

import "runtime"

// totalAlloc returns the bytes allocated so far by the whole program.
func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
