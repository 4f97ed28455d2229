package client

import (
	"errors"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/progress"
	"github.com/kandev/lsp/wasm/pull"
	"github.com/kandev/lsp/wasm/settings"
	"github.com/kandev/lsp/wasm/transport"
)

// shutdownTimeout bounds the polite shutdown request when stopping.
const shutdownTimeout = 2 * clock.Second

// tokenSeq numbers client-generated work-done tokens within this window.
var tokenSeq atomic.Int64

// connection is one generation of a pair's connection: one WebSocket to the
// relay, from dial to close. Its run goroutine owns the lifecycle; every
// status it reports goes through Client.update, which drops it once the
// generation has been replaced.
type connection struct {
	cl  *Client
	p   *pair
	gen uint64
	// server is the catalog id asked for ("" for the language's default);
	// set before run starts, then read-only.
	server string
	// again marks an automatic reconnect after a lost stream (set with
	// server, then read-only).
	again bool
	// name is the catalog id the task host named; guarded by mu.
	name string
	// mask is what the server is used for: its catalog entry's features
	// (the ready frame) and the user's; entryConfig its entry's default
	// configuration. Both are set once, before initialize, then read-only.
	mask        mask
	entryConfig jsonlite.Raw

	ctx    ctxlite.Context // cancelled by Stop, idle teardown, replacement
	cancel ctxlite.CancelFunc
	done   chan struct{} // closed when run has returned

	// progress is this generation's work-done state; guarded by mu.
	progress *progress.Tracker

	// typing holds background calls back while a typing call is out.
	typing typingGate

	// docMu orders the opening and closing of server documents, so a
	// didClose always leaves before the next didOpen of the same file.
	// Lock order: see the package comment.
	docMu sync.Mutex

	mu        sync.Mutex
	byPath    map[string]*serverDoc // absolute task-host path → open server document
	rpc       *jsonrpc.Conn         // set once the task host is ready
	workspace string                // absolute task-host workspace path
	// mdFiles lists the workspace's files for the Markdown server
	// (markdown.go), read through the page once until a files frame;
	// mdFilesOK says it was read.
	mdFiles   []string
	mdFilesOK bool
	folders   []lsptypes.WorkspaceFolder
	ready     bool               // initialized sent; documents may open
	serving   bool               // its documents open and its providers published
	reg       *features.Registry // static and dynamic capabilities, once initialize answered
	pull      *pull.Puller       // pull diagnostics, once initialize answered
	caps      jsonlite.Raw       // the server's initialize capabilities
	ended     bool
	encoding  string                  // a position encoding the server chose that the client refused
	failures  map[string]bool         // provider failure causes already logged
	keptSeq   int                     // the last key handed out by keep
	keptRing  [keptResults]keptResult // answers kept for resolve calls
	contents  map[string]bool         // server documents the page read (content.go), by server URI

	probMu    sync.Mutex // orders problems-list updates with the generation's end
	probEnded bool       // guarded by probMu

	hb      heartbeat // the path check, once ready; guarded by mu
	stalled bool      // ended by an unanswered heartbeat; guarded by mu
	// res is the transport when the task host holds servers through a
	// lost socket (resume.go); nil otherwise. Set under mu before the
	// engine starts, then never changed: Nudge reads it while a
	// reconnecting generation is still dialing.
	res *resumable

	provMu sync.Mutex                    // orders provider registrations and their disposal
	provs  map[string]features.Providers // registered, by Monaco language id; guarded by provMu
}

func newConnection(cl *Client, p *pair, gen uint64) *connection {
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	return &connection{
		cl:       cl,
		p:        p,
		gen:      gen,
		ctx:      ctx,
		cancel:   cancel,
		done:     make(chan struct{}),
		progress: progress.New(),
		byPath:   make(map[string]*serverDoc),
	}
}

