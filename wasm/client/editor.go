package client

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/docsync"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/navigate"
)

// requestTimeout bounds one provider request; Monaco shows nothing after it.
const requestTimeout = 30 * clock.Second

// Editor receives the Monaco-facing events of the client: the provider
// registrations of each connection, semantic-token refreshes and the
// suppression snapshot of Monaco's TypeScript/JavaScript built-ins. The
// binding implements it; calls may come from any goroutine, and the calls
// for one connection come in order.
type Editor interface {
	// Provider registers the Monaco provider of feature f for Monaco
	// language id languageID on behalf of connection connID, with its
	// options (features.OptionsJSON), replacing the one registered before
	// for the same (connID, languageID, f); optionsJSON "" disposes it.
	// Features whose options did not change are never re-registered, so
	// their providers keep their place in Monaco's order.
	Provider(connID, languageID string, f features.Feature, optionsJSON string)
	// Ended disposes everything connection connID registered: its
	// providers and the placeholder models of its peek previews.
	Ended(connID string)
	// Refresh fires the onDidChange of connection connID's providers of
	// feature f: workspace/semanticTokens/refresh and
	// workspace/inlayHint/refresh.
	Refresh(connID string, f features.Feature)
	// Apply runs the steps of a planned workspace edit
	// (features.PlanWorkspaceEdit) in order and reports whether all of
	// them succeeded, or why not. It waits until they ran or ctx ends.
	Apply(ctx ctxlite.Context, plan string) (applied bool, reason string)
	// Suppress publishes the suppression snapshot (suppress.State.Snapshot).
	Suppress(snapshot string)
}

// ModelInfo is optionally implemented by a document's TextSource: the
// Monaco model's URI (model.uri.toString()) and language id. Without it the
// model URI is navigate.ModelURI(session, path) and the language id the
// LSP one.
type ModelInfo interface {
	ModelURI() string
	MonacoLanguage() string
}

// connID names a connection generation for the binding.
func (c *connection) id() string {
	id := c.p.key.sessionID + "\x00" + string(c.p.key.language) + "\x00" + strconv.FormatUint(c.gen, 10)
	if c.p.key.slot > 0 {
		id += "\x00" + strconv.Itoa(c.p.key.slot)
	}
	return id
}

// editorReady records the initialized server's workspace (for navigation
// and provider calls) and its features in the suppression state, so that
// each document opened next claims its model there. Called once, from
// run, before the didOpens; publishProviders follows them.
func (c *connection) editorReady(st wire.Status) {
	ws, ok := navigate.FromReady(c.p.key.sessionID, st)
	if !ok {
		ws = navigate.Workspace{Session: c.p.key.sessionID, Path: c.workspace}
	}
	cl := c.cl
	ws.Library = cl.cfg.Library
	cl.mu.Lock()
	cl.conns[c.id()] = c
	cl.workspaces[strings.ToLower(c.p.key.sessionID)] = ws
	cl.mu.Unlock()
	c.mu.Lock()
	reg := c.reg
	c.mu.Unlock()
	if reg != nil {
		ids, set := c.featureSet(reg)
		cl.suppress.SetConnection(c.id(), strings.ToLower(c.p.key.sessionID), ids, set)
	}
}

// featureSet returns the Monaco language ids of the connection's language
// and every feature the server offers for any of them.
func (c *connection) featureSet(reg *features.Registry) (ids []string, set features.Set) {
	info, _ := wire.Lookup(string(c.p.key.language))
	for _, id := range info.MonacoIDs {
		set |= c.allowedFor(id, reg.For(id).Set)
	}
	return info.MonacoIDs, set
}

// allowedFor returns the providers of set that this connection registers
// for Monaco language id: those its mask allows, and of the features one
// server serves alone — formatting (the user's formatter, else the first
// capable server of the list), rename and semantic tokens (the first
// capable) — only those it is the one for. Monaco merges the rest
// (completion, hover, code actions, lenses, locations, inlay hints…)
// from every server's providers itself.
func (c *connection) allowedFor(id string, set features.Set) features.Set {
	set = c.mask.filter(set)
	for _, alone := range []features.Set{formatting, renaming, semanticTokens} {
		if set&alone != 0 && !c.cl.chosenFor(c, id, alone) {
			set &^= alone
		}
	}
	return set
}

