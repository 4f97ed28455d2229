// Package script is the behaviour file of the fake language server
// (e2e/fakelsp): its JSON format, where it is found and how tests write it.
//
// The fake reads its script once, at start, from the file named by the
// environment variable FAKELSP_SCRIPT, else from .fakelsp.json in its working
// directory (the task workspace, since the agent starts servers there). A
// test therefore chooses the behaviour of the next connection by rewriting
// that file before it connects. No file means a plain, well-behaved server.
//
// Example (.fakelsp.json):
//
//	{
//	  "capabilities": {"textDocumentSync": 1, "hoverProvider": true},
//	  "initializeDelayMs": 200,
//	  "diagnostics": [{"range": {"start": {"line": 0, "character": 0},
//	    "end": {"line": 0, "character": 1}}, "severity": 1, "message": "scripted"}],
//	  "progress": [
//	    {"on": "initialize", "kind": "begin", "title": "Importing", "percentage": 0},
//	    {"on": "initialize", "delayMs": 50, "kind": "report", "message": "half", "percentage": 50},
//	    {"on": "initialized", "token": "idx", "create": true, "kind": "begin", "title": "Indexing"},
//	    {"on": "initialized", "token": "idx", "delayMs": 100, "kind": "end", "message": "done"}
//	  ],
//	  "registrations": [
//	    {"on": "initialized", "id": "save", "method": "textDocument/didSave",
//	     "registerOptions": {"documentSelector": [{"language": "rust"}], "includeText": true}}
//	  ],
//	  "messages": [{"on": "didOpen", "type": 2, "message": "Cargo.toml has errors", "actions": ["Open"]}],
//	  "requestConfiguration": ["gopls"],
//	  "recordFile": "/tmp/fakelsp.jsonl"
//	}
package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Environment variables and the default file name the fake consults.
const (
	// EnvScript names the script file, overriding FileName in the working
	// directory.
	EnvScript = "FAKELSP_SCRIPT"
	// EnvRecord names the record file, overriding Script.RecordFile.
	EnvRecord = "FAKELSP_RECORD"
	// FileName is the script looked for in the working directory.
	FileName = ".fakelsp.json"
)

// Triggers for progress, registration and message steps.
const (
	OnStart       = "start"       // as soon as the fake runs
	OnInitialize  = "initialize"  // when the initialize request arrives, before its answer
	OnInitialized = "initialized" // when the initialized notification arrives
	OnDidOpen     = "didOpen"     // when textDocument/didOpen arrives
)

