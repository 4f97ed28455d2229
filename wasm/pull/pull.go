// Package pull runs LSP 3.17 pull diagnostics (textDocument/diagnostic)
// for one connection: which open documents to ask about and when, one
// request in flight per document and provider, result ids, related
// documents, and what a failure means. It is pure Go: the client hands it
// the JSON-RPC call and takes the reports through Config.Show.
//
// When a document is pulled:
//   - after its didOpen went out, and after each didChange (at the change
//     listener's pace: a pull still running when the next change goes out
//     is cancelled, which sends $/cancelRequest, and a new one follows once
//     it returned);
//   - after a didSave (sent only when the server asked for saves);
//   - when a provider is registered, and on workspace/diagnostic/refresh;
//   - for a provider with interFileDependencies, after a change in any
//     other open document of the connection (an edit in a.ts that breaks
//     b.ts shows in b.ts without touching it).
//
// A provider with workspaceDiagnostics is also asked for every file of the
// workspace (workspace.go); those reports reach Show for files that are not
// open, for the page's problems list.
//
// Failures: ServerCancelled (unless its data says retriggerRequest: false)
// and ContentModified pull again, at most maxRetries times in a row;
// MethodNotFound switches that provider off for the connection (logged
// once), pushed diagnostics keep working; any other error is logged once
// per provider and code, and the next trigger pulls again.
package pull

import (
	"errors"
	"strconv"
	"sync"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// maxRetries bounds the pulls in a row that a server answers with
// ServerCancelled or ContentModified: a server that always refuses is asked
// again at the next change, not in a loop.
const maxRetries = 3

// Config connects a Puller to its connection.
type Config struct {
	// Call sends a request (textDocument/diagnostic or
	// workspace/diagnostic) with params and waits for the answer; when ctx
	// ends first it must give up (and tell the server). Required.
	Call func(ctx ctxlite.Context, method string, params jsonlite.Appender, result *jsonlite.Raw) error
	// Show replaces the diagnostics of one marker set (Registration.Set)
	// of the file uri; nil clears them. It is called for open documents
	// and for related documents that may have no model. Calls never
	// overlap and keep the order of the reports. Required.
	Show func(uri, set string, ds []lsptypes.Diagnostic)
	// Matches reports whether a registration's documentSelector selects
	// documents of languageID; nil matches every document.
	Matches func(selector jsonlite.Raw, languageID string) bool
	// Logf reports failures; nil discards them.
	Logf func(format string, args ...any)
}

// Puller schedules the pulls of one connection. Its methods never block on
// the server: every pull runs on a goroutine of its own, so they may be
// called while the caller holds its document locks.
type Puller struct {
	cfg    Config
	ctx    ctxlite.Context
	cancel ctxlite.CancelFunc

	mu         sync.Mutex
	regs       []*provider     // in force, in registration order
	docs       map[string]*doc // open documents by server URI
	logged     map[string]bool // failures already reported
	out        []shown         // reports waiting for Show, in order
	delivering bool            // a goroutine is calling Show
	wg         sync.WaitGroup  // running pulls
}

// provider is one Registration in force.
type provider struct {
	Registration
	off bool // answered MethodNotFound: not pulled any more
	// ws is the provider's workspace pull (WorkspaceDiagnostics); its
	// resultID is unused, ids holds the result id of each file instead.
	ws  slot
	ids map[string]string
}

// doc is one open document.
type doc struct {
	uri, lang string
	slots     map[*provider]*slot
}

// slot is the pull state of one document for one provider.
type slot struct {
	resultID string             // of the last report shown
	running  bool               // a pull is in flight
	cancel   ctxlite.CancelFunc // ends the pull in flight
	again    bool               // pull once more when the running one returns
	retries  int                // ServerCancelled/ContentModified in a row
	shown    bool               // a report of this provider is showing
}

// shown is one Show call waiting its turn.
type shown struct {
	uri, set string
	ds       []lsptypes.Diagnostic
}

// New returns a Puller with no provider; Register adds them.
func New(cfg Config) *Puller {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	return &Puller{cfg: cfg, ctx: ctx, cancel: cancel, docs: make(map[string]*doc), logged: make(map[string]bool)}
}

// Register adds providers (a registration with an id already in force
// replaces it) and pulls every open document they select.
func (p *Puller) Register(regs ...Registration) {
	p.mu.Lock()
	for _, r := range regs {
		if r.ID != "" {
			p.removeLocked(r.ID)
		}
		pr := &provider{Registration: r}
		p.regs = append(p.regs, pr)
		for _, d := range p.docs {
			p.pullLocked(d, pr)
		}
		p.workspaceLocked(pr)
	}
	deliver := p.startDeliveryLocked()
	p.mu.Unlock()
	if deliver {
		p.deliver()
	}
}

// Unregister removes the providers with these registration ids; their
// diagnostics are cleared.
func (p *Puller) Unregister(ids ...string) {
	p.mu.Lock()
	for _, id := range ids {
		p.removeLocked(id)
	}
	deliver := p.startDeliveryLocked()
	p.mu.Unlock()
	if deliver {
		p.deliver()
	}
}

// removeLocked drops the provider registered as id: its pulls end and its
// markers go.
func (p *Puller) removeLocked(id string) {
	for i, pr := range p.regs {
		if pr.ID != id {
			continue
		}
		pr.off = true
		if pr.ws.cancel != nil {
			pr.ws.cancel()
		}
		for uri := range pr.ids {
			if p.docs[uri] == nil {
				p.out = append(p.out, shown{uri: uri, set: pr.Set()})
			}
		}
		p.regs = append(p.regs[:i:i], p.regs[i+1:]...)
		for _, d := range p.docs {
			s := d.slots[pr]
			if s == nil {
				continue
			}
			if s.cancel != nil {
				s.cancel()
			}
			if s.shown {
				p.out = append(p.out, shown{uri: d.uri, set: pr.Set()})
			}
			delete(d.slots, pr)
		}
		return
	}
}

// Open starts tracking a document whose didOpen went out and pulls it.
func (p *Puller) Open(uri, languageID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return
	}
	d := p.docs[uri]
	if d == nil {
		d = &doc{uri: uri, lang: languageID, slots: make(map[*provider]*slot)}
		p.docs[uri] = d
	}
	for _, pr := range p.regs {
		p.pullLocked(d, pr)
	}
}