// chosenFor reports whether c is the connection of its session and
// language that serves the features group (one server's alone) for Monaco
// language id: the first live, initialized one of the list that offers
// them, the user's formatter first for formatting.
func (cl *Client) chosenFor(c *connection, id string, group features.Set) bool {
	key := c.p.key
	list := cl.servers(key.language)
	if len(list) < 2 {
		return true
	}
	formatter := ""
	if group == formatting && cl.cfg.Formatter != nil {
		formatter = cl.cfg.Formatter(key.language)
	}
	var conns []*connection
	cl.mu.Lock()
	for slot := range list {
		p := cl.pairs[connKey{key.sessionID, key.language, slot}]
		if p == nil || p.conn == nil || p.conn.ctx.Err() != nil {
			continue
		}
		if formatter != "" && p.conn.serverID() == formatter {
			conns = append([]*connection{p.conn}, conns...)
		} else {
			conns = append(conns, p.conn)
		}
	}
	cl.mu.Unlock()
	for _, x := range conns {
		x.mu.Lock()
		offers := x.reg != nil && !x.ended && x.reg.For(id).Set&x.mask.filter(group) != 0
		x.mu.Unlock()
		if offers {
			return x == c
		}
	}
	return false
}

// republish lets the other servers of c's session and language register
// again what they now serve alone, after c's providers changed or ended.
func (cl *Client) republish(c *connection) {
	key := c.p.key
	n := len(cl.servers(key.language))
	if n < 2 {
		return
	}
	var others []*connection
	cl.mu.Lock()
	for slot := 0; slot < n; slot++ {
		if p := cl.pairs[connKey{key.sessionID, key.language, slot}]; p != nil && p.conn != nil && p.conn != c {
			others = append(others, p.conn)
		}
	}
	cl.mu.Unlock()
	for _, x := range others {
		x.publishProviders()
	}
}

// publishProviders hands the binding the providers of this connection
// that changed since the last call — per Monaco language id of its
// language and per feature — and updates the suppression state. It is a
// no-op once the connection ended.
func (c *connection) publishProviders() {
	c.provMu.Lock()
	defer c.provMu.Unlock()
	c.mu.Lock()
	reg, ended := c.reg, c.ended
	c.mu.Unlock()
	if reg == nil || ended {
		return
	}
	info, _ := wire.Lookup(string(c.p.key.language))
	if c.provs == nil {
		c.provs = make(map[string]features.Providers)
	}
	var set features.Set
	cl := c.cl
	for _, id := range info.MonacoIDs {
		next := reg.For(id)
		next.Set = c.allowedFor(id, next.Set)
		set |= next.Set
		for _, f := range features.Changed(c.provs[id], next) {
			opts := ""
			if next.Allows(f) {
				opts = features.OptionsJSON(next, f)
			}
			if cl.cfg.Editor != nil {
				cl.cfg.Editor.Provider(c.id(), id, f, opts)
			}
		}
		c.provs[id] = next
	}
	cl.suppress.SetConnection(c.id(), strings.ToLower(c.p.key.sessionID), info.MonacoIDs, set)
	cl.publishSuppression()
}

// editorEnded disposes the connection's providers, suppression and
// registry entry; other connections are untouched.
func (c *connection) editorEnded() {
	c.disposeProviders()
	c.cl.republish(c) // after provMu: the others take their own
}

