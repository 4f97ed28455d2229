//go:build !unix

package main

import (
	"errors"
	"os"
	"os/signal"
)

// spawnChild is unix-only: SIGTERM has no meaning elsewhere.
func spawnChild() (int, error) { return 0, errors.New("spawnChildIgnoringTERM needs unix") }

func ignoreTermForever() { select {} }

// block never returns; an interrupt still ends the process.
func block(rec *recorder) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	rec.event("blocking", os.Getpid()) // the stop signal is handled from here on
	<-c
	os.Exit(1)
}

// pgidOf: no process groups here.
func pgidOf(int) int { return 0 }
