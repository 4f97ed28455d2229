// Package procfs reads the process table: which processes exist, in which
// process group and session, and whether they still run. It is the one
// /proc walker of the agent; the owned-process code (agent/proc) finds a
// server's group members with it, the installer runner (agent/install) its
// session members.
//
// Only Linux has /proc. Elsewhere Supported is false and Each reports no
// process, so callers keep a fallback (kill(-pgid, 0)) for those hosts.
package procfs

// Proc is one process as its stat line describes it.
type Proc struct {
	Pid, PPid, Pgrp, Session int
	// State is the stat state letter: R, S, D, T, Z (zombie), X (dead)...
	State byte
}

// Running reports whether the process has not exited. A zombie has: it
// holds no resources and runs nothing, it only waits for its parent (or
// for an init that may never reap it) to collect its status.
func (p Proc) Running() bool { return p.State != 'Z' && p.State != 'X' }

// Members returns the running processes for which match holds, in /proc
// order. It returns nil where there is no process table.
func Members(match func(Proc) bool) []Proc {
	var out []Proc
	Each(func(p Proc) bool {
		if p.Running() && match(p) {
			out = append(out, p)
		}
		return true
	})
	return out
}

// InGroup matches the members of process group pgid.
func InGroup(pgid int) func(Proc) bool { return func(p Proc) bool { return p.Pgrp == pgid } }

// InSession matches the members of session sid.
func InSession(sid int) func(Proc) bool { return func(p Proc) bool { return p.Session == sid } }