// notify sends a notification with the shared write timeout.
func (c *connection) notify(rpc *jsonrpc.Conn, method string, params jsonlite.Appender) error {
	if rpc == nil {
		return jsonrpc.ErrClosed
	}
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), wire.WriteTimeout)
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

	u := ServerStreamURL(c.cl.cfg.RelayURL, c.p.key.sessionID, string(c.p.key.language), c.server)
	if c.again {
		u += "&" + wire.ParamReconnect + "=1" // counted by the relay
	}
	sock, err := c.cl.cfg.Dial(c.ctx, u)
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

	c.entryConfig = jsonlite.Raw(ready.Configuration)
	var own []string
	if c.cl.cfg.Features != nil {
		if id := c.server; id != "" {
			own = c.cl.cfg.Features(id)
		} else if id = ready.Server; id != "" {
			own = c.cl.cfg.Features(id)
		}
	}
	c.mask = newMask(ready.Features, own)
	folders := workspaceFolders(rootURI, workspace, ready.RepoSubpaths)
	if ready.Resume != "" {
		// The task host holds the server through a lost socket: resume it
		// under the engine rather than start again (resume.go).
		res := newResumable(c, sock, ready.Resume)
		c.mu.Lock()
		c.res = res
		c.mu.Unlock()
		sock = res
	}
	rpc := jsonrpc.NewConn(sock, jsonrpc.HandlerFunc(c.handle))
	c.mu.Lock()
	c.rpc = rpc
	c.workspace = path.Clean(workspace)
	c.folders = folders
	c.mu.Unlock()

	// The process runs; initialize is pending from now, measured locally.
	token := "kandev-initialize-" + strconv.FormatInt(tokenSeq.Add(1), 10)
	c.mu.Lock()
	c.progress.Expect(progress.StringToken(token))
	c.mu.Unlock()
	c.cl.update(c, StateStarting, max(c.cl.cfg.Clock.Now(), 1))

	var res lsptypes.InitializeResult
	var raw jsonlite.Raw
	err = rpc.Call(c.ctx, lsptypes.MethodInitialize, c.initializeParams(rootURI, folders, token, ready.InitializationOptions), &raw)
	if err == nil && len(raw) > 0 {
		if res, err = lsptypes.ParseInitializeResult(raw); err != nil {
			err = errors.New("jsonrpc: decode " + lsptypes.MethodInitialize + " result: " + err.Error())
		}
	}
	if enc := positionEncoding(res.Capabilities); err == nil && enc != "utf-16" {
		// Monaco counts UTF-16 code units; any other count would shift
		// every range on a line with non-ASCII text. Refuse, visibly.
		c.mu.Lock()
		c.encoding = enc
		c.mu.Unlock()
		endErr = c.end(rpc, errEncoding)
		return
	}
	if err == nil {
		// The registry exists before initialized goes out: a server may
		// register capabilities as soon as it reads it.
		reg, rerr := features.NewRegistry(res.Capabilities)
		if rerr != nil {
			c.cl.cfg.Logf("lsp: capabilities: %v", rerr)
			reg, _ = features.NewRegistry(nil)
		}
		puller := c.newPuller(rpc, res.Capabilities)
		c.mu.Lock()
		c.reg, c.pull = reg, puller
		c.caps = append(jsonlite.Raw(nil), res.Capabilities...)
		c.mu.Unlock()
		err = c.notify(rpc, lsptypes.MethodInitialized, jsonlite.Raw("{}"))
		if cfg := c.config(); err == nil && ready.PushConfiguration && jsonlite.Valid(cfg) {
			// A server that reads its settings only from
			// didChangeConfiguration (the Markdown server: it checks no
			// links until it has them) gets them at once, as VS Code's
			// client synchronizes its section at start.
			err = c.notify(rpc, lsptypes.MethodDidChangeConfiguration, lsptypes.DidChangeConfigurationParams{Settings: cfg})
		}
	}
	if err != nil {
		endErr = c.end(rpc, err)
		if rpcErr, ok := errors.AsType[*jsonrpc.Error](err); ok {
			// The server's own words, shown as is. The rejection is why
			// the connection ends: a close that follows it (the server
			// exits, 4006) is its consequence and must not hide it.
			detail, endErr = rpcErr.Message, err
		}
		return
	}

	c.mu.Lock()
	c.ready = true
	c.mu.Unlock()
	if ready.Heartbeat {
		c.startHeartbeat(rpc) // armed before ready is reported
	}
	c.editorReady(ready)
	// Ready, and the pair's documents open here, only if this generation
	// is still the pair's current one.
	docs, _ := c.cl.update(c, StateReady, 0)
	for _, d := range docs {
		d.open(c)
	}
	// The providers come after the didOpens: registering them with Monaco
	// is the longest step here on a cold page, and the server starts on
	// the documents that much sooner. Nothing the page does runs in
	// between, so no provider request can precede its document's didOpen.
	c.publishProviders()
	c.cl.republish(c)
	c.cl.announceServed(c)

	select {
	case <-rpc.Done():
		endErr = rpc.Err()
		c.mu.Lock()
		if c.stalled {
			endErr = errStalled
		}
		c.mu.Unlock()
	case <-c.ctx.Done():
		endErr = c.end(rpc, c.ctx.Err())
	}
}

