package procfs

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

// Supported reports whether this host has a process table to read.
const Supported = true

// Each calls fn for every process whose stat line can be read, until fn
// returns false. A process that exits meanwhile is skipped. It reports
// false when /proc itself cannot be read.
func Each(fn func(Proc) bool) bool {
	d, err := os.Open("/proc")
	if err != nil {
		return false
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(256)
		for _, name := range names {
			pid, err := strconv.Atoi(name)
			if err != nil {
				continue
			}
			p, err := Stat(pid)
			if err != nil {
				continue
			}
			if !fn(p) {
				return true
			}
		}
		if err != nil {
			return true
		}
	}
}

// Stat reads one process's stat line.
func Stat(pid int) (Proc, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, err
	}
	return parseStat(pid, b)
}

var errMalformed = errors.New("procfs: malformed stat line")

// parseStat reads "pid (comm) state ppid pgrp session ...". comm may hold
// spaces and parentheses, so the fields start after the last ')'.
func parseStat(pid int, b []byte) (Proc, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Proc{}, errMalformed
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 4 || len(f[0]) == 0 {
		return Proc{}, errMalformed
	}
	p := Proc{Pid: pid, State: f[0][0]}
	var err1, err2, err3 error
	p.PPid, err1 = strconv.Atoi(string(f[1]))
	p.Pgrp, err2 = strconv.Atoi(string(f[2]))
	p.Session, err3 = strconv.Atoi(string(f[3]))
	if err1 != nil || err2 != nil || err3 != nil {
		return Proc{}, errMalformed
	}
	return p, nil
}
