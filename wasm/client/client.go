package client

import (
	"errors"
	"path"
	"strings"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/docsync"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/navigate"
	"github.com/kandev/lsp/wasm/problems"
	"github.com/kandev/lsp/wasm/progress"
	"github.com/kandev/lsp/wasm/suppress"
)

// DefaultDebounce is how long a document of a full-text server stays quiet
// before its text is sent.
const DefaultDebounce = 200 * clock.Millisecond

// DefaultIdleTimeout is how long a connection without documents stays open.
const DefaultIdleTimeout = 2 * clock.Minute

// Dialer opens the WebSocket to url. The returned transport's Read must
// report the socket's close with a *transport.CloseError carrying the code.
type Dialer func(ctx ctxlite.Context, url string) (jsonrpc.Transport, error)

// TextSource reads a document's current text (Monaco's model.getValue()).
// It is read once per didOpen and once per didChange that carries the whole
// text.
type TextSource interface {
	Text() string
}

// MarkerSink shows a document's markers (monaco.editor.setModelMarkers).
// An empty slice clears them. Calls for one document never overlap.
type MarkerSink interface {
	SetMarkers(markers []monaco.Marker)
}

// Policy decides whether a pair without a connection may connect when a
// document opens or the settings change (auto-start, manual start, stop).
type Policy interface {
	ShouldConnect(sessionID string, lang wire.Language) bool
}

// Configs supplies each server's configuration object (nil for none),
// answered by section to workspace/configuration: the server is the
// catalog id the connection was asked for ("" for the language's default)
// and lead says it is the first server of the language's list.
type Configs interface {
	Config(lang wire.Language, server string, lead bool) []byte
}

// Config configures a Client.
type Config struct {
	// RelayURL is the browser-facing stream route, e.g. ws://host/lsp.
	RelayURL string
	// Dial opens WebSockets. Required.
	Dial Dialer
	// Clock tells time and schedules timers; nil means the wall clock.
	Clock Clock
	// Soon runs f once the current turn of the event loop is over (see
	// docsync.Clock): a document's first incremental change of a turn
	// leaves at once, the turn's later ones then. nil runs f on its own
	// goroutine.
	Soon func(f func())
	// Debounce is the quiet time before a full-text didChange; 0 means
	// DefaultDebounce.
	Debounce clock.Duration
	// IdleTimeout is how long a pair without documents keeps its
	// connection; 0 means DefaultIdleTimeout.
	IdleTimeout clock.Duration
	// ShutdownTimeout bounds the polite shutdown request when stopping; 0
	// means 2 seconds.
	ShutdownTimeout clock.Duration
	// Policy decides automatic connects; nil connects every opened document.
	Policy Policy
	// Configs answers workspace/configuration; nil answers null.
	Configs Configs
	// Servers lists the catalog ids of the servers chosen for a language,
	// in order: each gets its own connection and every document of the
	// language is opened on all of them. Empty (or a nil Servers) is the
	// language's default server, asked for without an id, and the servers
	// its catalog entry runs beside it (Vue's TypeScript server).
	Servers func(lang wire.Language) []string
	// Features limits what a server is used for (wire.Feature* values)
	// beyond its catalog entry's own mask; nil, or a nil answer: no limit.
	Features func(server string) []string
	// Formatter names the server that formats a language's files; "" or
	// nil: the first capable one of the list.
	Formatter func(lang wire.Language) string
	// OnStatus receives every status change, in order, from the goroutine
	// that caused it; it must not block (hand the status to another
	// goroutine). It may call Status and the Document methods that report
	// no status (Changed, MarkDirty, URI…); not OpenDocument, Document.Close,
	// Start, Stop, Close or anything else that reports one, which would wait
	// for this delivery to end (see Locks in the package comment).
	OnStatus func(Status)
	// Version is sent as clientInfo.version.
	Version string
	// OnMessage receives the servers' window/showMessage and
	// window/showMessageRequest messages, from the connection's handler;
	// it must not block. A request is answered with Respond; without
	// OnMessage requests are answered null at once and messages dropped.
	OnMessage func(Message)
	// Logf receives diagnostics for developers; nil discards them.
	Logf func(format string, args ...any)
	// Editor receives provider registrations, refreshes, suppression
	// snapshots and workspace edits to apply; nil means none (no Monaco
	// providers).
	Editor Editor
	// FileOps are the file operations the page supports in workspace
	// edits (its createFile, renameFile, deleteFile callbacks); the client
	// capability advertises exactly these.
	FileOps features.FileOps
	// Library says the page opens files outside the workspace read-only
	// (the page's readLibraryFile): their locations map to library model
	// URIs and Navigate hands them to the page (navigate.Workspace.Library).
	// Without it they stay unhandled.
	Library bool
	// ReadFile reads a task file's text (the page's readFile), for
	// reloading an open document whose file changed on disk; ok is false
	// for a file that cannot be read. Nil reloads nothing.
	ReadFile func(ctx ctxlite.Context, sessionID, path string) (text string, ok bool)
	// ListFiles lists a task workspace's files (the page's listFiles):
	// slash-separated workspace-relative paths. The Markdown server reads
	// the workspace through it (markdown.go); nil: it sees none.
	ListFiles func(ctx ctxlite.Context, sessionID string) (paths []string, ok bool)
	// OnDiskChange learns of changes on disk to open documents' files
	// (see Document.diskChanged), from a goroutine of the document; it
	// must not block. Nil drops them.
	OnDiskChange func(DiskChange)
	// OnWorkspaceFiles learns which workspace paths were created, changed
	// or deleted on the task host (a files frame: the agent's watcher, so
	// also what a build or a terminal did), opened or not, for a Files
	// tree to follow. Every connection of a session hears the same frames:
	// one of them reports (see connection.reportsFiles). It is called on
	// the connection's handler and must not block. Nil drops them.
	OnWorkspaceFiles func(sessionID string, changes []FileChange)
	// OnProblems learns that a session's problems list (Problems)
	// changed; it must not block. Nil drops the events.
	OnProblems func(sessionID string)
	// ShowDocument shows what a server's window/showDocument asks for and
	// reports whether it was shown; it may block until the page answered
	// or ctx ends. Nil: the client does not offer window/showDocument.
	ShowDocument func(ctx ctxlite.Context, d ShowDocument) bool
}