// end closes rpc and returns why the connection ended. Stopping (ctx
// cancelled) sends shutdown and exit first.
func (c *connection) end(rpc *jsonrpc.Conn, cause error) error {
	if c.ctx.Err() != nil {
		c.cl.update(c, StateStopping, 0)
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), c.cl.cfg.ShutdownTimeout)
		if rpc.Call(ctx, lsptypes.MethodShutdown, nil, nil) == nil {
			_ = rpc.Notify(ctx, lsptypes.MethodExit, nil)
		}
		cancel()
		_ = rpc.Close()
		<-rpc.Done()
		return ctxlite.Canceled
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
		st, err := parseStatus(frame)
		if err != nil {
			c.cl.cfg.Logf("lsp: bad status frame: %v", err)
			continue
		}
		if st.Server != "" {
			c.cl.named(c, st.Server)
		}
		switch st.Status {
		case wire.StatusInstalling:
			c.cl.update(c, StateInstalling, 0)
		case wire.StatusInstalled:
			c.cl.update(c, StateStarting, 0)
		case wire.StatusInstallFailed:
			// Shown with the error state when the 4003 close follows.
			detail = st.Error
		case wire.StatusReady:
			return st, detail, nil
		}
	}
}

// Outcome maps how a connection ended to the pair's final state: an
// intentional end (Stop, idle, replacement) is off; 4002, 4004 and 4005, a
// normal close by the far side and a relay draining for a restart (1012)
// are unavailable; everything else is an error. It returns the close code
// (0 without one).
func Outcome(endErr error, intentional bool) (State, int) {
	code := 0
	if ce, ok := errors.AsType[*transport.CloseError](endErr); ok {
		code = ce.Code
	}
	switch {
	case intentional:
		return StateOff, 0
	case code == 1000 || code == 1001 || code == int(wire.CloseServiceRestart) ||
		code == int(wire.CloseUnavailable) || code == int(wire.CloseExecutorUnsupported) || code == int(wire.CloseCapacity):
		return StateUnavailable, code
	}
	return StateError, code
}

// finish publishes the final state (if this generation is still current),
// clears the documents opened on it and lets the pair connect afresh.
func (c *connection) finish(endErr error, detail string) {
	intentional := c.ctx.Err() != nil
	state, code := Outcome(endErr, intentional)
	if state != StateError || (code != 0 && code != int(wire.CloseInstallFailed)) {
		// Install detail belongs to 4003, the initialize message to a
		// rejection without a close code; transport prose never.
		detail = ""
	}
	if state == StateError {
		c.cl.cfg.Logf("lsp: %s/%s ended: %v", c.p.key.sessionID, string(c.p.key.language), endErr)
	}
	c.cancel()
	c.stopHeartbeat()
	if p := c.puller(); p != nil {
		p.Stop() // no report of this generation is shown after it
	}

	cl := c.cl
	cl.mu.Lock()
	c.mu.Lock()
	c.ended = true
	c.ready = false
	c.byPath = make(map[string]*serverDoc)
	c.progress.Clear()
	c.mu.Unlock()
	p := c.p
	docs := make([]*Document, 0, len(p.docs))
	for d := range p.docs {
		docs = append(docs, d)
	}
	reopen, reconnecting, gaveUp := false, false, false
	if p.conn == c {
		p.conn = nil
		if p.idle != nil {
			p.idle.Stop()
			p.idle = nil
		}
		c.mu.Lock()
		enc := c.encoding
		c.mu.Unlock()
		if state != StateOff && cl.canReconnectLocked(p, endErr, code) {
			// The path to the task host was lost, not the server: connect
			// again by itself. The documents stay open for the user and
			// keep their markers until the next generation publishes.
			reconnecting = true
			cl.scheduleReconnectLocked(p, c.gen)
			p.st = Status{Gen: c.gen, State: StateReconnecting, CloseCode: code, Server: p.st.Server,
				Attempt: p.attempts, LostAt: p.lostAt}
		} else {
			gaveUp = p.attempts > 0
			p.wasReady = false
			cl.endEpisodeLocked(p)
			p.st = Status{Gen: c.gen, State: state, CloseCode: code, Message: detail, Encoding: enc, Server: p.st.Server}
		}
		cl.recordLocked(p)
		reopen, p.reopen = p.reopen && state == StateOff, false
	}
	cl.mu.Unlock()

	c.editorEnded() // this connection's providers and suppression only
	c.dropProblems()
	for _, d := range docs {
		// Only documents still open on this generation.
		d.detach(c, reconnecting)
		if gaveUp {
			// Markers kept through the failed attempts go now.
			d.clearStaleMarkers()
		}
	}
	cl.deliver()
	if reopen {
		cl.reopen(p)
	}
}

