// Command fakelsp is a minimal, honest language server for tests: it speaks
// LSP over stdio with real Content-Length framing (the agent's own framing
// package), answers initialize, shutdown, exit and hover, publishes
// diagnostics on didOpen, and does on demand what no real server does on
// demand — crash after didOpen, stop reading, never answer initialize or
// reject it and exit, leave a TERM-ignoring child behind, report scripted
// work-done progress (with or without waiting for the create's answer),
// register capabilities late, and send messages for people.
//
// Its behaviour comes from a JSON script read once at start (package
// script: $FAKELSP_SCRIPT, else .fakelsp.json in the working directory), so
// a test picks the behaviour of each connection by rewriting that file.
// With a record file (FAKELSP_RECORD or the script's recordFile) every
// message read is appended as one JSON line, so tests can assert exact
// sequences.
//
//	fakelsp            serve LSP on stdin/stdout
//	fakelsp -version   print the version and exit
//
// Install it under a real server's name (gopls, rust-analyzer, kotlin-lsp)
// on the task PATH to stand in for that server.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// version is what -version prints and serverInfo carries.
const version = "0.1.0"

// childFlag makes the binary act as the TERM-ignoring child it spawns.
const childFlag = "child-ignore-term"

func main() {
	fs := flag.NewFlagSet("fakelsp", flag.ContinueOnError)
	showVersion := fs.Bool("version", false, "print the version and exit")
	child := fs.Bool(childFlag, false, "internal: run as the TERM-ignoring child")
	fs.Bool("stdio", false, "accepted for compatibility; stdio is the only transport")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	switch {
	case *showVersion:
		fmt.Println("fakelsp", version)
		return
	case *child:
		ignoreTermForever()
	}
	wd, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	s, err := script.Load(wd, os.Getenv)
	if err != nil {
		fatal(err)
	}
	rec, err := openRecorder(s.RecordFile)
	if err != nil {
		fatal(err)
	}
	code := run(s, os.Stdin, os.Stdout, rec)
	rec.exit(code)
	rec.Close()
	os.Exit(code)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "fakelsp:", err)
	os.Exit(2)
}

// run serves one session and returns the exit code.
func run(s script.Script, in io.Reader, out io.Writer, rec *recorder) int {
	rec.event("start", os.Getpid())
	if s.SpawnChildIgnoringTERM {
		pid, err := spawnChild()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakelsp: spawn child:", err)
			return 2
		}
		rec.event("child", pid)
	}
	if s.Echo {
		return echo(in, out, rec)
	}
	if s.StopReadingStdin {
		block(rec)
	}
	return newServer(s, out, rec).serve(in)
}
