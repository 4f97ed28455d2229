package relay

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// fakeAgent behaves like the task-host agent's stream contract: bearer token
// (401 otherwise), a ready status frame, then an echo of every message. The
// test steers each accepted stream through the agentConn it receives.
type fakeAgent struct {
	srv       *httptest.Server
	token     string
	workspace string
	// ready is the exact status frame sent first on every stream.
	ready []byte
	// requests counts every request to the stream route, authorised or not.
	requests atomic.Int32
	// conns delivers each accepted stream.
	conns chan *agentConn
	// script, if set, replaces the echo loop after the ready frame; its
	// error is the stream's.
	script func(ctx context.Context, ws *websocket.Conn) error
	// stopCalls counts authorised POSTs to the agent's task-stop route;
	// noStopRoute makes that route answer 404 (an older agent).
	stopCalls   atomic.Int32
	noStopRoute bool
	// installers is the body of the agent's installers route;
	// installerCalls counts authorised requests to it.
	installers     []byte
	installerCalls atomic.Int32

	mu  sync.Mutex
	all []*agentConn
}

// agentConn is one accepted stream of the fake agent.
type agentConn struct {
	ws     *websocket.Conn
	query  url.Values
	header http.Header
	// done is closed when the echo loop has ended; err then holds the
	// error that ended it (a CloseError when the relay sent a close frame).
	done chan struct{}
	err  error
}

const testToken = "test-token"

func newFakeAgent(t testing.TB) *fakeAgent {
	t.Helper()
	a := &fakeAgent{
		token:     testToken,
		workspace: "/srv/my task",
		conns:     make(chan *agentConn, 64),
	}
	var err error
	a.ready, err = json.Marshal(wire.Status{
		Status:        wire.StatusReady,
		WorkspacePath: a.workspace,
		WorkspaceURI:  wire.FileURI(a.workspace),
	})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+wire.AgentStreamPath, a.serveStream)
	mux.HandleFunc("POST "+wire.AgentTaskStopPath, a.serveStop)
	mux.HandleFunc("GET "+wire.AgentInstallersPath, a.serveInstallers)
	a.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		// httptest.Server.Close neither closes nor waits for hijacked
		// connections: drop any stream still open and wait for its loop.
		a.mu.Lock()
		all := a.all
		a.mu.Unlock()
		for _, c := range all {
			_ = c.ws.CloseNow()
			<-c.done
		}
		a.srv.Close()
	})
	return a
}

func (a *fakeAgent) serveStream(w http.ResponseWriter, r *http.Request) {
	a.requests.Add(1)
	want := "Bearer " + a.token
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(want)) != 1 {
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return
	}
	if _, ok := wire.Lookup(r.URL.Query().Get(wire.ParamLanguage)); !ok {
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(wire.MaxMessageSize)
	c := &agentConn{ws: ws, query: r.URL.Query(), header: r.Header, done: make(chan struct{})}
	a.mu.Lock()
	a.all = append(a.all, c)
	a.mu.Unlock()
	a.conns <- c
	defer close(c.done)

	ctx := context.Background()
	if c.err = ws.Write(ctx, websocket.MessageText, a.ready); c.err != nil {
		return
	}
	if a.script != nil {
		c.err = a.script(ctx, ws)
		return
	}
	for {
		typ, b, err := ws.Read(ctx)
		if err != nil {
			c.err = err
			return
		}
		if err := ws.Write(ctx, typ, b); err != nil {
			c.err = err
			return
		}
	}
}

// serveStop is the agent's task stop: every open stream closes with 1001.
func (a *fakeAgent) serveStop(w http.ResponseWriter, r *http.Request) {
	if a.noStopRoute {
		http.NotFound(w, r)
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+a.token)) != 1 {
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return
	}
	a.stopCalls.Add(1)
	a.mu.Lock()
	all := a.all
	a.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Go(func() { _ = c.ws.Close(websocket.StatusGoingAway, "task stopped") })
	}
	wg.Wait()
	w.WriteHeader(http.StatusNoContent)
}

// serveInstallers answers a.installers behind the bearer token.
func (a *fakeAgent) serveInstallers(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+a.token)) != 1 {
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return
	}
	a.installerCalls.Add(1)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(a.installers)
}

// url is the agent's base URL, as a sessions file would hold it.
func (a *fakeAgent) url() string { return a.srv.URL }

// session returns a local_pc session served by this agent.
func (a *fakeAgent) session(id string) Session {
	return Session{ID: id, Executor: ExecutorLocalPC, Workspace: a.workspace,
		Agent: AgentRef{URL: a.url(), Token: a.token}}
}

// next returns the next accepted stream.
func (a *fakeAgent) next(t testing.TB) *agentConn {
	t.Helper()
	select {
	case c := <-a.conns:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("fake agent: no stream accepted")
		return nil
	}
}

// ended waits for the stream's echo loop to end and returns its error.
func (c *agentConn) ended(t testing.TB) error {
	t.Helper()
	select {
	case <-c.done:
		return c.err
	case <-time.After(15 * time.Second):
		t.Fatal("fake agent: stream still open")
		return nil
	}
}
