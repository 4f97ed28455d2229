package client

import (
	"context"
	"errors"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/docsync"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/navigate"
)

// requestTimeout bounds one provider request; Monaco shows nothing after it.
const requestTimeout = 30 * time.Second

// Editor receives the Monaco-facing events of the client: the provider
// registrations of each connection, semantic-token refreshes and the
// suppression snapshot of Monaco's TypeScript/JavaScript built-ins. The
// binding implements it; calls may come from any goroutine, and the calls
// for one connection come in order.
type Editor interface {
	// Providers replaces every Monaco provider of connection connID with the
	// given registrations (none: dispose them all — the connection ended).
	Providers(connID string, regs []Registration)
	// SemanticRefresh fires the onDidChange of connection connID's
	// semantic-token providers (workspace/semanticTokens/refresh).
	SemanticRefresh(connID string)
	// Suppress publishes the suppression snapshot (suppress.State.Snapshot).
	Suppress(snapshot string)
}

// Registration is one Monaco language id's providers of one connection:
// JSON is features.ProvidersJSON.
type Registration struct {
	LanguageID string
	JSON       string
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
	return c.p.key.sessionID + "\x00" + string(c.p.key.language) + "\x00" + strconv.FormatUint(c.gen, 10)
}

// ready records the initialized server's capabilities and workspace, and
// registers its providers and suppression state. Called once, from run.
func (c *connection) editorReady(caps jsonlite.Raw, st wire.Status) {
	reg, err := features.NewRegistry(caps)
	if err != nil {
		c.cl.cfg.Logf("lsp: capabilities: %v", err)
		reg, _ = features.NewRegistry(nil)
	}
	ws, ok := navigate.FromReady(c.p.key.sessionID, st)
	if !ok {
		ws = navigate.Workspace{Session: c.p.key.sessionID, Path: c.workspace}
	}
	c.mu.Lock()
	c.reg = reg
	c.mu.Unlock()
	cl := c.cl
	cl.mu.Lock()
	if cl.conns == nil {
		cl.conns = make(map[string]*connection)
	}
	cl.conns[c.id()] = c
	cl.workspaces[strings.ToLower(c.p.key.sessionID)] = ws
	cl.mu.Unlock()
	c.publishProviders()
}

// publishProviders hands the binding this connection's current providers,
// one registration per Monaco language id of its language, and updates the
// suppression state. It is a no-op once the connection ended.
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
	var regs []Registration
	var set features.Set
	for _, id := range info.MonacoIDs {
		p := reg.For(id)
		set |= p.Set
		regs = append(regs, Registration{LanguageID: id, JSON: features.ProvidersJSON(p)})
	}
	cl := c.cl
	cl.suppress.SetConnection(c.id(), strings.ToLower(c.p.key.sessionID), info.MonacoIDs, set)
	if cl.cfg.Editor != nil {
		cl.cfg.Editor.Providers(c.id(), regs)
	}
	cl.publishSuppression()
}