// Changed pulls a document whose didChange went out and, for providers
// with interFileDependencies, every other open document.
func (p *Puller) Changed(uri string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.docs[uri]
	if d == nil {
		return
	}
	for _, pr := range p.regs {
		p.pullLocked(d, pr)
		if !pr.InterFileDependencies {
			continue
		}
		for _, o := range p.docs {
			if o != d {
				p.pullLocked(o, pr)
			}
		}
	}
}

// Saved pulls a document whose didSave went out.
func (p *Puller) Saved(uri string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d := p.docs[uri]; d != nil {
		for _, pr := range p.regs {
			p.pullLocked(d, pr)
		}
	}
	for _, pr := range p.regs {
		p.workspaceLocked(pr) // a save may change what other files report
	}
}

// Closed stops tracking a document whose didClose went out; a pull in
// flight for it is cancelled and its answer dropped. The caller clears the
// document's markers.
func (p *Puller) Closed(uri string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.docs[uri]
	if d == nil {
		return
	}
	delete(p.docs, uri)
	for _, s := range d.slots {
		if s.cancel != nil {
			s.cancel()
		}
	}
}

// Refresh pulls every open document for every provider
// (workspace/diagnostic/refresh).
func (p *Puller) Refresh() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range p.docs {
		for _, pr := range p.regs {
			p.pullLocked(d, pr)
		}
	}
	for _, pr := range p.regs {
		p.workspaceLocked(pr)
	}
}

// Stop cancels every pull and waits for them to return; nothing is shown
// after it. The connection ended.
func (p *Puller) Stop() {
	p.mu.Lock()
	p.cancel()
	p.docs = make(map[string]*doc)
	p.out = nil
	p.mu.Unlock()
	p.wg.Wait()
}

