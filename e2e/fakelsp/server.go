package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/kandev/lsp/agent/framing"
	"github.com/kandev/lsp/e2e/fakelsp/script"
)

// JSON-RPC errors the fake answers with, as package values.
var (
	errMethodNotFound = &script.RPCError{Code: -32601, Message: "method not found"}
	// errRequestCancelled answers a stalled request the client cancelled.
	errRequestCancelled = &script.RPCError{Code: -32800, Message: "request cancelled"}
	errNotInitialized   = &script.RPCError{Code: -32002, Message: "server not initialized"}
	errInvalidRequest   = &script.RPCError{Code: -32600, Message: "request after shutdown"}
	errParse            = &script.RPCError{Code: -32700, Message: "parse error"}
	errAlreadyStarted   = &script.RPCError{Code: -32600, Message: "initialize sent twice"}
)

// message is any JSON-RPC message; which fields are set tells its kind.
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      json.RawMessage  `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *script.RPCError `json:"error,omitempty"`
}

// server is one LSP session. Reads happen on one goroutine (serve); writes
// come from it and from progress goroutines, so the writer is guarded.
type server struct {
	s   script.Script
	rec *recorder

	wmu sync.Mutex
	w   *framing.Writer

	mu          sync.Mutex
	nextID      int
	pending     map[string]pendingCall // our requests awaiting an answer, by id
	stalled     map[string]struct{}    // the client's requests left unanswered (Script.Stall), by id
	asked       map[string]bool        // client request methods answered at least once (Script.Requests)
	initialized bool                   // initialize was received
	shutdown    bool                   // shutdown was answered
	workToken   json.RawMessage        // initialize's workDoneToken
	opened      bool                   // a didOpen was seen
}

type pendingCall struct {
	method string
	done   chan struct{}
}

func newServer(s script.Script, out io.Writer, rec *recorder) *server {
	return &server{s: s, rec: rec, w: framing.NewWriter(out), pending: map[string]pendingCall{}}
}

// serve reads until exit or EOF and returns the exit code: 0 after
// shutdown, 1 otherwise, as the LSP spec says for exit.
func (sv *server) serve(in io.Reader) int {
	sv.fire(script.OnStart)
	r := framing.NewReader(in)
	for {
		body, err := r.Read()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintln(os.Stderr, "fakelsp: read:", err)
			}
			return sv.exitCode()
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			sv.send(message{ID: json.RawMessage("null"), Error: errParse})
			continue
		}
		if code, exit := sv.handle(m, body); exit {
			return code
		}
	}
}

func (sv *server) exitCode() int {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.shutdown {
		return 0
	}
	return 1
}

// handle dispatches one message; exit reports that the process must end.
func (sv *server) handle(m message, raw []byte) (code int, exit bool) {
	switch {
	case m.Method == "" && len(m.ID) > 0: // an answer to our request
		sv.mu.Lock()
		call, ok := sv.pending[string(m.ID)]
		delete(sv.pending, string(m.ID))
		sv.mu.Unlock()
		sv.rec.record(script.Record{Kind: "answer", Method: call.method, Message: bytes.Clone(raw)})
		if ok {
			close(call.done)
		}
		return 0, false
	case len(m.ID) > 0:
		sv.rec.record(script.Record{Kind: "request", Method: m.Method, Message: bytes.Clone(raw)})
		sv.request(m)
		return 0, false
	}
	sv.rec.record(script.Record{Kind: "notification", Method: m.Method, Message: bytes.Clone(raw)})
	switch m.Method {
	case "exit":
		return sv.exitCode(), true
	case "initialized":
		sv.fire(script.OnInitialized)
		if len(sv.s.RequestConfiguration) > 0 {
			go sv.requestConfiguration()
		}
	case "workspace/didChangeConfiguration":
		// As gopls does: a change notification makes it pull again.
		if len(sv.s.RequestConfiguration) > 0 {
			go sv.requestConfiguration()
		}
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(m.Params, &p)
		sv.mu.Lock()
		_, stalled := sv.stalled[string(p.ID)]
		delete(sv.stalled, string(p.ID))
		sv.mu.Unlock()
		if stalled {
			sv.reply(p.ID, nil, errRequestCancelled)
		}
	case "textDocument/didOpen":
		if sv.s.ExitOnDidOpen != nil {
			return *sv.s.ExitOnDidOpen, true
		}
		sv.didOpen(m.Params)
	}
	return 0, false
}

// request answers one client request.
func (sv *server) request(m message) {
	sv.mu.Lock()
	down, init := sv.shutdown, sv.initialized
	sv.mu.Unlock()
	switch {
	case down && m.Method != "exit":
		sv.reply(m.ID, nil, errInvalidRequest)
	case m.Method == "initialize":
		if init {
			sv.reply(m.ID, nil, errAlreadyStarted)
			return
		}
		sv.initialize(m)
	case !init:
		sv.reply(m.ID, nil, errNotInitialized)
	case m.Method == "shutdown":
		sv.mu.Lock()
		sv.shutdown = true
		sv.mu.Unlock()
		sv.reply(m.ID, json.RawMessage("null"), nil)
	case m.Method == "textDocument/hover":
		if sv.s.Hover == "" {
			sv.reply(m.ID, json.RawMessage("null"), nil)
			return
		}
		sv.reply(m.ID, map[string]any{"contents": map[string]string{"kind": "markdown", "value": sv.s.Hover}}, nil)
	case slices.Contains(sv.s.Stall, m.Method):
		sv.mu.Lock()
		if sv.stalled == nil {
			sv.stalled = make(map[string]struct{})
		}
		sv.stalled[string(m.ID)] = struct{}{}
		sv.mu.Unlock()
	default:
		if ans, ok := sv.s.Answers[m.Method]; ok {
			sv.reply(m.ID, ans, nil)
		} else {
			sv.reply(m.ID, nil, errMethodNotFound)
		}
		sv.firstRequest(m.Method)
	}
}

func (sv *server) initialize(m message) {
	var p struct {
		WorkDoneToken json.RawMessage `json:"workDoneToken"`
	}
	_ = json.Unmarshal(m.Params, &p)
	sv.mu.Lock()
	sv.initialized = true
	sv.workToken = p.WorkDoneToken
	sv.mu.Unlock()
	sv.fire(script.OnInitialize)
	if sv.s.NeverAnswerInitialize {
		return
	}
	answer := func() {
		if e := sv.s.InitializeError; e != nil {
			sv.reply(m.ID, nil, e)
			if sv.s.ExitAfterInitializeError {
				sv.rec.exit(1)
				os.Exit(1)
			}
			return
		}
		caps := sv.s.Capabilities
		if len(caps) == 0 {
			caps = script.DefaultCapabilities
		}
		sv.reply(m.ID, map[string]any{
			"capabilities": caps,
			"serverInfo":   map[string]string{"name": "fakelsp", "version": version},
		}, nil)
	}
	if d := sv.s.InitializeDelayMs; d > 0 {
		// Answer later without blocking reads, as a server importing a
		// project still reads (and may receive $/cancelRequest).
		time.AfterFunc(time.Duration(d)*time.Millisecond, answer)
		return
	}
	answer()
}

func (sv *server) didOpen(params json.RawMessage) {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
		} `json:"textDocument"`
	}
	_ = json.Unmarshal(params, &p)
	diags := sv.s.Diagnostics
	if len(diags) == 0 {
		diags = json.RawMessage("[]")
	}
	sv.send(message{Method: "textDocument/publishDiagnostics", Params: mustJSON(map[string]any{
		"uri": p.TextDocument.URI, "version": p.TextDocument.Version, "diagnostics": diags,
	})})
	sv.mu.Lock()
	first := !sv.opened
	sv.opened = true
	sv.mu.Unlock()
	if first {
		sv.fire(script.OnDidOpen)
	}
}

// requestConfiguration asks the client for the scripted sections; the
// answer is recorded by handle.
func (sv *server) requestConfiguration() {
	items := make([]map[string]string, len(sv.s.RequestConfiguration))
	for i, sec := range sv.s.RequestConfiguration {
		items[i] = map[string]string{"section": sec}
	}
	sv.call("workspace/configuration", map[string]any{"items": items})
}

// call sends a request of our own and returns a channel closed when the
// client answers it.
func (sv *server) call(method string, params any) <-chan struct{} {
	sv.mu.Lock()
	sv.nextID++
	id := json.RawMessage(fmt.Sprint(sv.nextID))
	done := make(chan struct{})
	sv.pending[string(id)] = pendingCall{method: method, done: done}
	sv.mu.Unlock()
	var raw json.RawMessage // none: LSP's refresh requests carry no params
	if params != nil {
		raw = mustJSON(params)
	}
	sv.send(message{ID: id, Method: method, Params: raw})
	return done
}

func (sv *server) reply(id json.RawMessage, result any, rpcErr *script.RPCError) {
	m := message{ID: id, Error: rpcErr}
	if rpcErr == nil {
		m.Result = mustJSON(result)
	}
	sv.send(m)
}

func (sv *server) send(m message) {
	m.JSONRPC = "2.0"
	b := mustJSON(m)
	sv.wmu.Lock()
	defer sv.wmu.Unlock()
	if err := sv.w.Write(b); err != nil {
		fmt.Fprintln(os.Stderr, "fakelsp: write:", err)
	}
}

func mustJSON(v any) json.RawMessage {
	if r, ok := v.(json.RawMessage); ok {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// echo writes every frame read back unchanged until EOF.
func echo(in io.Reader, out io.Writer, rec *recorder) int {
	r, w := framing.NewReader(in), framing.NewWriter(out)
	for {
		body, err := r.Read()
		if err != nil {
			return 0
		}
		rec.record(script.Record{Kind: "echo", Message: bytes.Clone(body)})
		if err := w.Write(body); err != nil {
			return 1
		}
	}
}