// Script is the fake's behaviour. The zero value is a plain server:
// initialize answers at once with DefaultCapabilities, didOpen publishes
// empty diagnostics, hover answers null, shutdown and exit follow the spec.
type Script struct {
	// Capabilities replaces DefaultCapabilities in the initialize result.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Echo makes the fake `cat` with framing: every frame read is written
	// back unchanged and nothing else happens (no exit on "exit").
	Echo bool `json:"echo,omitempty"`
	// ExitOnDidOpen, when set, exits with this code right after the first
	// didOpen is read, before anything is published.
	ExitOnDidOpen *int `json:"exitOnDidOpen,omitempty"`
	// StopReadingStdin makes the fake never read stdin: it runs until it is
	// killed, so writes to it stall once the pipe is full.
	StopReadingStdin bool `json:"stopReadingStdin,omitempty"`
	// NeverAnswerInitialize leaves initialize pending forever (Kotlin's
	// never-completing import); everything else still works.
	NeverAnswerInitialize bool `json:"neverAnswerInitialize,omitempty"`
	// InitializeDelayMs delays the initialize answer.
	InitializeDelayMs int `json:"initializeDelayMs,omitempty"`
	// InitializeError answers initialize with this JSON-RPC error.
	InitializeError *RPCError `json:"initializeError,omitempty"`
	// ExitAfterInitializeError exits with code 1 right after answering
	// initialize with InitializeError, as a server that cannot load the
	// project does; the agent then closes the stream with 4006.
	ExitAfterInitializeError bool `json:"exitAfterInitializeError,omitempty"`
	// Diagnostics are published for each opened document (an empty list
	// when unset, as a server with nothing to report does).
	Diagnostics json.RawMessage `json:"diagnostics,omitempty"`
	// Hover, when set, is the markdown answer to every hover request.
	Hover string `json:"hover,omitempty"`
	// Answers are canned results by request method (e.g.
	// "textDocument/completion"), answered to every such request; other
	// unknown methods get MethodNotFound.
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	// Stall lists request methods left unanswered, as a server still
	// working on them: each is answered only when the client cancels it
	// ($/cancelRequest), with LSP's RequestCancelled error, as real
	// servers do.
	Stall []string `json:"stall,omitempty"`
	// Progress are work-done progress steps, run in order per trigger.
	Progress []ProgressStep `json:"progress,omitempty"`
	// Registrations are client/registerCapability (or unregister)
	// requests sent late, on a trigger, as real servers register after
	// initialized; each waits for the client's answer, which is recorded.
	Registrations []RegistrationStep `json:"registrations,omitempty"`
	// Messages are window/showMessage notifications, or
	// window/showMessageRequest requests when they have actions, sent on
	// a trigger; a request's answer (the chosen action) is recorded.
	Messages []MessageStep `json:"messages,omitempty"`
	// Requests are other server-to-client requests (such as
	// workspace/semanticTokens/refresh) sent on a trigger; each waits for
	// the client's answer, which is recorded. Besides the triggers above,
	// On may name a client request method the fake answers from Answers
	// (or refuses as unknown): the step runs once, after the first such
	// request was answered.
	Requests []RequestStep `json:"requests,omitempty"`
	// SpawnChildIgnoringTERM forks, at start, a child in the fake's process
	// group that ignores SIGTERM and sleeps, as a server's helper might.
	// Its pid is recorded as a "child" event.
	SpawnChildIgnoringTERM bool `json:"spawnChildIgnoringTERM,omitempty"`
	// RequestConfiguration, after initialized and again after each
	// workspace/didChangeConfiguration, sends one workspace/configuration
	// request with one item per section; the answers are recorded.
	RequestConfiguration []string `json:"requestConfiguration,omitempty"`
	// RecordFile, when set (or FAKELSP_RECORD), receives one Record per
	// line for every message read.
	RecordFile string `json:"recordFile,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// ProgressStep is one $/progress notification, optionally preceded by a
// window/workDoneProgress/create request for its token.
type ProgressStep struct {
	// On is the trigger: OnStart, OnInitialize, OnInitialized or OnDidOpen.
	On string `json:"on"`
	// DelayMs waits this long after the previous step of the same trigger
	// (or the trigger itself) before this step is sent.
	DelayMs int `json:"delayMs,omitempty"`
	// Token is the progress token (a string or a number). Empty means the
	// workDoneToken the client put in initialize.
	Token json.RawMessage `json:"token,omitempty"`
	// Create sends window/workDoneProgress/create for Token first and waits
	// for the client's answer, as the spec requires before using it.
	Create bool `json:"create,omitempty"`
	// NoWait sends the step right after its create, without waiting for
	// the answer, as rust-analyzer does.
	NoWait bool `json:"noWait,omitempty"`
	// Kind is "begin", "report" or "end".
	Kind string `json:"kind"`
	// Title (begin), Message and Percentage (begin, report) as in LSP.
	Title      string `json:"title,omitempty"`
	Message    string `json:"message,omitempty"`
	Percentage *int   `json:"percentage,omitempty"`
}

// RegistrationStep is one client/registerCapability request, or
// client/unregisterCapability with Unregister.
type RegistrationStep struct {
	// On and DelayMs are as for ProgressStep.
	On      string `json:"on"`
	DelayMs int    `json:"delayMs,omitempty"`
	// ID and Method name the registration; RegisterOptions are its options.
	ID              string          `json:"id"`
	Method          string          `json:"method"`
	RegisterOptions json.RawMessage `json:"registerOptions,omitempty"`
	// Unregister withdraws registration ID instead.
	Unregister bool `json:"unregister,omitempty"`
}

// MessageStep is one message for people: window/showMessage, or
// window/showMessageRequest when Actions is set (or Request).
type MessageStep struct {
	// On and DelayMs are as for ProgressStep.
	On      string `json:"on"`
	DelayMs int    `json:"delayMs,omitempty"`
	// Type is LSP's MessageType: 1 error, 2 warning, 3 info, 4 log.
	Type    int    `json:"type"`
	Message string `json:"message"`
	// Actions are the titles of a request's MessageActionItems.
	Actions []string `json:"actions,omitempty"`
	// Request sends showMessageRequest even without actions.
	Request bool `json:"request,omitempty"`
}

// RequestStep is one server-to-client request.
type RequestStep struct {
	// On and DelayMs are as for ProgressStep; On may also be a client
	// request method (see Script.Requests).
	On      string `json:"on"`
	DelayMs int    `json:"delayMs,omitempty"`
	// Method and Params are the request's.
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Record is one line of the record file.
type Record struct {
	// Kind is "request", "notification", "answer" (a response to one of the
	// fake's own requests) or "event" (something the fake did).
	Kind string `json:"kind"`
	// Method is the message's method; for an answer, the method of the
	// request it answers; for an event, what happened ("start", "child",
	// "exit").
	Method string `json:"method,omitempty"`
	// Pid and Pgid are set on start and child events: the fake's or its
	// child's process and process group.
	Pid  int `json:"pid,omitempty"`
	Pgid int `json:"pgid,omitempty"`
	// Code is the exit code on an "exit" event, written just before the
	// fake exits on its own.
	Code int `json:"code,omitempty"`
	// Message is the message exactly as read.
	Message json.RawMessage `json:"message,omitempty"`
}

// DefaultCapabilities is what a plain fake advertises: full document sync
// with save notifications including text, and hover.
var DefaultCapabilities = json.RawMessage(`{"textDocumentSync":{"openClose":true,"change":1,"save":{"includeText":true}},"hoverProvider":true}`)

// Load reads the script the fake would read in dir: EnvScript's file when
// the variable is set, else dir/FileName; a missing default file is the
// zero Script. getenv is os.Getenv in the fake.
func Load(dir string, getenv func(string) string) (Script, error) {
	path, explicit := getenv(EnvScript), true
	if path == "" {
		path, explicit = filepath.Join(dir, FileName), false
	}
	var s Script
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("script %s: %w", path, err)
	}
	if r := getenv(EnvRecord); r != "" {
		s.RecordFile = r
	}
	return s, nil
}

// Write publishes s as dir/FileName, atomically (temp file and rename), so
// a fake starting at that moment reads either the old script or the new.
func Write(dir string, s Script) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, FileName+".*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), filepath.Join(dir, FileName))
}

// ReadRecords parses a record file; a missing file is no records.
func ReadRecords(path string) ([]Record, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var r Record
		if err := dec.Decode(&r); err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Int returns a pointer to n, for ExitOnDidOpen and Percentage literals.
func Int(n int) *int { return &n }
