package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/protocol"
	"github.com/kandev/lsp/wasm/transport"
)

// shutdownTimeout bounds the polite shutdown request when stopping.
const shutdownTimeout = 2 * time.Second

// tokenSeq numbers client-generated work-done tokens within this window.
var tokenSeq atomic.Int64

// connection is one WebSocket to the relay for one (session, language),
// from dial to close. Its run goroutine owns the lifecycle and is the only
// publisher of its status.
type connection struct {
	cl  *Client
	key connKey

	ctx    context.Context // cancelled by stop
	cancel context.CancelFunc
	done   chan struct{} // closed when run has returned
	last   Status        // the last status run published

	mu        sync.Mutex
	docs      map[*Document]struct{}
	byPath    map[string]*Document // absolute task-host path → opened doc
	rpc       *jsonrpc.Conn        // set once the task host is ready
	workspace string               // absolute task-host workspace path
	ready     bool                 // initialized sent; documents may open
	caps      json.RawMessage      // the server's capabilities, for providers
	ended     bool
}

func newConnection(cl *Client, key connKey) *connection {
	ctx, cancel := context.WithCancel(context.Background())
	return &connection{
		cl:     cl,
		key:    key,
		ctx:    ctx,
		cancel: cancel,
		done:   make(chan struct{}),
		docs:   make(map[*Document]struct{}),
		byPath: make(map[string]*Document),
	}
}

func (c *connection) stop() { c.cancel() }

// status publishes a state change; repeats (installed then ready are both
// "starting") are not published twice. Only run calls it.
func (c *connection) status(state State, code int, msg string) {
	s := Status{
		SessionID: c.key.sessionID,
		Language:  string(c.key.language),
		State:     state,
		CloseCode: code,
		Message:   msg,
	}
	if s == c.last {
		return
	}
	c.last = s
	c.cl.publish(s)
}

// register attaches a document and reports whether the server is ready, in
// which case the caller opens it. The Client calls it holding its own lock,
// while the connection is still in the map and therefore not ended.
func (c *connection) register(d *Document) (ready bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.docs[d] = struct{}{}
	return c.ready
}

// remove detaches a closed document.
func (c *connection) remove(d *Document, absPath string) {
	c.mu.Lock()
	delete(c.docs, d)
	if absPath != "" && c.byPath[absPath] == d {
		delete(c.byPath, absPath)
	}
	c.mu.Unlock()
}

// notify sends a notification with the shared write timeout.
func (c *connection) notify(rpc *jsonrpc.Conn, method string, params any) error {
	ctx, cancel := context.WithTimeout(context.Background(), wire.WriteTimeout)
	defer cancel()
	return rpc.Notify(ctx, method, params)
}

// run is the connection's whole life.
func (c *connection) run() {
	defer close(c.done)
	var (
		endErr error  // why the connection ended
		detail string // user-visible detail kept for the final status
	)
	defer func() { c.finish(endErr, detail) }()

	c.status(StateConnecting, 0, "")
	sock, err := c.cl.cfg.Dial(c.ctx, StreamURL(c.cl.cfg.RelayURL, c.key.sessionID, string(c.key.language)))
	if err != nil {
		endErr = err
		return
	}
	ready, detail, err := c.awaitReady(sock)
	if err != nil {
		_ = sock.Close()
		endErr = err
		return
	}
	workspace := ready.WorkspacePath
	rootURI := ready.WorkspaceURI
	if workspace == "" {
		workspace, _ = wire.PathFromFileURI(rootURI)
	}
	if rootURI == "" {
		rootURI = wire.FileURI(workspace)
	}
	if workspace == "" {
		_ = sock.Close()
		endErr = errors.New("client: ready frame without a workspace")
		return
	}

	rpc := jsonrpc.NewConn(sock, jsonrpc.HandlerFunc(c.handle))
	c.mu.Lock()
	c.rpc = rpc
	c.workspace = path.Clean(workspace)
	c.mu.Unlock()
	c.status(StateStarting, 0, "")

	var res protocol.InitializeResult
	err = rpc.Call(c.ctx, protocol.MethodInitialize, c.initializeParams(rootURI, workspace), &res)
	if err == nil {
		err = c.notify(rpc, protocol.MethodInitialized, struct{}{})
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			detail = rpcErr.Message // the server's own words, shown as is
		}
		endErr = c.end(rpc, err)
		return
	}

	c.mu.Lock()
	c.ready = true
	c.caps = res.Capabilities
	docs := make([]*Document, 0, len(c.docs))
	for d := range c.docs {
		docs = append(docs, d)
	}
	c.mu.Unlock()
	c.status(StateReady, 0, "")
	for _, d := range docs {
		d.open()
	}

	select {
	case <-rpc.Done():
		endErr = rpc.Err()
	case <-c.ctx.Done():
		endErr = c.end(rpc, c.ctx.Err())
	}
}

// end closes rpc and returns why the connection ended. Stopping (ctx
// cancelled) sends shutdown and exit first.
func (c *connection) end(rpc *jsonrpc.Conn, cause error) error {
	if c.ctx.Err() != nil {
		c.status(StateStopping, 0, "")
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		if rpc.Call(ctx, protocol.MethodShutdown, nil, nil) == nil {
			_ = rpc.Notify(ctx, protocol.MethodExit, nil)
		}
		cancel()
		_ = rpc.Close()
		<-rpc.Done()
		return context.Canceled
	}
	select {
	case <-rpc.Done(): // the socket already went away: keep its close code
		return rpc.Err()
	default:
	}
	_ = rpc.Close()
	<-rpc.Done()
	return cause
}