// disposeProviders is editorEnded's part under provMu.
func (c *connection) disposeProviders() {
	c.provMu.Lock()
	defer c.provMu.Unlock()
	cl := c.cl
	cl.mu.Lock()
	_, had := cl.conns[c.id()]
	delete(cl.conns, c.id())
	cl.mu.Unlock()
	cl.suppress.RemoveConnection(c.id())
	// A registration right after initialized may have registered
	// providers before the connection was recorded as ready.
	if (had || len(c.provs) > 0) && cl.cfg.Editor != nil {
		cl.cfg.Editor.Ended(c.id())
	}
	cl.publishSuppression()
}

// publishSuppression sends the suppression snapshot when it moved.
func (cl *Client) publishSuppression() {
	if cl.cfg.Editor == nil {
		return
	}
	cl.supMu.Lock()
	defer cl.supMu.Unlock()
	g := cl.suppress.Generation()
	if g == cl.supGen {
		return
	}
	cl.supGen = g
	cl.cfg.Editor.Suppress(cl.suppress.Snapshot())
}

// registration applies client/registerCapability or unregisterCapability:
// open documents follow the synchronization it asks for (didOpen,
// didChange, didSave with includeText, didClose, by document selector),
// and the providers whose options changed are registered again.
func (c *connection) registration(register bool, params jsonlite.Raw) {
	c.mu.Lock()
	reg := c.reg
	c.mu.Unlock()
	if reg == nil {
		return
	}
	var err error
	if register {
		err = reg.Register(params)
	} else {
		err = reg.Unregister(params)
	}
	if err != nil {
		c.cl.cfg.Logf("lsp: registration: %v", err)
		return
	}
	c.pullRegistration(register, params)
	c.docMu.Lock()
	c.mu.Lock()
	type open struct {
		sd   *docsync.Doc
		lang string
	}
	var docs []open
	for _, e := range c.byPath {
		docs = append(docs, open{e.sd, e.docs[0].languageID})
	}
	c.mu.Unlock()
	for _, o := range docs {
		o.sd.SetSync(reg.For(o.lang).Sync)
	}
	c.docMu.Unlock()
	c.publishProviders()
	c.cl.republish(c)
}

// docByModel returns the document open on c for a Monaco model URI.
func (c *connection) docByModel(model string) *Document {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.byPath {
		for _, d := range e.docs {
			if d.model == model {
				return d
			}
		}
	}
	return nil
}

// serverToModel maps a server location URI to the Monaco model URI: the
// open document's model, else this session's model URI for the path.
func (c *connection) serverToModel(uri string) string {
	if model, ok := c.contentModel(uri); ok {
		return model
	}
	if abs, ok := wire.PathFromFileURI(uri); ok {
		c.mu.Lock()
		e := c.byPath[path.Clean(abs)]
		model := ""
		if e != nil {
			model = e.docs[0].model
		}
		c.mu.Unlock()
		if model != "" {
			return model
		}
	}
	c.cl.mu.Lock()
	ws, ok := c.cl.workspaces[strings.ToLower(c.p.key.sessionID)]
	c.cl.mu.Unlock()
	if !ok {
		return uri
	}
	return ws.ServerToModel(uri)
}

// completionResolveStep is the shim's name of the completion resolve step.
const completionResolveStep = "completionResolve"

