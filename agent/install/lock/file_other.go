//go:build !unix && !windows

package lock

import "os"

// Hosts without a file-lock call (plan9, wasip1) get no cross-process
// exclusion; Keyed still serialises installs within the agent. No task host
// Kandev supports is among them.
func tryLock(*os.File) error { return nil }

func unlock(*os.File) error { return nil }
