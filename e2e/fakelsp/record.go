package main

import (
	"encoding/json"
	"os"
	"sync"

	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// recorder appends script.Record lines to the record file. A nil recorder
// records nothing. Each line is one write to an O_APPEND file, so a reader
// never sees half a line and several fakes may share one file.
type recorder struct {
	mu sync.Mutex
	f  *os.File
}

func openRecorder(path string) (*recorder, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &recorder{f: f}, nil
}

func (r *recorder) record(rec script.Record) {
	if r == nil {
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, _ = r.f.Write(append(b, '\n'))
}

// event records a process event; pgid comes from /proc-free getpgid.
func (r *recorder) event(what string, pid int) {
	r.record(script.Record{Kind: "event", Method: what, Pid: pid, Pgid: pgidOf(pid)})
}

// exit records the code the fake is about to exit with.
func (r *recorder) exit(code int) {
	r.record(script.Record{Kind: "event", Method: "exit", Code: code})
}

// Close closes the file; a nil recorder is fine.
func (r *recorder) Close() error {
	if r == nil {
		return nil
	}
	return r.f.Close()
}
