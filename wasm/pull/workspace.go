package pull

import (
	"errors"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// MethodWorkspace is the request for the diagnostics of every file of the
// workspace, offered by a provider with workspaceDiagnostics.
const MethodWorkspace = "workspace/diagnostic"

// Workspace pulls (workspace/diagnostic) run for a provider that offers
// them: when it is registered, on workspace/diagnostic/refresh and after a
// save — one at a time per provider, a newer trigger cancelling the one in
// flight (a server may hold the request open until something changes).
// Their reports are shown for files that are not open; an open document's
// own pulls answer for its newest text. Each file's result id goes back
// as previousResultIds, so unchanged files cost the server nothing.

// workspaceLocked starts the workspace pull of pr, or restarts the one in
// flight. p.mu must be held.
func (p *Puller) workspaceLocked(pr *provider) {
	if !pr.WorkspaceDiagnostics || pr.off || p.ctx.Err() != nil {
		return
	}
	s := &pr.ws
	if s.running {
		s.again = true
		s.cancel()
		return
	}
	s.running, s.again = true, false
	ctx, cancel := ctxlite.WithCancel(p.ctx)
	s.cancel = cancel
	b := []byte(`{"previousResultIds":[`)
	first := true
	for uri := range pr.ids { // any order: the server looks each up
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonlite.AppendString(jsonlite.AppendLit(b, `{"uri":`), uri)
		b = jsonlite.AppendString(jsonlite.AppendLit(b, `,"value":`), pr.ids[uri])
		b = append(b, '}')
	}
	b = append(b, ']')
	if pr.Identifier != "" {
		b = jsonlite.AppendString(jsonlite.AppendLit(b, `,"identifier":`), pr.Identifier)
	}
	p.wg.Add(1)
	go p.runWorkspace(ctx, pr, jsonlite.Raw(append(b, '}')))
}

// runWorkspace is one workspace pull.
func (p *Puller) runWorkspace(ctx ctxlite.Context, pr *provider, params jsonlite.Raw) {
	defer p.wg.Done()
	var raw jsonlite.Raw
	err := p.cfg.Call(ctx, MethodWorkspace, params, &raw)
	p.mu.Lock()
	s := &pr.ws
	s.cancel()
	s.running = false
	rpcErr, isRPC := errors.AsType[*jsonrpc.Error](err)
	switch {
	case pr.off || p.ctx.Err() != nil:
	case s.again:
		s.retries = 0
		p.workspaceLocked(pr)
	case err == nil:
		s.retries = 0
		p.workspaceReportLocked(pr, raw)
	case !isRPC:
	case rpcErr.Code == jsonrpc.ErrServerCancelled.Code && retrigger(rpcErr.Data) || rpcErr.Code == jsonrpc.ErrContentModified.Code:
		if s.retries < maxRetries {
			s.retries++
			p.workspaceLocked(pr)
		} else {
			s.retries = 0
		}
	case rpcErr.Code == jsonrpc.ErrMethodNotFound.Code:
		pr.WorkspaceDiagnostics = false
		p.logOnceLocked(pr, rpcErr.Code, "lsp: %s: %v; workspace diagnostics off for this connection", MethodWorkspace, err)
	case rpcErr.Code != jsonrpc.ErrRequestCancelled.Code && rpcErr.Code != jsonrpc.ErrServerCancelled.Code:
		p.logOnceLocked(pr, rpcErr.Code, "lsp: %s: %v", MethodWorkspace, err)
	}
	deliver := p.startDeliveryLocked()
	p.mu.Unlock()
	if deliver {
		p.deliver()
	}
}

// workspaceReportLocked applies a WorkspaceDiagnosticReport: each item is
// one file's full or unchanged report.
func (p *Puller) workspaceReportLocked(pr *provider, raw jsonlite.Raw) {
	v, err := raw.Value()
	items := v.Get("items")
	if err != nil || v.Kind() != jsonlite.Object || items.Kind() != jsonlite.Array {
		p.logOnceLocked(pr, 0, "lsp: malformed %s answer", MethodWorkspace)
		return
	}
	for _, it := range items.Elems() {
		uri, ok := it.Get("uri").Str()
		if !ok || p.docs[uri] != nil {
			continue // an open document's own pulls answer for it
		}
		var s slot
		if !p.applyLocked(uri, pr, &s, it) {
			p.logOnceLocked(pr, 0, "lsp: malformed %s report for %s", MethodWorkspace, uri)
			continue
		}
		if pr.ids == nil {
			pr.ids = make(map[string]string)
		}
		if s.resultID != "" {
			pr.ids[uri] = s.resultID
		}
	}
}
