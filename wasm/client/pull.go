package client

import (
	"path"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/problems"
	"github.com/kandev/lsp/wasm/pull"
)

// pushed is the marker set of publishDiagnostics; every pull provider has
// its own (pull.Registration.Set), so a report of one never clears
// another's.
const pushed = ""

// newPuller makes the connection's pull-diagnostics scheduler, with the
// server's static diagnosticProvider when it has one. It exists before
// initialized goes out: a server may register a provider at once.
func (c *connection) newPuller(rpc *jsonrpc.Conn, capabilities []byte) *pull.Puller {
	p := pull.New(pull.Config{
		Call: func(ctx ctxlite.Context, method string, params jsonlite.Appender, result *jsonlite.Raw) error {
			return rpc.Call(ctx, method, params, result)
		},
		Show:    c.setDiagnostics,
		Matches: features.SelectorMatches,
		Logf:    c.cl.cfg.Logf,
	})
	if r, ok := pull.ParseStatic(capabilities); ok && c.mask.usesDiagnostics() {
		p.Register(r)
	}
	return p
}

// puller is the connection's scheduler, nil before initialize answered.
func (c *connection) puller() *pull.Puller {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pull
}

// sent tells the scheduler that a document notification went out: it
// pulls after didOpen, didChange and didSave, and forgets the document
// after didClose. It never blocks, so docsync may call it with its locks
// held.
func (c *connection) sent(method, uri, languageID string) {
	p := c.puller()
	if p == nil {
		return
	}
	switch method {
	case lsptypes.MethodDidOpen:
		p.Open(uri, languageID)
	case lsptypes.MethodDidChange:
		p.Changed(uri)
	case lsptypes.MethodDidSave:
		p.Saved(uri)
	case lsptypes.MethodDidClose:
		p.Closed(uri)
	}
}

// setDiagnostics replaces one marker set of the server document for uri and
// shows the union of its sets in every model of the file; the session's
// problems list takes them too, for any file of the workspace, open or not.
func (c *connection) setDiagnostics(uri, set string, ds []lsptypes.Diagnostic) {
	if !c.mask.usesDiagnostics() {
		return // another server of the language shows this file's problems
	}
	abs, ok := wire.PathFromFileURI(uri)
	if !ok {
		return
	}
	abs = path.Clean(abs)
	c.mu.Lock()
	var docs []*Document
	var all []lsptypes.Diagnostic
	if e := c.byPath[abs]; e != nil {
		e.set(set, ds)
		all = e.diagnostics()
		docs = append(docs, e.docs...)
	}
	ws := c.workspace
	c.mu.Unlock()
	for _, d := range docs {
		d.diagnostics(c, all)
	}
	rel, ok := strings.CutPrefix(abs, ws+"/")
	if !ok || ws == "" {
		return
	}
	model := c.serverToModel(uri)
	c.probMu.Lock()
	defer c.probMu.Unlock()
	if !c.probEnded { // a late report must not outlive the generation's Drop
		c.cl.problems.Set(c.p.key.sessionID, rel, model, string(c.p.key.language), c.problemOwner()+set, ds)
	}
}

// dropProblems removes this generation's entries from the problems list;
// nothing it reports later is listed.
func (c *connection) dropProblems() {
	c.probMu.Lock()
	defer c.probMu.Unlock()
	c.probEnded = true
	c.cl.problems.Drop(c.problemOwner())
}

// problemOwner prefixes the owners of this generation's entries in the
// problems list, so that its end drops exactly them.
func (c *connection) problemOwner() string { return c.id() + "\x00" }

// Problems is the problems list of a session as JSON: every file with
// diagnostics, open or not (problems.AppendJSON).
func (cl *Client) Problems(sessionID string) string {
	cl.mu.Lock()
	ws, ok := cl.workspaces[strings.ToLower(sessionID)]
	cl.mu.Unlock()
	mapURI := func(u string) string { return u }
	if ok {
		mapURI = ws.ServerToModel
	}
	return string(problems.AppendJSON(nil, cl.problems.List(sessionID), mapURI))
}

// markerSet is one marker set of a server document.
type markerSet struct {
	name string
	ds   []lsptypes.Diagnostic
}

// set replaces one marker set; an empty one is dropped. Sets keep the
// order they first came in (pushed diagnostics, then pull providers).
func (e *serverDoc) set(name string, ds []lsptypes.Diagnostic) {
	for i := range e.sets {
		if e.sets[i].name != name {
			continue
		}
		if len(ds) == 0 {
			e.sets = append(e.sets[:i:i], e.sets[i+1:]...)
		} else {
			e.sets[i].ds = ds
		}
		return
	}
	if len(ds) > 0 {
		e.sets = append(e.sets, markerSet{name, ds})
	}
}

// diagnostics is the union of the document's marker sets.
func (e *serverDoc) diagnostics() []lsptypes.Diagnostic {
	if len(e.sets) == 1 {
		return e.sets[0].ds
	}
	var out []lsptypes.Diagnostic
	for _, s := range e.sets {
		out = append(out, s.ds...)
	}
	return out
}

// pullRegistration applies the textDocument/diagnostic entries of a
// client/registerCapability or unregisterCapability request.
func (c *connection) pullRegistration(register bool, params jsonlite.Raw) {
	p := c.puller()
	if p == nil {
		return
	}
	if register {
		regs, err := pull.ParseRegister(params)
		if err != nil {
			c.cl.cfg.Logf("lsp: diagnostic registration: %v", err)
			return
		}
		if len(regs) > 0 {
			p.Register(regs...)
		}
		return
	}
	if ids, err := pull.ParseUnregister(params); err == nil && len(ids) > 0 {
		p.Unregister(ids...)
	}
}