// editorEnded disposes the connection's providers, suppression and
// registry entry; other connections are untouched.
func (c *connection) editorEnded() {
	c.provMu.Lock()
	defer c.provMu.Unlock()
	cl := c.cl
	cl.mu.Lock()
	_, had := cl.conns[c.id()]
	delete(cl.conns, c.id())
	cl.mu.Unlock()
	cl.suppress.RemoveConnection(c.id())
	if had && cl.cfg.Editor != nil {
		cl.cfg.Editor.Providers(c.id(), nil)
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

// registration applies client/registerCapability or unregisterCapability
// and re-registers the providers.
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
	c.publishProviders()
}

// docByModel returns the document open on c for a Monaco model URI.
func (c *connection) docByModel(model string) *Document {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.byPath {
		if d.model == model {
			return d
		}
	}
	return nil
}

// serverToModel maps a server location URI to the Monaco model URI: the
// open document's model, else this session's model URI for the path.
func (c *connection) serverToModel(uri string) string {
	if abs, ok := wire.PathFromFileURI(uri); ok {
		c.mu.Lock()
		d := c.byPath[path.Clean(abs)]
		c.mu.Unlock()
		if d != nil {
			return d.model
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

// emptyResult is a feature's answer when there is nothing to ask.
func emptyResult(f features.Feature) string {
	switch f {
	case features.Completion:
		return `{"suggestions":[],"incomplete":false}`
	case features.References, features.Definition:
		return `[]`
	case features.SemanticTokens:
		return `{"data":[]}`
	}
	return "null"
}

// FeatureByName returns the feature named as features.Feature.String does.
func FeatureByName(name string) (features.Feature, bool) {
	for _, f := range features.All {
		if f.String() == name {
			return f, true
		}
	}
	return 0, false
}

// ErrNoConnection is returned by Provide for a connection that ended.
var ErrNoConnection = errors.New("client: the connection ended")

// Provide runs one Monaco provider call of connection connID: req is the
// binding's request JSON (features.CompletionRequest, PositionRequest or
// SignatureHelpRequest) and the answer is the JSON Monaco expects. A model
// this connection does not serve, or a feature its server does not (or no
// longer) advertise for the model's language, gets an empty answer without
// any request. Pending edits of the model are sent first, so the server
// answers for the text on screen.
func (cl *Client) Provide(ctx context.Context, connID string, f features.Feature, req string) (string, error) {
	cl.mu.Lock()
	c := cl.conns[connID]
	cl.mu.Unlock()
	if c == nil {
		return emptyResult(f), nil
	}
	var uri string
	var err error
	var comp features.CompletionRequest
	var pos features.PositionRequest
	var sig features.SignatureHelpRequest
	switch f {
	case features.Completion:
		comp, err = features.ParseCompletionRequest(req)
		uri = comp.URI
	case features.SignatureHelp:
		sig, err = features.ParseSignatureHelpRequest(req)
		uri = sig.URI
	default:
		pos, err = features.ParsePositionRequest(req)
		uri = pos.URI
	}
	if err != nil {
		return "", err
	}
	d := c.docByModel(uri)
	c.mu.Lock()
	reg, rpc := c.reg, c.rpc
	c.mu.Unlock()
	if d == nil || reg == nil || !reg.For(d.languageID).Allows(f) {
		return emptyResult(f), nil
	}
	docURI := d.flushForRequest(c)
	if docURI == "" {
		return emptyResult(f), nil
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var params jsonlite.Appender
	switch f {
	case features.Completion:
		params = comp.Params(docURI)
	case features.SignatureHelp:
		params = sig.Params(docURI)
	case features.References:
		params = pos.ReferenceParams(docURI)
	case features.SemanticTokens:
		params = pos.SemanticTokensParams(docURI)
	default:
		params = pos.PositionParams(docURI)
	}
	var raw jsonlite.Raw
	if err := rpc.Call(ctx, f.Method(), params, &raw); err != nil {
		return "", err
	}
	switch f {
	case features.Completion:
		return features.CompletionResult(raw, comp)
	case features.Hover:
		return features.HoverResult(raw)
	case features.Definition, features.References:
		return features.LocationsResult(raw, c.serverToModel)
	case features.SignatureHelp:
		return features.SignatureHelpResult(raw)
	case features.SemanticTokens:
		return features.SemanticTokensResult(raw)
	}
	return "null", nil
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
// kept after its connection stops. Targets outside that workspace, or with
// no known workspace, are {"handled":false}.
func (cl *Client) Navigate(js string) string {
	r, ok := parseNavigateRequest(js)
	if !ok {
		return `{"handled":false}`
	}
	session := r.Session
	if s, _, ok := navigate.ParseModelURI(r.Source); ok && session == "" {
		session = s
	}
	cl.mu.Lock()
	ws, ok := cl.workspaces[strings.ToLower(session)]
	cl.mu.Unlock()
	if !ok {
		return `{"handled":false}`
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