// Provide runs one call of the binding's shim on connection connID: a
// Monaco provider call or a step after one (features.Lookup names them),
// or ContentCall, which reads a server document (content.go),
// with req the shim's request JSON (features.Request), answering the JSON
// Monaco expects. connID "" picks the connection that serves the model
// (the page's own calls: outline, format on save).
//
// A model this connection does not serve, or a feature its server does not
// (or no longer) advertise for the model's language, is answered "null"
// without any request: Monaco then takes the next provider's answer. An
// empty answer instead would win over another connection's for the same
// language — two sessions of Go register providers for the same models,
// and Monaco keeps the first semantic-token result that has data.
//
// Pending edits of the model are sent first, so the server answers for the
// text on screen. A background call (features.Background) waits while a
// typing call of the connection is out, so the server answers what the
// user waits on first. When ctx ends first (Monaco cancelled: the user typed on,
// the widget closed), the server gets $/cancelRequest and "null" is the
// answer — but for a completion resolve, which Monaco shares with the
// item's acceptance; no call waits longer than requestTimeout. A request that fails
// (the server's error, a malformed answer, a timeout) is answered "null"
// too and logged once per cause for the connection, not once per
// keystroke; only a malformed req or an unknown name is an error.
func (cl *Client) Provide(ctx ctxlite.Context, connID, name, req string) (string, error) {
	if name == ContentCall {
		return cl.content(ctx, req)
	}
	call, known := features.Lookup(name)
	r, err := features.ParseRequest(req)
	if !known {
		return "", errors.New("lsp: no call named " + name)
	}
	if err != nil {
		return "", err
	}
	c, d := cl.serving(connID, r.URI, func(c *connection, d *Document) bool {
		c.mu.Lock()
		reg := c.reg
		c.mu.Unlock()
		return reg != nil && reg.For(d.languageID).Allows(call.Feature()) && c.mask.allows(call.Feature())
	})
	if d == nil {
		return "null", nil
	}
	c.mu.Lock()
	reg, rpc := c.reg, c.rpc
	c.mu.Unlock()
	if reg == nil || !reg.For(d.languageID).Allows(call.Feature()) || !c.mask.allows(call.Feature()) {
		return "null", nil
	}
	docURI, version := d.flushForRequest(c)
	if docURI == "" {
		return "null", nil
	}
	switch f := call.Feature(); {
	case features.Typing(f):
		defer c.typing.begin()()
	case features.Background(f, &r):
		if !c.typing.wait(ctx, cl.cfg.Clock, backgroundHold) {
			return "null", nil
		}
		// The text may have changed meanwhile: Monaco asks again for
		// the new one, and this answer would be for the old.
		if u, v := d.flushForRequest(c); u != docURI || v != version {
			return "null", nil
		}
	}
	if name == completionResolveStep {
		// Monaco resolves an item once, under the token of whoever asked
		// first, and shares that resolve: the widget asks for the focused
		// item's details, Enter accepts it, and closing the widget cancels
		// the resolve the acceptance waits on — an auto-import's line
		// (additionalTextEdits) would be lost. A resolve runs to the
		// server's answer, within requestTimeout.
		ctx = ctxlite.Background()
	}
	ctx, cancel := ctxlite.WithTimeout(ctx, requestTimeout)
	defer cancel()
	env := features.Env{
		DocURI:      docURI,
		Version:     version,
		Providers:   reg.For(d.languageID),
		MapURI:      c.serverToModel,
		Diagnostics: c.diagnosticsOf(docURI),
		Call: func(method string, params jsonlite.Appender) (jsonlite.Raw, error) {
			return callRetrying(ctx, rpc, method, params, func() bool { return d.atVersion(c, version) })
		},
		Apply: func(edit jsonlite.Raw) (bool, string) { return c.applyEdit(ctx, edit) },
		Keep:  c.keep,
		Kept:  c.kept,
	}
	out, err := call.Run(&r, &env)
	if err != nil {
		c.providerFailed(call.Name(), err)
		return "null", nil
	}
	if len(cl.servers(c.p.key.language)) > 1 {
		out = cl.answers.unique(c, name, req, out)
	}
	return out, nil
}

// serving returns connection connID and its document of the model; with
// connID "" the connection that serves the model and that wants (nil:
// any) accepts, the lowest slot first — the language's default server
// before those beside it, as for a feature one server answers alone
// (owns) — or else the first that serves it at all.
func (cl *Client) serving(connID, model string, wants func(*connection, *Document) bool) (*connection, *Document) {
	cl.mu.Lock()
	var conns []*connection
	if connID != "" {
		if c := cl.conns[connID]; c != nil {
			conns = append(conns, c)
		}
	} else {
		for _, c := range cl.conns {
			conns = append(conns, c)
		}
	}
	cl.mu.Unlock()
	slices.SortFunc(conns, func(a, b *connection) int { return a.p.key.slot - b.p.key.slot })
	var firstC *connection
	var firstD *Document
	for _, c := range conns {
		d := c.docByModel(model)
		if d == nil {
			continue
		}
		if connID != "" || wants == nil || wants(c, d) {
			return c, d
		}
		if firstD == nil {
			firstC, firstD = c, d
		}
	}
	return firstC, firstD
}

