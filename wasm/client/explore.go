package client

import (
	"errors"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/hierarchy"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// Explore runs one of the page's own requests (hierarchy.Lookup names
// them): workspace symbols through the server of a model, a call or type
// hierarchy prepared at a position, or a step from an item of an earlier
// answer, sent to the connection that produced it. It answers the page's
// JSON; "[]" (or "null" for a resolve) when no live server offers the
// feature, the item's connection has ended, or the request failed —
// logged once per cause, as provider failures are. Only a malformed
// request is an error.
func (cl *Client) Explore(ctx ctxlite.Context, js string) (string, error) {
	r, err := hierarchy.ParseRequest(js)
	if err != nil {
		return "", err
	}
	empty := "[]"
	if r.Op.Name == "resolveWorkspaceSymbol" {
		empty = "null"
	}
	var c *connection
	docURI := ""
	if r.Op.Item {
		cl.mu.Lock()
		c = cl.conns[r.Conn]
		cl.mu.Unlock()
	} else {
		var d *Document
		if c, d = cl.serving("", r.Model, func(c *connection, _ *Document) bool { return c.offers(r.Op.Capability, r.Op.Register) }); d != nil {
			docURI, _ = d.flushForRequest(c)
		}
		if docURI == "" {
			return empty, nil
		}
	}
	if c == nil || !c.offers(r.Op.Capability, r.Op.Register) {
		return empty, nil
	}
	c.mu.Lock()
	rpc := c.rpc
	c.mu.Unlock()
	ctx, cancel := ctxlite.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var raw jsonlite.Raw
	if err := rpc.Call(ctx, r.Op.Method, r.Params(docURI), &raw); err != nil {
		if !errors.Is(err, ctxlite.Canceled) {
			c.providerFailed(r.Op.Name, err)
		}
		return empty, nil
	}
	out, err := hierarchy.Result(r, raw, c.id(), c.serverToModel)
	if err != nil {
		c.providerFailed(r.Op.Name, err)
		return empty, nil
	}
	return out, nil
}

// offers reports whether the server offers a capability: statically in
// its initialize answer (true or an options object), or by a dynamic
// registration of method still in force.
func (c *connection) offers(capability, method string) bool {
	c.mu.Lock()
	caps, reg := c.caps, c.reg
	c.mu.Unlock()
	if v, err := jsonlite.Parse(caps); err == nil {
		switch m := v.Get(capability); m.Kind() {
		case jsonlite.Object:
			return true
		case jsonlite.Bool:
			if b, _ := m.Bool(); b {
				return true
			}
		}
	}
	return reg != nil && len(reg.Registered(method)) > 0
}