// workspaceFolders are the task workspace and each repository inside it
// (the ready frame's repoSubpaths), as initialize declares them and
// workspace/workspaceFolders answers.
func workspaceFolders(rootURI, workspace string, repos []string) []lsptypes.WorkspaceFolder {
	root := path.Clean(workspace)
	out := []lsptypes.WorkspaceFolder{{URI: rootURI, Name: path.Base(root)}}
	for _, r := range repos {
		r = strings.Trim(path.Clean("/"+r), "/")
		if r == "" {
			continue // the workspace itself
		}
		out = append(out, lsptypes.WorkspaceFolder{URI: wire.FileURI(path.Join(root, r)), Name: path.Base(r)})
	}
	return out
}

func (c *connection) initializeParams(rootURI string, folders []lsptypes.WorkspaceFolder, token string, entry wire.RawJSON) lsptypes.InitializeParams {
	p := lsptypes.InitializeParams{
		ProcessID:        nil,
		ClientInfo:       &lsptypes.ClientInfo{Name: "kandev-lsp", Version: c.cl.cfg.Version},
		RootURI:          rootURI,
		WorkspaceFolders: folders,
		Capabilities: lsptypes.ClientCapabilities{
			Workspace: &lsptypes.WorkspaceClientCapabilities{
				WorkspaceFolders:       true,
				Configuration:          true,
				DidChangeConfiguration: &lsptypes.DynamicRegistration{},
				More:                   workspaceCapabilities(c.cl.cfg.FileOps),
			},
			TextDocument: jsonlite.Raw(textDocumentCapabilities),
			Window:       &lsptypes.WindowClientCapabilities{WorkDoneProgress: true, ShowDocument: c.cl.cfg.ShowDocument != nil},
			// The only encoding Monaco's positions are in.
			General: jsonlite.Raw(`{"positionEncodings":["utf-16"]}`),
		},
		WorkDoneToken: jsonlite.Raw(jsonlite.AppendString(nil, token)),
	}
	// A server's own options (the TypeScript servers' file watching, the
	// VS Code servers' formatter) are its catalog entry's, in the ready
	// frame: no server is special-cased here.
	p.InitializationOptions = layOver(jsonlite.Raw(entry), nil)
	return p
}

