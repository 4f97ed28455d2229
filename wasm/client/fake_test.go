package client

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/tools/lspconform"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/transport"
	"github.com/stretchr/testify/require"
)

// fakeAgent is the test's side of one dialed connection, standing in for the
// relay and task host: it sends status frames and speaks raw JSON-RPC.
type fakeAgent struct {
	t   *testing.T
	url string
	end transport.PipeEnd
	// conf checks every message both ways against the LSP meta model
	// (nil without one): what the client sends to the letter.
	conf *lspconform.Conn
}

// metaModel is the LSP meta model the fake agents check messages
// against, loaded once; nil where there is none (the test then says so).
var metaModel = sync.OnceValue(func() *lspconform.Model {
	path, ok := lspconform.Find()
	if !ok {
		return nil
	}
	m, err := lspconform.Load(path)
	if err != nil {
		panic(err)
	}
	return m
})

// conform checks one frame; a mismatch fails the test that produced it.
func (a *fakeAgent) conform(from lspconform.Side, frame []byte) {
	a.t.Helper()
	if a.conf == nil {
		return
	}
	if err := a.conf.Check(from, frame); err != nil {
		a.t.Errorf("LSP conformance: %v\n%s", err, frame)
	}
}

type rpcMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
	raw    string
}

func (a *fakeAgent) send(format string, args ...any) {
	a.t.Helper()
	frame := fmt.Appendf(nil, format, args...)
	a.conform(lspconform.Server, frame)
	require.NoError(a.t, a.end.Write(ctxlite.Background(), frame))
}

// sendMalformed sends what no server may send — a test of the client's
// defence — past the conformance check.
func (a *fakeAgent) sendMalformed(format string, args ...any) {
	a.t.Helper()
	frame := fmt.Appendf(nil, format, args...)
	if a.conf != nil {
		a.conf.Record(lspconform.Server, frame) // its answer is checked
	}
	require.NoError(a.t, a.end.Write(ctxlite.Background(), frame))
}

func (a *fakeAgent) recv() rpcMsg {
	a.t.Helper()
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
	defer cancel()
	data, err := a.end.Read(ctx)
	require.NoError(a.t, err)
	a.conform(lspconform.Client, data)
	var m rpcMsg
	require.NoError(a.t, json.Unmarshal(data, &m), string(data))
	m.raw = string(data)
	return m
}

// recvMethod receives the next message and checks its method.
func (a *fakeAgent) recvMethod(method string) rpcMsg {
	a.t.Helper()
	m := a.recv()
	require.Equal(a.t, method, m.Method, m.raw)
	return m
}

// nothingQueued asserts the client has sent nothing more so far. The client
// sends synchronously from the goroutine that triggers a message, so after
// that trigger returns, anything it sent is already queued.
func (a *fakeAgent) nothingQueued() {
	a.t.Helper()
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	cancel()
	data, err := a.end.Read(ctx)
	require.Error(a.t, err, "unexpected message %s", data)
}

// closeWith closes the socket from the agent's side with a close code.
func (a *fakeAgent) closeWith(code int) {
	a.end.CloseWith(code)
}

// fakeDialer hands each dialed connection to the test.
type fakeDialer struct {
	agents chan *fakeAgent
	t      *testing.T
}

func (d *fakeDialer) dial(_ ctxlite.Context, url string) (jsonrpc.Transport, error) {
	client, agent := transport.Pipe()
	a := &fakeAgent{t: d.t, url: url, end: agent}
	if m := metaModel(); m != nil {
		a.conf = m.NewConn()
	}
	d.agents <- a
	return client, nil
}

// model is a fake Monaco model: its text, and the markers set on it.
type model struct {
	mu      sync.Mutex
	text    string
	reads   int
	markers chan []monaco.Marker
}

func newModel(text string) *model {
	return &model{text: text, markers: make(chan []monaco.Marker, 16)}
}

func (m *model) Text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	return m.text
}

func (m *model) set(text string) {
	m.mu.Lock()
	m.text = text
	m.mu.Unlock()
}

func (m *model) SetMarkers(ms []monaco.Marker) { m.markers <- ms }

