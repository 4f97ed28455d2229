//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// spawnChild starts this binary again as a child that ignores SIGTERM. It
// stays in the fake's process group, as a real server's helper would, and
// has no stdio of ours: it must not hold the server's stdout open, so the
// server's exit is seen as stdout EOF at once.
func spawnChild() (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	p, err := os.StartProcess(exe, []string{exe, "-" + childFlag}, &os.ProcAttr{
		Env:   os.Environ(),
		Files: []*os.File{nil, nil, nil},
	})
	if err != nil {
		return 0, err
	}
	pid := p.Pid
	_ = p.Release() // it is meant to outlive us; the agent must reap it
	return pid, nil
}

// ignoreTermForever is the child: SIGTERM is caught and dropped (so only
// SIGKILL ends it), and it waits for nothing else.
func ignoreTermForever() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	for range c {
	}
}

// block never returns; signals still end the process.
func block(rec *recorder) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
	rec.event("blocking", os.Getpid()) // the stop signal is handled from here on
	<-c
	os.Exit(1)
}

// pgidOf returns pid's process group, 0 if unknown.
func pgidOf(pid int) int {
	g, err := syscall.Getpgid(pid)
	if err != nil {
		return 0
	}
	return g
}
