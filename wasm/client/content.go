package client

import (
	"slices"
	"strings"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/navigate"
)

// Server documents (LSP 3.18 workspace/textDocumentContent): a server may
// name locations in a URI scheme of its own (jdtls's class files, Deno's
// built-in declarations) and give their text on request. Such a location
// maps to a session-scoped content model URI (navigate.ContentURI); the
// page opens it read-only with the text ContentCall reads, and a refresh
// from the server puts the new text into the model.

// ContentCall is the binding's call name (Provide) that reads a server
// document's text: {"uri": content model URI} → the text as a JSON
// string, or null when no server of the session provides that scheme.
const ContentCall = "documentContent"

// ContentSetter is optionally implemented by the Editor: SetContent
// replaces the text of the model modelURI, when one exists, after a
// server refreshed its document.
type ContentSetter interface {
	SetContent(modelURI, text string)
}

// contentSchemes are the schemes the connection's server provides
// documents of.
func (c *connection) contentSchemes() []string {
	c.mu.Lock()
	reg := c.reg
	c.mu.Unlock()
	if reg == nil {
		return nil
	}
	return reg.For("").ContentSchemes
}

// contentModel maps a server URI in one of the server's own schemes to its
// content model URI; ok is false for any other URI.
func (c *connection) contentModel(uri string) (string, bool) {
	scheme := navigate.SchemeOf(uri)
	if scheme == "" || scheme == "file" || !slices.Contains(c.contentSchemes(), scheme) {
		return "", false
	}
	return navigate.ContentURI(c.p.key.sessionID, uri), true
}

// content answers ContentCall: the first live connection of the model's
// session whose server provides the URI's scheme is asked for the text.
func (cl *Client) content(ctx ctxlite.Context, req string) (string, error) {
	r, err := features.ParseRequest(req)
	if err != nil {
		return "", err
	}
	session, uri, ok := navigate.ParseContentURI(r.URI)
	if !ok {
		return "null", nil
	}
	cl.mu.Lock()
	var conns []*connection
	for _, c := range cl.conns {
		if strings.EqualFold(c.p.key.sessionID, session) {
			conns = append(conns, c)
		}
	}
	cl.mu.Unlock()
	slices.SortFunc(conns, func(a, b *connection) int { return strings.Compare(a.id(), b.id()) })
	for _, c := range conns {
		if _, ok := c.contentModel(uri); !ok {
			continue
		}
		text, ok := c.readContent(ctx, uri)
		if !ok {
			continue
		}
		return string(jsonlite.AppendString(nil, text)), nil
	}
	return "null", nil
}

// readContent asks the server for a document's text and remembers that
// the page holds it, so a refresh updates it.
func (c *connection) readContent(ctx ctxlite.Context, uri string) (string, bool) {
	c.mu.Lock()
	rpc := c.rpc
	c.mu.Unlock()
	if rpc == nil {
		return "", false
	}
	ctx, cancel := ctxlite.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var raw jsonlite.Raw
	params := append(jsonlite.AppendString([]byte(`{"uri":`), uri), '}')
	if err := rpc.Call(ctx, features.MethodTextDocumentContent, jsonlite.Raw(params), &raw); err != nil {
		c.providerFailed(ContentCall, err)
		return "", false
	}
	v, err := jsonlite.Parse(raw)
	text, ok := v.Get("text").Str()
	if err != nil || !ok {
		return "", false
	}
	c.mu.Lock()
	if c.contents == nil {
		c.contents = make(map[string]bool)
	}
	c.contents[uri] = true
	c.mu.Unlock()
	return text, true
}

// refreshContent answers workspace/textDocumentContent/refresh: a document
// the page read through this connection is read again and its model
// given the new text.
func (c *connection) refreshContent(params jsonlite.Raw) {
	v, err := jsonlite.Parse(params)
	uri, ok := v.Get("uri").Str()
	c.mu.Lock()
	held := c.contents[uri]
	c.mu.Unlock()
	setter, _ := c.cl.cfg.Editor.(ContentSetter)
	if err != nil || !ok || !held || setter == nil {
		return
	}
	go func() {
		if text, ok := c.readContent(c.ctx, uri); ok {
			setter.SetContent(navigate.ContentURI(c.p.key.sessionID, uri), text)
		}
	}()
}
