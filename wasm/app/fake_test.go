package app

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/transport"
	"github.com/stretchr/testify/require"
)

// agent is the relay + task host + language server of one connection, as a
// script: the real agent's ready frame, an initialize result, progress.
type agent struct {
	t   *testing.T
	url string
	end transport.PipeEnd
}

type msg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Error  *jsonrpc.Error  `json:"error"`
	raw    string
}

func (a *agent) send(format string, args ...any) {
	a.t.Helper()
	require.NoError(a.t, a.end.Write(ctxlite.Background(), fmt.Appendf(nil, format, args...)))
}

func (a *agent) recv() msg {
	a.t.Helper()
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
	defer cancel()
	data, err := a.end.Read(ctx)
	require.NoError(a.t, err)
	var m msg
	require.NoError(a.t, json.Unmarshal(data, &m), string(data))
	m.raw = string(data)
	return m
}

func (a *agent) recvMethod(method string) msg {
	a.t.Helper()
	m := a.recv()
	require.Equal(a.t, method, m.Method, m.raw)
	return m
}

func (a *agent) closeWith(code int) { a.end.CloseWith(code) }

// ready sends the task host's ready frame and returns the initialize request.
func (a *agent) ready() msg {
	a.t.Helper()
	a.send(`{"status":"ready","workspacePath":"/w","workspaceUri":"file:///w","repoSubpaths":[""]}`)
	return a.recvMethod("initialize")
}

// initialized answers initialize and takes initialized.
func (a *agent) initialized(init msg) {
	a.t.Helper()
	a.send(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, init.ID)
	a.recvMethod("initialized")
}

type dialer struct {
	t      *testing.T
	agents chan *agent
}

func (d *dialer) dial(_ ctxlite.Context, url string) (jsonrpc.Transport, error) {
	client, remote := transport.Pipe()
	d.agents <- &agent{t: d.t, url: url, end: remote}
	return client, nil
}

// model is a fake Monaco model.
type model struct {
	mu   sync.Mutex
	text string
}

func (m *model) Text() string               { m.mu.Lock(); defer m.mu.Unlock(); return m.text }
func (m *model) SetMarkers([]monaco.Marker) {}

// memStore is localStorage.
type memStore struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *memStore) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}
func (s *memStore) Set(k, v string) { s.mu.Lock(); s.m[k] = v; s.mu.Unlock() }
func (s *memStore) Remove(k string) { s.mu.Lock(); delete(s.m, k); s.mu.Unlock() }

// viewJSON is the subset of a view the tests read.
type viewJSON struct {
	SessionID string   `json:"sessionId"`
	Language  string   `json:"language"`
	State     string   `json:"state"`
	Summary   string   `json:"summary"`
	Details   []string `json:"details"`
	Action    *string  `json:"action"`
	Progress  *struct {
		Title      string `json:"title"`
		Message    string `json:"message"`
		Percentage *int   `json:"percentage"`
		ElapsedMs  int64  `json:"elapsedMs"`
		Others     int    `json:"others"`
	} `json:"progress"`
	CloseCode *int   `json:"closeCode"`
	Message   string `json:"message"`
	raw       string
}

func (v viewJSON) action() string {
	if v.Action == nil {
		return ""
	}
	return *v.Action
}

type harness struct {
	t      *testing.T
	app    *App
	clock  *clocktest.Manual
	dialer *dialer
	store  *memStore
	views  chan viewJSON
	msgs   chan string // server messages, as delivered
}

func newHarness(t *testing.T, store *memStore, settingsJSON string) *harness {
	t.Helper()
	if store == nil {
		store = &memStore{m: map[string]string{}}
	}
	h := &harness{t: t, clock: &clocktest.Manual{}, dialer: &dialer{t: t, agents: make(chan *agent, 4)}, store: store,
		views: make(chan viewJSON, 1024), msgs: make(chan string, 64)}
	cfg := Config{RelayURL: "ws://relay.test/lsp", Dial: h.dialer.dial, Clock: h.clock, Store: store, Version: "t", Logf: t.Logf,
		OnMessage: func(js string) { h.msgs <- js }}
	if settingsJSON != "" {
		cfg.Settings = []byte(settingsJSON)
	}
	a, err := New(cfg, func(js string) {
		var v viewJSON
		require.NoError(t, json.Unmarshal([]byte(js), &v))
		v.raw = js
		h.views <- v
	})
	require.NoError(t, err)
	h.app = a
	t.Cleanup(func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		_ = a.Close(ctx)
	})
	return h
}

func (h *harness) agent() *agent {
	h.t.Helper()
	select {
	case a := <-h.dialer.agents:
		return a
	case <-time.After(10 * time.Second):
		h.t.Fatal("no dial")
		return nil
	}
}

func (h *harness) noDial() {
	h.t.Helper()
	select {
	case a := <-h.dialer.agents:
		h.t.Fatalf("unexpected dial %s", a.url)
	case <-time.After(20 * time.Millisecond):
	}
}

// waitView waits for a delivered view satisfying cond.
func (h *harness) waitView(what string, cond func(viewJSON) bool) viewJSON {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case v := <-h.views:
			if cond(v) {
				return v
			}
		case <-deadline:
			h.t.Fatalf("no view: %s", what)
		}
	}
}

// quiet asserts no view is delivered for a moment.
func (h *harness) quiet() {
	h.t.Helper()
	select {
	case v := <-h.views:
		h.t.Fatalf("unexpected view %s", v.raw)
	case <-time.After(30 * time.Millisecond):
	}
}

func (h *harness) open(session, path string) *client.Document {
	h.t.Helper()
	d, err := h.app.OpenDocument(session, path, &model{text: "package main\n"}, &model{})
	require.NoError(h.t, err)
	return d
}

func state(s string) func(viewJSON) bool { return func(v viewJSON) bool { return v.State == s } }
