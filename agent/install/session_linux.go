package install

import "github.com/kandev/lsp/agent/proc/procfs"

// sessionMembers lists the running (non-zombie) processes whose session is
// sid. Zombies are left out on purpose: orphans are reparented to the
// container's init, which may never reap them, and they hold nothing.
func sessionMembers(sid int) []int {
	var pids []int
	for _, p := range procfs.Members(procfs.InSession(sid)) {
		pids = append(pids, p.Pid)
	}
	return pids
}

// groupRunning is covered by the session scan on Linux, which sees every
// group of the session and skips zombies.
func groupRunning(int) bool { return false }