// awaitReady reads status frames until the task host reports ready.
func (c *connection) awaitReady(sock jsonrpc.Transport) (ready wire.Status, detail string, err error) {
	for {
		frame, err := sock.Read(c.ctx)
		if err != nil {
			return wire.Status{}, detail, err
		}
		if !wire.IsStatusFrame(frame) {
			c.cl.cfg.Logf("lsp: dropped a JSON-RPC frame before ready")
			continue
		}
		var st wire.Status
		if err := json.Unmarshal(frame, &st); err != nil {
			c.cl.cfg.Logf("lsp: bad status frame: %v", err)
			continue
		}
		switch st.Status {
		case wire.StatusInstalling:
			c.status(StateInstalling, 0, "")
		case wire.StatusInstalled:
			c.status(StateStarting, 0, "")
		case wire.StatusInstallFailed:
			// Shown with the error state when the 4003 close follows.
			detail = st.Error
		case wire.StatusReady:
			return st, detail, nil
		}
	}
}

// finish publishes the final state, clears every document's markers and
// lets a later OpenDocument dial afresh.
func (c *connection) finish(endErr error, detail string) {
	state, code := StateError, 0
	var ce *transport.CloseError
	switch {
	case errors.As(endErr, &ce):
		code = ce.Code
		if ce.Normal() {
			state = StateOff
		}
	case errors.Is(endErr, context.Canceled) && c.ctx.Err() != nil:
		state = StateOff
	}
	if state != StateError {
		detail = "" // an install or initialize failure matters only if it ended in error
	}
	if endErr != nil && state == StateError {
		c.cl.cfg.Logf("lsp: %s/%s ended: %v", c.key.sessionID, c.key.language, endErr)
	}

	// Leave the map, stop taking documents and record the final status in
	// one step: the next OpenDocument for the pair starts a new connection
	// whose statuses come after this one's.
	cl := c.cl
	cl.mu.Lock()
	if cl.conns[c.key] == c {
		delete(cl.conns, c.key)
	}
	c.mu.Lock()
	c.ended = true
	c.ready = false
	docs := make([]*Document, 0, len(c.docs))
	for d := range c.docs {
		docs = append(docs, d)
	}
	c.byPath = make(map[string]*Document)
	c.mu.Unlock()
	cl.recordLocked(Status{
		SessionID: c.key.sessionID,
		Language:  string(c.key.language),
		State:     state,
		CloseCode: code,
		Message:   detail,
	})
	cl.mu.Unlock()

	for _, d := range docs {
		d.detach()
	}
	cl.deliver()
}

func (c *connection) initializeParams(rootURI, workspace string) protocol.InitializeParams {
	token := "kandev-initialize-" + strconv.FormatInt(tokenSeq.Add(1), 10)
	return protocol.InitializeParams{
		ProcessID:  nil,
		ClientInfo: &protocol.ClientInfo{Name: "kandev-lsp", Version: c.cl.cfg.Version},
		RootURI:    rootURI,
		WorkspaceFolders: []protocol.WorkspaceFolder{
			{URI: rootURI, Name: path.Base(path.Clean(workspace))},
		},
		Capabilities: protocol.ClientCapabilities{
			Workspace: &protocol.WorkspaceClientCapabilities{WorkspaceFolders: true, Configuration: true},
			TextDocument: &protocol.TextDocumentClientCapabilities{
				Synchronization:    &protocol.TextDocumentSyncClientCapabilities{DidSave: true},
				PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{},
			},
			Window: &protocol.WindowClientCapabilities{WorkDoneProgress: true},
		},
		WorkDoneToken: json.RawMessage(strconv.Quote(token)),
	}
}

// handle serves the server's requests and notifications.
func (c *connection) handle(_ context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case protocol.MethodPublishDiagnostics:
		if req.IsNotification() {
			c.publishDiagnostics(req.Params)
		}
		return nil, nil
	case protocol.MethodWorkspaceConfiguration:
		// One null per item: "no configuration" for every section until the
		// user's per-language settings are wired.
		var p protocol.ConfigurationParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", jsonrpc.ErrInvalidParams, err)
		}
		return make([]any, len(p.Items)), nil
	case protocol.MethodWorkDoneProgressCreate,
		protocol.MethodRegisterCapability,
		protocol.MethodUnregisterCapability,
		protocol.MethodSemanticTokensRefresh:
		return nil, nil
	}
	if req.IsNotification() {
		return nil, nil // $/progress, window/logMessage, …: not yet shown
	}
	return nil, jsonrpc.ErrMethodNotFound
}

func (c *connection) publishDiagnostics(raw json.RawMessage) {
	var p protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(raw, &p); err != nil {
		c.cl.cfg.Logf("lsp: bad publishDiagnostics: %v", err)
		return
	}
	abs, ok := wire.PathFromFileURI(string(p.URI))
	if !ok {
		return
	}
	c.mu.Lock()
	d := c.byPath[path.Clean(abs)]
	c.mu.Unlock()
	if d != nil {
		d.diagnostics(p.Diagnostics)
	}
}