type connKey struct {
	sessionID string
	language  wire.Language
	// slot is the server's place in the language's list (Config.Servers):
	// 0 is the lead, which owns the document's disk state.
	slot int
}

// pair is one (session, language) in this window: its documents (leases),
// its current connection generation and its latest status. All fields are
// guarded by Client.mu.
type pair struct {
	key  connKey
	docs map[*Document]struct{}
	conn *connection // the current generation, nil when none runs
	gen  uint64      // the last generation number handed out
	idle Timer       // pending idle teardown
	st   Status      // the latest recorded status
	seen bool        // st has been recorded at least once
	// reopen: a document opened while the connection was shutting down
	// (idle teardown); connect again once it has ended.
	reopen bool
	// The reconnect episode (reconnect.go): wasReady says a generation
	// reached ready since the pair last failed or stopped, so a lost path
	// is worth connecting again by itself; attempts counts the automatic
	// attempts since it was lost at lostAt; retry is the pending one.
	wasReady bool
	attempts int
	lostAt   int64
	retry    Timer
	// replacing: the current episode's connection replaces one this
	// client ended itself (a server change, a reopen after idle): a 4005
	// is then likely the old one's place under the cap, not yet freed
	// while its server stops, and is tried again on the reconnect
	// schedule rather than shown with Retry.
	replacing bool
}

// Client owns this window's pairs, connections and documents.
type Client struct {
	cfg Config

	mu     sync.Mutex
	pairs  map[connKey]*pair
	events []Status // recorded, not yet delivered
	closed bool

	deliverMu sync.Mutex // one delivery at a time, so order holds

	conns      map[string]*connection        // initialized connections by id; guarded by mu
	workspaces map[string]navigate.Workspace // by lower-case session; guarded by mu
	suppress   *suppress.State
	hub        *docsync.Hub
	supMu      sync.Mutex // orders suppression snapshots
	supGen     uint64     // the generation last published; guarded by supMu

	// served is closed and replaced when a connection starts serving or a
	// pair's status changes (tsserver.go); guarded by mu.
	served chan struct{}

	asks   map[string]ask // showMessageRequests waiting for a choice; guarded by mu
	msgSeq uint64         // guarded by mu

	problems *problems.Store // every file's diagnostics, per session
	answers  answered        // items already answered per request, across a document's servers
}

