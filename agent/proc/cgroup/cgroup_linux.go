package cgroup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// prefix names the groups the agent creates, so a person reading the
// hierarchy can tell whose they are.
const prefix = "kandev-lsp-"

var probe struct {
	once   sync.Once
	parent string
	err    error
}

// Available returns the directory in which the agent creates server
// groups — its own cgroup — or an error wrapping ErrUnavailable that says
// why there is none. It is worked out once per process.
func Available() (string, error) {
	probe.once.Do(func() { probe.parent, probe.err = findParent() })
	return probe.parent, probe.err
}

// findParent locates the agent's own cgroup v2 directory and checks that
// a group can be made in it.
func findParent() (string, error) {
	mountRoot, mountPoint, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	self, err := selfPath()
	if err != nil {
		return "", err
	}
	rel, ok := strings.CutPrefix(self, mountRoot)
	if !ok || strings.Contains(self, "..") {
		return "", fmt.Errorf("%w: own cgroup %s is outside the mounted tree %s", ErrUnavailable, self, mountRoot)
	}
	dir := filepath.Join(mountPoint, rel)
	p, err := os.MkdirTemp(dir, prefix+"probe-")
	if err != nil {
		return "", fmt.Errorf("%w: %s is not delegated to this user: %v", ErrUnavailable, dir, err)
	}
	defer syscall.Rmdir(p)
	// Checked on the new group: the root cgroup never has cgroup.kill.
	if _, err := os.Stat(filepath.Join(p, "cgroup.kill")); err != nil {
		return "", fmt.Errorf("%w: no cgroup.kill (Linux 5.14+)", ErrUnavailable)
	}
	sweep(dir, time.Now().Add(-staleAge))
	return dir, nil
}

// staleAge is how old an empty group must be to count as left behind. A
// live server's group holds its shim from a moment after it is made until
// it is removed, so only a group of an agent that died mid-stop is ever
// empty for long; the age keeps the sweep off a group another agent has
// only just made.
const staleAge = time.Minute

// sweep removes the empty server groups in dir made before cutoff: what an
// agent killed between ending a server and removing its group left. A
// group with members, or with groups of its own, cannot be removed and is
// left alone.
func sweep(dir string, cutoff time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if fi, err := e.Info(); err != nil || !fi.ModTime().Before(cutoff) || len(Pids(p)) > 0 {
			continue
		}
		_ = syscall.Rmdir(p)
	}
}

// cgroup2Mount finds the cgroup2 mount in /proc/self/mountinfo: the
// directory of the hierarchy it shows (root) and where (point). On a
// hybrid host it is the "unified" mount beside the v1 controllers.
func cgroup2Mount() (root, point string, err error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// id parent major:minor root point options [optional...] - type source super
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 1 || g[0] != "cgroup2" {
			continue
		}
		return unescape(f[3]), unescape(f[4]), nil
	}
	return "", "", fmt.Errorf("%w: no cgroup2 mount", ErrUnavailable)
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// selfPath is this process's cgroup v2 path, the "0::" line of
// /proc/self/cgroup.
func selfPath() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: not in a cgroup v2 hierarchy", ErrUnavailable)
}

// Group is one server's cgroup.
type Group struct {
	dir string
	fd  *os.File // the directory, for clone3's CLONE_INTO_CGROUP
}

// New creates an empty group in parent (Available's answer).
func New(parent string) (*Group, error) {
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	fd, err := os.Open(dir)
	if err != nil {
		_ = syscall.Rmdir(dir)
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	return &Group{dir: dir, fd: fd}, nil
}

// Dir is the group's directory.
func (g *Group) Dir() string { return g.dir }

// FD is the descriptor to start a process in the group with
// (syscall.SysProcAttr.CgroupFD).
func (g *Group) FD() int { return int(g.fd.Fd()) }

// Pids lists the group's members. Exited members are not listed, reaped
// or not: the kernel drops a task from cgroup.procs when it exits.
func (g *Group) Pids() []int { return Pids(g.dir) }

// Pids lists the members of the group at dir.
func Pids(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for f := range strings.FieldsSeq(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Signal sends sig to every member, wherever in the tree it sits and
// whatever session or group it moved to.
func (g *Group) Signal(sig syscall.Signal) { Signal(g.dir, sig) }

// Signal sends sig to every member of the group at dir.
func Signal(dir string, sig syscall.Signal) {
	for _, pid := range Pids(dir) {
		_ = syscall.Kill(pid, sig)
	}
}

// Populated reports whether any member has not exited.
func (g *Group) Populated() bool { return len(g.Pids()) > 0 }

// Kill SIGKILLs every member at once, including any forked while it runs.
func (g *Group) Kill() error { return Kill(g.dir) }

// Kill SIGKILLs every member of the group at dir.
func Kill(dir string) error {
	return os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
}

// EndFromInside is for a member that must end its own group when nobody
// else will (the reaper shim after the agent died): it moves the calling
// process up to the parent group, SIGKILLs every member left and removes
// the emptied group, so no directory is left behind. If the move is
// refused, the group is still killed, caller included.
func EndFromInside(dir string) {
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "cgroup.procs"), []byte("0"), 0); err != nil {
		_ = Kill(dir)
		return
	}
	_ = (&Group{dir: dir}).Remove()
}

// removeWait bounds Remove's wait for killed members to leave.
const removeWait = 2 * time.Second

// Remove kills what is left in the group and removes it. Members leave a
// group asynchronously after cgroup.kill, so it retries a busy group for a
// moment; an error means the (empty once its last member exits) directory
// is left behind.
func (g *Group) Remove() error {
	if g.fd != nil {
		g.fd.Close()
	}
	deadline := time.Now().Add(removeWait)
	for {
		err := syscall.Rmdir(g.dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("cgroup: remove %s: %w", g.dir, err)
		}
		_ = Kill(g.dir)
		time.Sleep(5 * time.Millisecond)
	}
}