func (m *model) nextMarkers(t *testing.T) []monaco.Marker {
	t.Helper()
	select {
	case ms := <-m.markers:
		return ms
	case <-time.After(10 * time.Second):
		t.Fatal("no markers set")
		return nil
	}
}

// statusLog collects published statuses.
type statusLog chan Status

func (l statusLog) next(t *testing.T) Status {
	t.Helper()
	select {
	case s := <-l:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no status")
		return Status{}
	}
}

// harness is a Client wired to fakes.
type harness struct {
	client   *Client
	clock    *clocktest.Manual
	dialer   *fakeDialer
	statuses statusLog
	last     State // the state expectState returned last
	taken    int   // dialed connections the test has taken (agent)
}

func newHarness(t *testing.T, mods ...func(*Config)) *harness {
	t.Helper()
	h := &harness{
		clock:    &clocktest.Manual{},
		dialer:   &fakeDialer{agents: make(chan *fakeAgent, 4), t: t},
		statuses: make(statusLog, 1024),
	}
	cfg := Config{
		RelayURL: "ws://relay.test/lsp",
		Dial:     h.dialer.dial,
		Clock:    h.clock,
		Soon:     h.clock.Soon,
		Version:  "test",
		Logf:     t.Logf,
		OnStatus: func(s Status) { h.statuses <- s },
		// Fake agents left unanswered at cleanup must not cost seconds.
		ShutdownTimeout: 100 * clock.Millisecond,
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	require.NoError(t, err)
	h.client = c
	t.Cleanup(func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		require.NoError(t, c.Close(ctx))
	})
	return h
}

func (h *harness) agent(t *testing.T) *fakeAgent {
	t.Helper()
	select {
	case a := <-h.dialer.agents:
		h.taken++
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no dial")
		return nil
	}
}

// current returns the pair's current connection (its default server).
func (h *harness) current(session string, lang wire.Language) *connection {
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	return h.client.pairs[connKey{sessionID: session, language: lang}].conn
}

// generations counts the connections the client has started, over all its
// pairs. A connection generation is handed out synchronously by whatever
// starts it (an open, Start, a timer the manual clock fires), before its
// goroutine dials: once the trigger has returned, a connection it started
// is counted here even if its dial has not reached the dialer yet.
func (h *harness) generations() int {
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	n := 0
	for _, p := range h.client.pairs {
		n += int(p.gen)
	}
	return n
}

// expectState returns the next status whose state differs from the last
// one seen, and checks it is state: repeats of a state (lease counts,
// progress, launch) are skipped, any other state fails.
func (h *harness) expectState(t *testing.T, state State) Status {
	t.Helper()
	for {
		s := h.statuses.next(t)
		if s.State == h.last {
			continue
		}
		require.Equal(t, state, s.State, "%+v", s)
		h.last = s.State
		return s
	}
}

// goplsInitializeResult is what gopls v0.23 answers initialize with,
// abridged.
const goplsInitializeResult = `{"capabilities":{"textDocumentSync":{"openClose":true,"change":2,"save":{}},` +
	`"completionProvider":{"triggerCharacters":["."]},"hoverProvider":true,"definitionProvider":true,` +
	`"referencesProvider":true,"workspace":{"workspaceFolders":{"supported":true,"changeNotifications":"workspace/didChangeWorkspaceFolders"}}},` +
	`"serverInfo":{"name":"gopls","version":"v0.23.0"}}`

// handshake plays the agent through ready → initialize → initialized.
func handshake(t *testing.T, h *harness, a *fakeAgent, workspacePath, workspaceURI string) rpcMsg {
	t.Helper()
	h.expectState(t, StateConnecting)
	a.send(`{"status":"ready","workspacePath":%q,"workspaceUri":%q}`, workspacePath, workspaceURI)
	h.expectState(t, StateStarting)
	init := a.recvMethod("initialize")
	a.send(`{"jsonrpc":"2.0","id":%s,"result":%s}`, init.ID, goplsInitializeResult)
	a.recvMethod("initialized")
	h.expectState(t, StateReady)
	return init
}