// New returns a Client; it dials nothing until a document opens or Start.
func New(cfg Config) (*Client, error) {
	if cfg.Dial == nil {
		return nil, errors.New("client: Config.Dial is required")
	}
	if cfg.RelayURL == "" {
		return nil, errors.New("client: Config.RelayURL is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Soon == nil {
		cfg.Soon = func(f func()) { go f() }
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = shutdownTimeout
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.OnStatus == nil {
		cfg.OnStatus = func(Status) {}
	}
	return &Client{
		cfg:        cfg,
		pairs:      make(map[connKey]*pair),
		conns:      make(map[string]*connection),
		workspaces: make(map[string]navigate.Workspace),
		suppress:   suppress.New(),
		hub:        docsync.NewHub(),
		asks:       make(map[string]ask),
		served:     make(chan struct{}),
		problems:   problems.New(cfg.OnProblems),
	}, nil
}

// ErrNoLanguage is returned by OpenDocument for a file no server serves.
var ErrNoLanguage = errors.New("client: no language server for this file")

// pairLocked returns the pair for key, creating it. c.mu must be held.
func (c *Client) pairLocked(key connKey) *pair {
	p := c.pairs[key]
	if p == nil {
		p = &pair{key: key, docs: make(map[*Document]struct{})}
		p.st = Status{SessionID: key.sessionID, Language: string(key.language), Slot: key.slot, State: StateOff}
		c.pairs[key] = p
	}
	return p
}

// servers is the language's list of chosen servers, never empty: "" is
// the language's default server, which comes with the servers it needs
// beside it (wire.LanguageInfo.BesideDefault) when the user chose none.
func (c *Client) servers(lang wire.Language) []string {
	var list []string
	if c.cfg.Servers != nil {
		list = c.cfg.Servers(lang)
	}
	if len(list) == 0 {
		info, _ := wire.Lookup(string(lang))
		return append([]string{""}, info.BesideDefault...)
	}
	return list
}

// OpenDocument starts synchronizing a document: relPath is workspace-relative
// and slash-separated; its language comes from its extension (ErrNoLanguage
// if none). The document is opened on every server chosen for its language
// (Config.Servers), and takes a lease on each (session, language, server)
// pair. A pair that is off (no connection, not failed) connects if the
// Policy allows it; otherwise it keeps its status (off until Start, or a
// failure until Retry). The didOpen goes out once a connection is ready,
// and again with the current text on every later connection of the pair.
//
// The returned Document is the first server's; the others' follow it
// (Changed, MarkDirty, Close), each with its own markers — under the owner
// the sink gives for its slot (SlotSinks).
func (c *Client) OpenDocument(sessionID, relPath string, src TextSource, sink MarkerSink) (*Document, error) {
	info, ok := wire.ForFile(relPath)
	if !ok {
		return nil, ErrNoLanguage
	}
	rel, ok := cleanRelPath(relPath)
	if !ok {
		return nil, errors.New("client: " + relPath + " is not a workspace-relative path")
	}
	if sessionID == "" {
		return nil, errors.New("client: empty session id")
	}
	allowed := c.cfg.Policy == nil || c.cfg.Policy.ShouldConnect(sessionID, info.Language)
	n := len(c.servers(info.Language))
	d, conn := c.openSlot(connKey{sessionID: sessionID, language: info.Language}, rel, src, sink, allowed)
	c.deliver()
	d.initDisk()
	if conn != nil {
		d.open(conn) // no-op unless conn is ready
	}
	d.resize(n)
	return d, nil
}

// OpenLibraryDocument starts synchronizing a read-only file outside the
// workspace, one a library location led to (navigate.Workspace.Library):
// abs is its absolute task-host path. It is opened on the language's first
// server only, so that hover, definition and references work inside it;
// its model URI is the session's library URI (navigate.LibraryURI) unless
// src names another. Nothing is ever written to it: a workspace edit that
// touches it is refused, as for any file outside the workspace.
func (c *Client) OpenLibraryDocument(sessionID, abs string, src TextSource, sink MarkerSink) (*Document, error) {
	info, ok := wire.ForFile(abs)
	if !ok {
		return nil, ErrNoLanguage
	}
	if !strings.HasPrefix(abs, "/") || strings.Contains(abs, "\\") || path.Clean(abs) == "/" {
		return nil, errors.New("client: " + abs + " is not an absolute path")
	}
	if sessionID == "" {
		return nil, errors.New("client: empty session id")
	}
	abs = path.Clean(abs)
	allowed := c.cfg.Policy == nil || c.cfg.Policy.ShouldConnect(sessionID, info.Language)
	d, conn := c.openSlot(connKey{sessionID: sessionID, language: info.Language}, abs, src, sink, allowed)
	c.deliver()
	if conn != nil {
		d.open(conn)
	}
	return d, nil
}

// openSlot creates the document of one slot of the language and takes its
// lease, connecting the pair as OpenDocument says. The caller opens the
// document on the connection returned, if any, and delivers the status it
// recorded (deliver) once it holds no lock: a lead document adds its peers
// under its peerMu, which a status listener may wait for.
func (c *Client) openSlot(key connKey, rel string, src TextSource, sink MarkerSink, allowed bool) (*Document, *connection) {
	c.mu.Lock()
	p := c.pairLocked(key)
	d := &Document{
		cl:         c,
		p:          p,
		rel:        rel,
		languageID: languageID(rel, string(key.language)),
		src:        src,
		sink:       sink,
	}
	d.model, d.monacoID = navigate.ModelURI(key.sessionID, rel), d.languageID
	if strings.HasPrefix(rel, "/") {
		d.library, d.model = true, navigate.LibraryURI(key.sessionID, rel)
	}
	if mi, ok := src.(ModelInfo); ok {
		if m := mi.ModelURI(); m != "" {
			d.model = m
		}
		if l := mi.MonacoLanguage(); l != "" {
			d.monacoID = l
		}
	}
	p.docs[d] = struct{}{}
	if p.idle != nil {
		p.idle.Stop()
		p.idle = nil
	}
	conn := p.conn
	switch {
	case conn != nil && conn.ctx.Err() == nil:
		// Join the live connection; the view counts the new lease.
		c.recordLocked(p)
	case conn != nil && allowed && !c.closed:
		// Its idle shutdown is running: connect again when it has ended.
		p.reopen = true
		conn = nil
	case allowed && !c.closed && p.st.State == StateOff:
		// Only an off pair connects on its own: a failed or unavailable
		// one waits for Retry instead of failing again with every editor.
		conn = c.connectLocked(p)
	default:
		conn = nil
		if !p.seen || p.st.State == StateOff {
			c.recordLocked(p)
		}
	}
	c.mu.Unlock()
	return d, conn
}

// Prepare connects the language's pairs ahead of their documents, so the
// servers start on the workspace while the editor is still loading. It
// dials only where OpenDocument would for a document of the language: an
// off pair the Policy allows; a pair that is connecting, ready or failed is
// left as it is. The connection holds no document, so the idle timeout runs
// from the start; a document opened later joins it. Unlike Start it is no
// user's choice: nothing is remembered and a Stop is not lifted. It reports
// whether a connection was started or is live.
func (c *Client) Prepare(sessionID string, lang wire.Language) bool {
	if _, ok := wire.Lookup(string(lang)); !ok || sessionID == "" {
		return false
	}
	allowed := c.cfg.Policy == nil || c.cfg.Policy.ShouldConnect(sessionID, lang)
	n := len(c.servers(lang))
	c.mu.Lock()
	live := false
	for slot := 0; slot < n && !c.closed; slot++ {
		p := c.pairLocked(connKey{sessionID, lang, slot})
		switch {
		case p.conn != nil:
			live = live || p.conn.ctx.Err() == nil // else its shutdown is running
		case allowed && p.st.State == StateOff:
			c.connectLocked(p)
			live = true
		}
	}
	c.mu.Unlock()
	c.deliver()
	return live
}

// Start connects every server of the language (StartSlot).
func (c *Client) Start(sessionID string, lang wire.Language) bool {
	started := false
	for slot := range c.servers(lang) {
		started = c.StartSlot(sessionID, lang, slot) || started
	}
	return started
}

// StartSlot connects the pair of the language's slot-th server unless a
// live connection exists. It reports whether a new connection generation
// was started.
func (c *Client) StartSlot(sessionID string, lang wire.Language, slot int) bool {
	if slot < 0 || slot >= len(c.servers(lang)) {
		return false
	}
	c.mu.Lock()
	started := false
	if !c.closed {
		p := c.pairLocked(connKey{sessionID, lang, slot})
		if p.conn == nil || p.conn.ctx.Err() != nil {
			c.connectLocked(p)
			started = true
		}
	}
	c.mu.Unlock()
	c.deliver()
	return started
}

// Stop ends every server of the language on purpose (StopSlot) and waits
// for them or ctx.
func (c *Client) Stop(ctx ctxlite.Context, sessionID string, lang wire.Language) error {
	var err error
	for slot := range c.servers(lang) {
		if e := c.StopSlot(ctx, sessionID, lang, slot); e != nil {
			err = e
		}
	}
	return err
}

// StopSlot ends the pair's connection on purpose (the pair then shows off)
// and waits until it has ended or ctx is done. Without a connection it only
// turns an error or unavailable status into off.
func (c *Client) StopSlot(ctx ctxlite.Context, sessionID string, lang wire.Language, slot int) error {
	c.mu.Lock()
	p := c.pairLocked(connKey{sessionID, lang, slot})
	p.reopen = false // a Stop wins over a document opened during shutdown
	p.wasReady = false
	c.endEpisodeLocked(p) // and over a reconnect waiting for its turn
	conn := p.conn
	if conn == nil {
		if p.st.State != StateOff {
			p.st = Status{State: StateOff}
			c.recordLocked(p)
		}
	} else {
		conn.cancel()
	}
	c.mu.Unlock()
	c.deliver()
	if conn == nil {
		return nil
	}
	select {
	case <-conn.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Reconsider connects every pair that has documents, no connection and an
// off status, if the Policy now allows it (after a settings change). Pairs
// that failed stay failed until Retry.
func (c *Client) Reconsider() {
	if c.cfg.Policy == nil {
		return
	}
	c.mu.Lock()
	var cands []*pair
	for _, p := range c.pairs {
		if len(p.docs) > 0 && p.conn == nil && p.st.State == StateOff {
			cands = append(cands, p)
		}
	}
	c.mu.Unlock()
	for _, p := range cands {
		if !c.cfg.Policy.ShouldConnect(p.key.sessionID, p.key.language) {
			continue
		}
		c.mu.Lock()
		if p.conn == nil && len(p.docs) > 0 && p.st.State == StateOff && !c.closed {
			c.connectLocked(p)
		}
		c.mu.Unlock()
	}
	c.deliver()
}

// reopen connects p again after its idle shutdown ended, for the
// documents opened while it ran, if they are still open and the Policy
// still allows it.
func (c *Client) reopen(p *pair) {
	if c.cfg.Policy != nil && !c.cfg.Policy.ShouldConnect(p.key.sessionID, p.key.language) {
		return
	}
	c.mu.Lock()
	if p.conn == nil && len(p.docs) > 0 && p.st.State == StateOff && !c.closed {
		p.replacing = true
		c.connectLocked(p)
	}
	c.mu.Unlock()
	c.deliver()
}

// Restart applies a change of the servers chosen for a language: a slot
// whose server changed ends its live connections on purpose and connects
// again at once, on the new server; documents stay open, get a pair for
// each new slot and leave the slots that are gone (whose connections end).
// A pair without a connection is left as it is.
func (c *Client) Restart(lang wire.Language) {
	list := c.servers(lang)
	c.mu.Lock()
	var conns []*connection
	var leads []*Document
	for _, p := range c.pairs {
		if p.key.language != lang {
			continue
		}
		if p.key.slot == 0 {
			for d := range p.docs {
				leads = append(leads, d)
			}
		}
		if p.conn == nil || p.conn.ctx.Err() != nil {
			continue
		}
		switch {
		case p.key.slot >= len(list):
			p.reopen = false
			conns = append(conns, p.conn)
		case !sameServer(lang, p.conn.server, list[p.key.slot]):
			p.reopen = true
			conns = append(conns, p.conn)
		}
	}
	c.mu.Unlock()
	for _, conn := range conns {
		conn.cancel()
	}
	for _, d := range leads {
		d.resize(len(list))
	}
}

// sameServer reports whether two entries of a language's server list
// name the same server: "" stands for the language's default, so adding a
// second server to a language that had none chosen (["", …] becoming
// ["typescript-language-server", "eslint"]) leaves the first one running.
func sameServer(lang wire.Language, a, b string) bool {
	if a == b {
		return true
	}
	def, ok := wire.DefaultServer(lang)
	return ok && ((a == "" && b == def) || (b == "" && a == def))
}

// Reconnect ends every live connection of a language on purpose and
// connects it again at once (what a server is used for changed, which a
// connection reads at its start); documents stay open.
func (c *Client) Reconnect(lang wire.Language) {
	c.mu.Lock()
	var conns []*connection
	for _, p := range c.pairs {
		if p.key.language == lang && p.conn != nil && p.conn.ctx.Err() == nil {
			p.reopen = true
			conns = append(conns, p.conn)
		}
	}
	c.mu.Unlock()
	for _, conn := range conns {
		conn.cancel()
	}
}

// Republish registers again the providers of every connection of a
// language, after the formatter chosen for it changed.
func (c *Client) Republish(lang wire.Language) {
	c.mu.Lock()
	var conns []*connection
	for _, p := range c.pairs {
		if p.key.language == lang && p.conn != nil {
			conns = append(conns, p.conn)
		}
	}
	c.mu.Unlock()
	for _, conn := range conns {
		conn.publishProviders()
	}
}

// PushConfiguration sends workspace/didChangeConfiguration with each
// server's current configuration object to every initialized connection
// of that language. The process is not restarted; later
// workspace/configuration requests are answered from Configs, which already
// holds the new value.
func (c *Client) PushConfiguration(lang wire.Language) {
	c.mu.Lock()
	var conns []*connection
	for k, p := range c.pairs {
		if k.language == lang && p.conn != nil {
			conns = append(conns, p.conn)
		}
	}
	c.mu.Unlock()
	for _, conn := range conns {
		conn.mu.Lock()
		rpc, ready := conn.rpc, conn.ready
		conn.mu.Unlock()
		if !ready {
			continue // it asks workspace/configuration when it needs to
		}
		cfg := conn.config()
		if len(cfg) == 0 {
			cfg = jsonlite.Raw("null")
		}
		// The object is copied into the message as it is, so a broken one
		// is refused here rather than sent.
		err := errInvalidConfig
		if jsonlite.Valid(cfg) {
			err = conn.notify(rpc, lsptypes.MethodDidChangeConfiguration, lsptypes.DidChangeConfigurationParams{Settings: cfg})
		}
		if err != nil {
			c.cfg.Logf("lsp: didChangeConfiguration: %v", err)
		}
	}
}

// named records the catalog id the task host says a connection runs (a
// language's default server is asked for without one).
func (c *Client) named(conn *connection, id string) {
	c.mu.Lock()
	conn.mu.Lock()
	conn.name = id
	conn.mu.Unlock()
	if conn.p.conn == conn && conn.p.st.Server != id {
		c.recordLocked(conn.p)
	}
	c.mu.Unlock()
	c.deliver()
}

// errInvalidConfig reports a language configuration that is not JSON.
var errInvalidConfig = errors.New("the language configuration is not valid JSON")

// connectLocked starts a new connection generation for p, replacing any
// previous one, and records the connecting status. c.mu must be held.
func (c *Client) connectLocked(p *pair) *connection {
	if p.conn != nil {
		p.conn.cancel() // a stopping predecessor finishes as a stale generation
	}
	if p.idle != nil {
		p.idle.Stop()
		p.idle = nil
	}
	if p.retry != nil {
		p.retry.Stop() // a Start or Retry during the wait goes first
		p.retry = nil
	}
	p.gen++
	conn := newConnection(c, p, p.gen)
	if list := c.servers(p.key.language); p.key.slot < len(list) {
		conn.server = list[p.key.slot]
	}
	p.conn = conn
	p.st = Status{State: StateConnecting}
	if p.attempts > 0 {
		p.st = Status{State: StateReconnecting, Attempt: p.attempts, LostAt: p.lostAt}
		conn.again = true
	}
	c.recordLocked(p)
	go conn.run()
	if len(p.docs) == 0 {
		c.armIdleLocked(p) // started with no document: idle from the start
	}
	return conn
}

// armIdleLocked schedules idle teardown of p's current connection. c.mu must
// be held.
func (c *Client) armIdleLocked(p *pair) {
	conn := p.conn
	if conn == nil {
		return
	}
	if p.idle != nil {
		p.idle.Stop()
	}
	p.idle = c.cfg.Clock.AfterFunc(c.cfg.IdleTimeout, func() {
		c.mu.Lock()
		// Only the generation it was armed for, and only if still unleased.
		if p.conn == conn && len(p.docs) == 0 {
			p.idle = nil
			conn.cancel()
		}
		c.mu.Unlock()
	})
}

// release drops a document's lease; the last one arms the idle timer.
func (c *Client) release(d *Document) {
	c.mu.Lock()
	p := d.p
	if _, ok := p.docs[d]; ok {
		delete(p.docs, d)
		if len(p.docs) == 0 {
			c.armIdleLocked(p)
		}
		c.recordLocked(p)
	}
	c.mu.Unlock()
	c.deliver()
}

// Status returns the latest status of the (sessionID, language) pair's
// first server, and false if this window never had one.
func (c *Client) Status(sessionID string, language wire.Language) (Status, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pairs[connKey{sessionID, language, 0}]
	if p == nil || !p.seen {
		return Status{}, false
	}
	return p.st, true
}

// Statuses returns the latest status of each server chosen for the
// language, in the list's order; a slot this window never saw is off.
func (c *Client) Statuses(sessionID string, language wire.Language) []Status {
	list := c.servers(language)
	out := make([]Status, len(list))
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range list {
		if p := c.pairs[connKey{sessionID, language, i}]; p != nil && p.seen {
			out[i] = p.st
		} else {
			out[i] = Status{SessionID: sessionID, Language: string(language), Slot: i, State: StateOff}
		}
		if out[i].Server == "" {
			out[i].Server = list[i]
		}
	}
	return out
}

// Close stops every connection and waits for them or for ctx. Later
// documents and Starts connect nothing.
func (c *Client) Close(ctx ctxlite.Context) error {
	c.mu.Lock()
	c.closed = true
	var conns []*connection
	for _, p := range c.pairs {
		if p.idle != nil {
			p.idle.Stop()
			p.idle = nil
		}
		c.endEpisodeLocked(p)
		if p.conn != nil {
			conns = append(conns, p.conn)
			p.conn.cancel()
		}
	}
	c.mu.Unlock()
	for _, conn := range conns {
		select {
		case <-conn.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// update sets the pair's state on behalf of conn and records it, but only
// while conn is the pair's current generation: this is the one place where
// late lifecycle callbacks from replaced generations are dropped. initSince
// is the pending initialize's start (0: none, which also clears progress
// unless the state is ready). For ready it returns the documents to open.
func (c *Client) update(conn *connection, state State, initSince int64) (docs []*Document, current bool) {
	c.mu.Lock()
	p := conn.p
	if p.conn == conn {
		current = true
		p.st.State, p.st.InitSince, p.st.Gen = state, initSince, conn.gen
		switch state {
		case StateReady:
			p.wasReady = true
			c.endEpisodeLocked(p)
			for d := range p.docs {
				docs = append(docs, d)
			}
		case StateConnecting, StateInstalling:
			if p.attempts > 0 { // still reconnecting until ready
				p.st.State = StateReconnecting
			}
		case StateStarting:
			p.st.Launched = p.st.Launched || initSince != 0
			if p.attempts > 0 {
				p.st.State = StateReconnecting
			}
		case StateStopping:
			p.st.Progress = progress.Snapshot{} // no stale work while stopping
		}
		c.recordLocked(p)
	}
	c.mu.Unlock()
	if current {
		c.deliver()
	}
	return docs, current
}

// recordLocked stamps p's status with its identity and lease count, and
// queues it for delivery. Queueing under c.mu fixes one global order. c.mu
// must be held.
func (c *Client) recordLocked(p *pair) {
	c.wakeLocked()
	p.st.SessionID = p.key.sessionID
	p.st.Language = string(p.key.language)
	p.st.Slot = p.key.slot
	if p.conn != nil {
		if id := p.conn.serverID(); id != "" {
			p.st.Server = id
		}
	}
	p.st.Documents = len(p.docs)
	if p.conn != nil && p.st.Gen < p.conn.gen {
		p.st.Gen = p.conn.gen
	}
	p.seen = true
	c.events = append(c.events, p.st)
}

// deliver hands queued statuses to Config.OnStatus in queue order.
func (c *Client) deliver() {
	c.deliverMu.Lock()
	defer c.deliverMu.Unlock()
	c.mu.Lock()
	events := c.events
	c.events = nil
	c.mu.Unlock()
	for _, s := range events {
		c.cfg.OnStatus(s)
	}
}