// Active reports whether any provider is in force, so the caller knows
// whether a document's diagnostics come from pulls too.
func (p *Puller) Active() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.regs {
		if !pr.off {
			return true
		}
	}
	return false
}

// pullLocked starts a pull of d for pr, or, with one in flight, cancels it
// and pulls again once it returned: one request per document and provider
// at a time, always for the newest text. p.mu must be held.
func (p *Puller) pullLocked(d *doc, pr *provider) {
	if pr.off || p.ctx.Err() != nil || (p.cfg.Matches != nil && !p.cfg.Matches(pr.Selector, d.lang)) {
		return
	}
	s := d.slots[pr]
	if s == nil {
		s = &slot{}
		d.slots[pr] = s
	}
	if s.running {
		s.again = true
		s.cancel()
		return
	}
	s.running, s.again = true, false
	ctx, cancel := ctxlite.WithCancel(p.ctx)
	s.cancel = cancel
	params := appendParams(nil, d.uri, pr.Identifier, s.resultID)
	p.wg.Add(1)
	go p.run(ctx, d, pr, s, jsonlite.Raw(params))
}

// appendParams appends DocumentDiagnosticParams.
func appendParams(b []byte, uri, identifier, previous string) []byte {
	b = jsonlite.AppendString(jsonlite.AppendLit(b, `{"textDocument":{"uri":`), uri)
	b = append(b, '}')
	if identifier != "" {
		b = jsonlite.AppendString(jsonlite.AppendLit(b, `,"identifier":`), identifier)
	}
	if previous != "" {
		b = jsonlite.AppendString(jsonlite.AppendLit(b, `,"previousResultId":`), previous)
	}
	return append(b, '}')
}

// run is one pull: the request, then what its answer means.
func (p *Puller) run(ctx ctxlite.Context, d *doc, pr *provider, s *slot, params jsonlite.Raw) {
	defer p.wg.Done()
	var raw jsonlite.Raw
	err := p.cfg.Call(ctx, MethodDocument, params, &raw)
	p.mu.Lock()
	s.cancel()
	s.running = false
	current := p.docs[d.uri] == d && d.slots[pr] == s && !pr.off && p.ctx.Err() == nil
	switch {
	case !current:
		// Closed, unregistered or stopped meanwhile: nobody wants it.
	case s.again:
		// A newer text went out: this answer is stale, and so is its
		// result id. Ask about the new text.
		s.retries = 0
		p.pullLocked(d, pr)
	case err == nil:
		s.retries = 0
		p.reportLocked(d, pr, s, raw)
	default:
		p.failedLocked(d, pr, s, err)
	}
	deliver := p.startDeliveryLocked()
	p.mu.Unlock()
	if deliver {
		p.deliver()
	}
}

// failedLocked decides what a failed pull means.
func (p *Puller) failedLocked(d *doc, pr *provider, s *slot, err error) {
	rpcErr, isRPC := errors.AsType[*jsonrpc.Error](err)
	switch {
	case !isRPC:
		// The connection ended or the pull was cancelled: nothing to do.
	case rpcErr.Code == jsonrpc.ErrServerCancelled.Code && !retrigger(rpcErr.Data),
		rpcErr.Code == jsonrpc.ErrRequestCancelled.Code:
		// The server gave up and does not want to be asked again now.
	case rpcErr.Code == jsonrpc.ErrServerCancelled.Code || rpcErr.Code == jsonrpc.ErrContentModified.Code:
		if s.retries < maxRetries {
			s.retries++
			p.pullLocked(d, pr)
			return
		}
		s.retries = 0
		p.logOnceLocked(pr, rpcErr.Code, "lsp: %s pulled %d times in a row without an answer (%v); next change pulls again", MethodDocument, maxRetries+1, err)
	case rpcErr.Code == jsonrpc.ErrMethodNotFound.Code:
		pr.off = true
		p.logOnceLocked(pr, rpcErr.Code, "lsp: %s: %v; pull diagnostics off for this connection", MethodDocument, err)
	default:
		p.logOnceLocked(pr, rpcErr.Code, "lsp: %s %s: %v", MethodDocument, d.uri, err)
	}
}