// diagnosticsOf returns the last diagnostics the server published for its
// document uri.
func (c *connection) diagnosticsOf(uri string) []lsptypes.Diagnostic {
	abs, ok := wire.PathFromFileURI(uri)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byPath[path.Clean(abs)]; e != nil {
		return e.diagnostics()
	}
	return nil
}

// keptResults is how many answers a connection keeps for resolve calls:
// a few, since Monaco resolves only items of the list on screen.
const keptResults = 8

// keep stores an answer for a later resolve call (features.Env.Keep).
func (c *connection) keep(raw []byte) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keptSeq++
	c.keptRing[c.keptSeq%keptResults] = keptResult{key: c.keptSeq, raw: raw}
	return c.keptSeq
}

// kept returns a kept answer, or nil once newer ones replaced it.
func (c *connection) kept(key int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.keptRing[key%keptResults]; k.key == key && key > 0 {
		return k.raw
	}
	return nil
}

// keptResult is one kept answer.
type keptResult struct {
	key int
	raw []byte
}

// applyEdit plans an LSP WorkspaceEdit against this connection's open
// documents and has the editor run it: refused whole when a versioned
// document moved on, a file lies outside the workspace, or a file
// operation is not supported by the page.
func (c *connection) applyEdit(ctx ctxlite.Context, edit jsonlite.Raw) (bool, string) {
	e := c.cl.cfg.Editor
	if e == nil {
		return false, "no editor"
	}
	plan, err := features.PlanWorkspaceEdit(edit, c.editFile, c.cl.cfg.FileOps)
	if err != nil {
		return false, err.Error()
	}
	return e.Apply(ctx, plan)
}

// editFile resolves a server URI of a workspace edit: the session's model
// URI and path, and — when the server has the file open — the model whose
// text it holds and its version.
func (c *connection) editFile(uri string) (features.EditFile, bool) {
	model := c.serverToModel(uri)
	session, rel, ok := navigate.ParseModelURI(model)
	if !ok || !strings.EqualFold(session, c.p.key.sessionID) {
		return features.EditFile{}, false
	}
	f := features.EditFile{Session: c.p.key.sessionID, Path: rel, Model: model}
	if abs, ok := wire.PathFromFileURI(uri); ok {
		c.mu.Lock()
		e := c.byPath[path.Clean(abs)]
		c.mu.Unlock()
		if e != nil {
			f.Open, f.Model, f.Current = true, e.sd.Lead(), e.sd.AtVersion
		}
	}
	return f, true
}

// providerFailed logs a failed provider request once per cause (feature
// and error text) for this connection. A request that ended with the
// connection, or that the server cancelled because the document moved on
// (RequestCancelled, ContentModified), is no failure.
func (c *connection) providerFailed(name string, err error) {
	if errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, ctxlite.Canceled) {
		return
	}
	if rpcErr, ok := errors.AsType[*jsonrpc.Error](err); ok && (rpcErr.Code == jsonrpc.ErrRequestCancelled.Code || rpcErr.Code == jsonrpc.ErrContentModified.Code) {
		return
	}
	cause := name + ": " + err.Error()
	c.mu.Lock()
	if c.failures == nil {
		c.failures = make(map[string]bool)
	}
	seen := c.failures[cause]
	c.failures[cause] = true
	c.mu.Unlock()
	if !seen {
		c.cl.cfg.Logf("lsp: %s/%s %s (further failures with this cause are not logged)", c.p.key.sessionID, string(c.p.key.language), cause)
	}
}

// Saved reports a finished write of a model (docsync.Saved JSON) and
// answers {"dirty":bool}: on success every matching open server document
// gets its final didChange, then didSave if its server asked.
func (cl *Client) Saved(js string) (string, error) {
	s, err := docsync.ParseSaved(js)
	if err != nil {
		return "", err
	}
	return cl.hub.Saved(s).JSON(), nil
}

