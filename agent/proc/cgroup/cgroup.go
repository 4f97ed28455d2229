// Package cgroup gives each language server a cgroup v2 of its own where
// the host delegates one to the agent, so the server's whole tree can be
// ended with cgroup.kill.
//
// A process group or a session can be left: a descendant that calls
// setsid is in neither any more, and signals to the group miss it. A
// cgroup cannot be left without write access to another cgroup's
// cgroup.procs, and a process is born into it (clone3 CLONE_INTO_CGROUP),
// so even a child forked at once is inside. Writing "1" to cgroup.kill
// SIGKILLs every member in one step, new forks included.
//
// A cgroup is available when the agent's own cgroup is on a cgroup2 mount,
// has cgroup.kill (Linux 5.14+) and lets the agent create a child there —
// a "delegated" subtree: a root agent, a systemd unit with Delegate=yes, a
// user session's own scope, a container with a writable cgroup mount.
// Elsewhere (cgroup v1 only, a read-only mount, macOS) Available reports
// why not and callers keep process-group reaping.
package cgroup

import "errors"

// ErrUnavailable: no delegated cgroup v2 subtree for the agent.
var ErrUnavailable = errors.New("cgroup: no delegated cgroup v2")
