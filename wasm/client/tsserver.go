package client

import (
	"slices"
	"strconv"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Vue's language server leaves everything inside a file's scripts to a
// TypeScript server running Vue's tsserver plugin, which it reaches
// through its client, as VS Code's Vue extension does: a tsserver/request
// notification carries [[id, command, args]], and the client answers each
// with a tsserver/response notification [[id, body]]. The client runs the
// command on the session's server of the same language that offers
// typescript.tsserverRequest (the catalog's vue-typescript beside it) and
// passes the body of its answer back. Without such a server, or when it
// fails, the body is null: the server then goes on without TypeScript's
// part, where an unanswered request would hold its features forever.
const (
	methodTSServerRequest  = "tsserver/request"
	methodTSServerResponse = "tsserver/response"
	commandTSServerRequest = "typescript.tsserverRequest"
)

// tsserverWait bounds how long a request waits for its TypeScript server
// to be ready: an install and a project load on a cold task host.
const tsserverWait = 2 * clock.Minute

// tsserverRequests relays each request of a tsserver/request notification.
func (c *connection) tsserverRequests(params jsonlite.Raw) {
	v, err := jsonlite.Parse(params)
	if err != nil {
		return
	}
	for i := 0; ; i++ {
		item := v.Index(i)
		if !item.Exists() {
			return
		}
		id := item.Index(0).Raw()
		command, ok := item.Index(1).Str()
		if len(id) == 0 || !ok {
			continue // nothing to answer, or nothing to run
		}
		args := item.Index(2).Raw()
		if len(args) == 0 {
			args = jsonlite.Raw("null")
		}
		go c.relayTSServer(append(jsonlite.Raw(nil), id...), command, append(jsonlite.Raw(nil), args...))
	}
}

// relayTSServer runs one command on the TypeScript server beside c and
// answers c with its body, or null.
func (c *connection) relayTSServer(id jsonlite.Raw, command string, args jsonlite.Raw) {
	ctx, cancel := ctxlite.WithTimeout(c.ctx, tsserverWait)
	defer cancel()
	body := jsonlite.Raw("null")
	if ts := c.cl.tsserverFor(ctx, c); ts != nil {
		p := jsonlite.AppendString([]byte(`{"command":`), commandTSServerRequest)
		p = append(p, `,"arguments":[`...)
		p = jsonlite.AppendString(p, command)
		p = append(p, ',')
		p = append(p, args...)
		// As VS Code's Vue extension asks: tsserver answers these after the
		// requests of the person typing.
		p = append(p, `,{"isAsync":true,"lowPriority":true}]}`...)
		var raw jsonlite.Raw
		if err := ts.Call(ctx, lsptypes.MethodExecuteCommand, jsonlite.Raw(p), &raw); err == nil {
			if v, err := jsonlite.Parse(raw); err == nil {
				if b := v.Get("body").Raw(); len(b) > 0 {
					body = b
				}
			}
		} else {
			c.cl.cfg.Logf("lsp: %s %s on %s failed: %v", commandTSServerRequest, strconv.Quote(command), c.id(), err)
		}
	}
	answer := append([]byte("[["), id...)
	answer = append(answer, ',')
	answer = append(answer, body...)
	answer = append(answer, "]]"...)
	c.mu.Lock()
	rpc := c.rpc
	c.mu.Unlock()
	_ = c.notify(rpc, methodTSServerResponse, jsonlite.Raw(answer))
}

// tsserverFor waits until a server of from's session and language other
// than from offers typescript.tsserverRequest and has its documents open,
// and returns its engine; nil when ctx ends first, or when the language
// has no other server that could.
func (cl *Client) tsserverFor(ctx ctxlite.Context, from *connection) *jsonrpc.Conn {
	key := from.p.key
	info, _ := wire.Lookup(string(key.language))
	languageID := info.MonacoIDs[0]
	for {
		cl.mu.Lock()
		changed := cl.served
		n := len(cl.servers(key.language))
		var cands []*connection
		waiting := false
		for slot := 0; slot < n; slot++ {
			p := cl.pairs[connKey{key.sessionID, key.language, slot}]
			if p == nil || p == from.p {
				continue
			}
			if p.conn != nil && p.conn.ctx.Err() == nil {
				cands = append(cands, p.conn)
			}
			if p.st.State != StateError && p.st.State != StateUnavailable {
				waiting = true // it may yet come up
			}
		}
		cl.mu.Unlock()
		for _, x := range cands {
			x.mu.Lock()
			rpc, ok := x.rpc, x.serving && !x.ended && x.reg != nil && slices.Contains(x.reg.For(languageID).Commands, commandTSServerRequest)
			x.mu.Unlock()
			if ok {
				return rpc
			}
		}
		if !waiting {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		}
	}
}

// announceServed records that c has its documents open and its providers
// published, and wakes whatever waits for a server beside it.
func (cl *Client) announceServed(c *connection) {
	c.mu.Lock()
	c.serving = true
	c.mu.Unlock()
	cl.mu.Lock()
	cl.wakeLocked()
	cl.mu.Unlock()
}

// wakeLocked wakes everything waiting on cl.served: a connection is
// serving, or a pair's status changed. cl.mu must be held.
func (cl *Client) wakeLocked() {
	close(cl.served)
	cl.served = make(chan struct{})
}