// NavigateRequest is the binding's editor-opener question: the model of the
// editor that asks (source), the target URI and the page's open tabs.
type NavigateRequest struct {
	Source  string         `json:"source"`
	Session string         `json:"sessionId"`
	Target  string         `json:"target"`
	Tabs    []navigate.Tab `json:"tabs"`
}

// NavigateResult is navigate.Target plus the open tab to activate.
type NavigateResult struct {
	navigate.Target
	Session string `json:"sessionId,omitempty"`
	TabID   string `json:"tabId,omitempty"`
}

// Navigate resolves an editor-opener target for the session of the source
// model (or the given session) with the workspace its task host reported —
// kept after its connection stops. Before any task host of the session
// reported one, the session's own model URIs are still handled; targets
// outside the workspace, of another session, or file:// targets without a
// known workspace are {"handled":false}.
func (cl *Client) Navigate(js string) string {
	r, ok := parseNavigateRequest(js)
	if !ok {
		return `{"handled":false}`
	}
	session := r.Session
	if s, _, ok := navigate.ParseModelURI(r.Source); ok && session == "" {
		session = s
	}
	if session == "" {
		return `{"handled":false}`
	}
	cl.mu.Lock()
	ws, ok := cl.workspaces[strings.ToLower(session)]
	cl.mu.Unlock()
	if !ok {
		// No server of this session reached ready yet (or none runs: a
		// session without LSP, where Monaco's own TypeScript worker
		// navigates): its own model URIs still open through the page's
		// tabs; file:// targets need the task host's workspace.
		ws = navigate.Workspace{Session: session}
	}
	t := ws.Resolve(r.Target)
	if !t.Handled {
		return `{"handled":false}`
	}
	out := NavigateResult{Target: t, Session: ws.Session}
	out.TabID, _ = ws.FindOpen(t.Path, r.Tabs)
	return string(out.AppendJSON(nil))
}

// AppendJSON appends r as JSON, as encoding/json would for its tags: the
// target's members, then the session and the tab.
func (r NavigateResult) AppendJSON(b []byte) []byte {
	b = r.Target.AppendJSON(b)
	b = b[:len(b)-1] // reopen the target's object
	if r.Session != "" {
		b = jsonlite.AppendString(jsonlite.AppendKey(b, "sessionId"), r.Session)
	}
	if r.TabID != "" {
		b = jsonlite.AppendString(jsonlite.AppendKey(b, "tabId"), r.TabID)
	}
	return append(b, '}')
}

// parseNavigateRequest decodes the binding's opener question; ok is false
// where encoding/json would have failed to decode it.
func parseNavigateRequest(js string) (NavigateRequest, bool) {
	v, err := jsonlite.Parse([]byte(js))
	if err != nil || !v.DecodeObject() {
		return NavigateRequest{}, false
	}
	var r NavigateRequest
	var ok [3]bool
	r.Source, ok[0] = v.Get("source").DecodeString()
	r.Session, ok[1] = v.Get("sessionId").DecodeString()
	r.Target, ok[2] = v.Get("target").DecodeString()
	tabs := v.Get("tabs")
	if ok != [3]bool{true, true, true} || !tabs.DecodeArray() {
		return NavigateRequest{}, false
	}
	if tabs.Kind() == jsonlite.Array {
		r.Tabs = []navigate.Tab{}
		for _, e := range tabs.Elems() {
			id, ok1 := e.Get("id").DecodeString()
			repo, ok2 := e.Get("repo").DecodeString()
			p, ok3 := e.Get("path").DecodeString()
			if !e.DecodeObject() || !ok1 || !ok2 || !ok3 {
				return NavigateRequest{}, false
			}
			r.Tabs = append(r.Tabs, navigate.Tab{ID: id, Repo: repo, Path: p})
		}
	}
	return r, true
}