// handle serves the server's requests and notifications. It runs on the
// JSON-RPC engine's handler goroutines, never on its reader.
func (c *connection) handle(_ ctxlite.Context, req *jsonrpc.Request) (jsonlite.Appender, error) {
	switch req.Method {
	case lsptypes.MethodPublishDiagnostics:
		if req.IsNotification() {
			c.publishDiagnostics(req.Params)
		}
		return nil, nil
	case lsptypes.MethodWorkspaceConfiguration:
		return c.configuration(req.Params)
	case pull.MethodRefresh:
		if p := c.puller(); p != nil {
			p.Refresh()
		}
		return nil, nil
	case lsptypes.MethodWorkspaceFolders:
		c.mu.Lock()
		folders := c.folders
		c.mu.Unlock()
		return jsonlite.Raw(lsptypes.AppendWorkspaceFolders(nil, folders)), nil
	case lsptypes.MethodWorkDoneProgressCreate, lsptypes.MethodProgress:
		c.trackProgress(req.Method == lsptypes.MethodWorkDoneProgressCreate, req.Params)
		return nil, nil
	case lsptypes.MethodRegisterCapability, lsptypes.MethodUnregisterCapability:
		c.registration(req.Method == lsptypes.MethodRegisterCapability, req.Params)
		return nil, nil
	case "": // no JSON-RPC: the task host's own frame
		switch {
		case wire.IsFilesFrame(req.Params):
			c.filesChanged(req.Params)
		case wire.IsHeartbeatFrame(req.Params):
			c.heard(req.Params)
		}
		return nil, nil
	case lsptypes.MethodSemanticTokensRefresh, lsptypes.MethodInlayHintRefresh, features.MethodCodeLensRefresh, features.MethodFoldingRangeRefresh:
		f := features.SemanticTokens
		switch req.Method {
		case lsptypes.MethodInlayHintRefresh:
			f = features.InlayHints
		case features.MethodCodeLensRefresh:
			f = features.CodeLens
		case features.MethodFoldingRangeRefresh:
			f = features.FoldingRange
		}
		if e := c.cl.cfg.Editor; e != nil {
			e.Refresh(c.id(), f)
		}
		return nil, nil
	case features.MethodTextDocumentContentRefresh:
		c.refreshContent(req.Params)
		return nil, nil
	case lsptypes.MethodApplyEdit:
		// The answer waits for the editor (a file may be read first),
		// without holding up the messages after it.
		var edit jsonlite.Raw
		if v, err := jsonlite.Parse(req.Params); err == nil {
			edit = v.Get("edit").Raw()
		}
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			ok, reason := false, "malformed workspace/applyEdit params"
			if len(edit) > 0 {
				ok, reason = c.applyEdit(ctx, edit)
			}
			return appliedResult(ok, reason), nil
		}), nil
	case lsptypes.MethodShowMessage, lsptypes.MethodShowMessageRequest:
		return c.showMessage(req)
	case methodTSServerRequest:
		if req.IsNotification() {
			c.tsserverRequests(req.Params)
		}
		return nil, nil
	case MethodShowDocument:
		// Like applyEdit, the answer waits for the page.
		params := append(jsonlite.Raw(nil), req.Params...)
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			if c.showDocument(ctx, params) {
				return jsonlite.Raw(`{"success":true}`), nil
			}
			return jsonlite.Raw(`{"success":false}`), nil
		}), nil
	}
	if !req.IsNotification() {
		if a, ok := c.markdownRequest(req); ok {
			return a, nil
		}
	}
	if req.IsNotification() {
		return nil, nil // window/logMessage, …: not shown
	}
	return nil, jsonrpc.ErrMethodNotFound
}

// appliedResult is ApplyWorkspaceEditResult.
func appliedResult(ok bool, reason string) jsonlite.Raw {
	if ok {
		return jsonlite.Raw(`{"applied":true}`)
	}
	b := jsonlite.AppendString([]byte(`{"applied":false,"failureReason":`), reason)
	return jsonlite.Raw(append(b, '}'))
}

// configuration answers workspace/configuration item by item from the
// language's configuration object, by section.
func (c *connection) configuration(params jsonlite.Raw) (jsonlite.Appender, error) {
	p, err := lsptypes.ParseConfigurationParams(params)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.ErrInvalidParams.Code, err.Error())
	}
	cfg := c.config()
	out := jsonlite.Raw{'['}
	for i, it := range p.Items {
		if i > 0 {
			out = append(out, ',')
		}
		sec := settings.Section(cfg, it.Section)
		if !jsonlite.Valid(sec) {
			return nil, jsonrpc.NewError(jsonrpc.ErrInternal.Code, "configuration of "+string(c.p.key.language)+" is not valid JSON")
		}
		out = append(out, sec...)
	}
	return append(out, ']'), nil
}