// retrigger reads DiagnosticServerCancellationData: ask again unless the
// server said retriggerRequest: false.
func retrigger(data jsonlite.Raw) bool {
	if len(data) == 0 {
		return true
	}
	v, err := data.Value()
	if err != nil {
		return true
	}
	b, ok := v.Get("retriggerRequest").Bool()
	return !ok || b
}

func (p *Puller) logOnceLocked(pr *provider, code int64, format string, args ...any) {
	key := pr.ID + "\x00" + pr.Identifier + "\x00" + strconv.FormatInt(code, 10)
	if p.logged[key] {
		return
	}
	p.logged[key] = true
	p.cfg.Logf(format, args...)
}

// reportLocked applies a DocumentDiagnosticReport: a full report replaces
// the document's diagnostics of pr's set, an unchanged one keeps them;
// either may carry reports of related documents, applied the same way.
func (p *Puller) reportLocked(d *doc, pr *provider, s *slot, raw jsonlite.Raw) {
	v, err := raw.Value()
	if err != nil || v.Kind() != jsonlite.Object {
		if len(raw) > 0 && !raw.IsNull() {
			p.logOnceLocked(pr, 0, "lsp: malformed %s answer for %s", MethodDocument, d.uri)
		}
		return
	}
	if !p.applyLocked(d.uri, pr, s, v) {
		p.logOnceLocked(pr, 0, "lsp: malformed %s answer for %s", MethodDocument, d.uri)
		return
	}
	for uri, rel := range v.Get("relatedDocuments").Members() {
		if uri == d.uri {
			continue
		}
		var rs *slot // nil: a file that is not open keeps no result id
		if o := p.docs[uri]; o != nil {
			if rs = o.slots[pr]; rs == nil {
				rs = &slot{}
				o.slots[pr] = rs
			} else if rs.running {
				continue // its own pull answers for its newest text
			}
		}
		p.applyLocked(uri, pr, rs, rel)
	}
}

// applyLocked applies one full or unchanged report for uri; s is the
// document's slot, nil for a file that is not open (its diagnostics are
// shown, no result id is kept). It reports whether the report was well
// formed.
func (p *Puller) applyLocked(uri string, pr *provider, s *slot, v jsonlite.Value) bool {
	kind, _ := v.Get("kind").DecodeString()
	id, ok := v.Get("resultId").DecodeString()
	if !ok {
		return false
	}
	switch kind {
	case "unchanged":
		if s != nil && id != "" {
			s.resultID = id
		}
		return true
	case "full":
	default:
		return false
	}
	items := v.Get("items")
	if items.Kind() != jsonlite.Array {
		return false
	}
	ds := make([]lsptypes.Diagnostic, 0, items.Len())
	for _, e := range items.Elems() {
		diag, ok := lsptypes.ParseDiagnostic(e)
		if !ok {
			return false
		}
		ds = append(ds, diag)
	}
	if s != nil {
		s.resultID = id
		s.shown = true
	}
	p.out = append(p.out, shown{uri: uri, set: pr.Set(), ds: ds})
	return true
}

// startDeliveryLocked reports whether the caller must run deliver: there
// are reports to show and no goroutine is showing them.
func (p *Puller) startDeliveryLocked() bool {
	if p.delivering || len(p.out) == 0 {
		return false
	}
	p.delivering = true
	return true
}

// deliver calls Show for every waiting report, in order, without p.mu held:
// Show takes the client's document locks, which callers of this package
// hold while they call it.
func (p *Puller) deliver() {
	for {
		p.mu.Lock()
		batch := p.out
		p.out = nil
		if len(batch) == 0 || p.ctx.Err() != nil {
			p.delivering = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		for _, r := range batch {
			p.cfg.Show(r.uri, r.set, r.ds)
		}
	}
}