// serverID is the catalog id the connection runs: the one asked for, else
// the one its task host named ("" before it did). c.mu must not be held.
func (c *connection) serverID() string {
	if c.server != "" {
		return c.server
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name
}

// config is the server's configuration object: the user's for the server
// (Configs) laid over its catalog entry's defaults (the ready frame).
func (c *connection) config() jsonlite.Raw {
	var own jsonlite.Raw
	if c.cl.cfg.Configs != nil {
		own = c.cl.cfg.Configs.Config(c.p.key.language, c.server, c.p.key.slot == 0)
	}
	if len(c.entryConfig) == 0 {
		return own // as the user wrote it: a broken one is refused, not replaced
	}
	return layOver(c.entryConfig, own)
}

// parseStatus decodes a task-host status frame.
func parseStatus(frame []byte) (wire.Status, error) {
	v, err := jsonlite.Parse(frame)
	if err != nil {
		return wire.Status{}, err
	}
	var st wire.Status
	ok := v.DecodeObject()
	for _, f := range []struct {
		key string
		dst *string
	}{{"status", &st.Status}, {"language", &st.Language}, {"server", &st.Server}, {"error", &st.Error}, {"workspacePath", &st.WorkspacePath}, {"workspaceUri", &st.WorkspaceURI}} {
		s, fok := v.Get(f.key).DecodeString()
		*f.dst, ok = s, ok && fok
	}
	if o := v.Get("initializationOptions"); o.Kind() == jsonlite.Object {
		st.InitializationOptions = wire.RawJSON(append([]byte(nil), o.Raw()...))
	}
	if o := v.Get("configuration"); o.Kind() == jsonlite.Object {
		st.Configuration = wire.RawJSON(append([]byte(nil), o.Raw()...))
	}
	if fs := v.Get("features"); fs.Kind() == jsonlite.Array {
		st.Features = []string{}
		for _, e := range fs.Elems() {
			if f, fok := e.Str(); fok {
				st.Features = append(st.Features, f)
			}
		}
	}
	st.Heartbeat, _ = v.Get("heartbeat").Bool()
	st.PushConfiguration, _ = v.Get("pushConfiguration").Bool()
	st.Resume, _ = v.Get("resume").Str()
	st.Received, _ = v.Get("received").Uint()
	subs := v.Get("repoSubpaths")
	ok = ok && subs.DecodeArray()
	if ok && subs.Kind() == jsonlite.Array {
		st.RepoSubpaths = []string{}
		for _, e := range subs.Elems() {
			s, eok := e.DecodeString()
			ok = ok && eok
			st.RepoSubpaths = append(st.RepoSubpaths, s)
		}
	}
	if !ok {
		return wire.Status{}, errBadStatus
	}
	return st, nil
}

// errEncoding ends a connection whose server chose a position encoding
// other than UTF-16.
var errEncoding = errors.New("client: the server's position encoding is not utf-16")

// positionEncoding is the encoding the server's capabilities chose: its
// positionEncoding, or "utf-16" (LSP's default) when absent or unreadable
// (the registry reports capabilities it cannot read).
func positionEncoding(capabilities []byte) string {
	v, err := jsonlite.Parse(capabilities)
	if err != nil {
		return "utf-16"
	}
	enc, ok := v.Get("positionEncoding").Str()
	if !ok {
		return "utf-16"
	}
	return enc
}

// errBadStatus reports a status frame of the wrong shape.
var errBadStatus = errors.New("malformed status frame")

// trackProgress applies window/workDoneProgress/create (create) or
// $/progress to this generation's tracker and publishes a change, only while
// the generation is current.
func (c *connection) trackProgress(create bool, params jsonlite.Raw) {
	now := c.cl.cfg.Clock.Now()
	cl := c.cl
	// Client.mu spans the check, the change and the record, so the
	// statuses queued carry the snapshots in the order they were taken.
	cl.mu.Lock()
	changed := c.p.conn == c && c.ctx.Err() == nil
	var snap progress.Snapshot
	if changed {
		c.mu.Lock()
		if create {
			changed = c.progress.Create(params)
		} else {
			changed = c.progress.Progress(params, now)
		}
		if changed {
			snap = c.progress.Snapshot()
		}
		c.mu.Unlock() // before recordLocked, which takes it for serverID
	}
	if changed {
		c.p.st.Progress = snap
		cl.recordLocked(c.p)
	}
	cl.mu.Unlock()
	if changed {
		cl.deliver()
	}
}

func (c *connection) publishDiagnostics(raw jsonlite.Raw) {
	// The message was checked as a whole when it was read.
	p, err := lsptypes.ReadPublishDiagnosticsParams(jsonlite.Checked(raw))
	if err != nil {
		c.cl.cfg.Logf("lsp: bad publishDiagnostics: %v", err)
		return
	}
	c.setDiagnostics(p.URI, pushed, p.Diagnostics)
}
