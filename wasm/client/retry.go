package client

import (
	"errors"

	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
)

// maxRequestRetries bounds how often a request Monaco waits on is sent
// again after the server answered ContentModified or ServerCancelled.
const maxRequestRetries = 3

// callRetrying sends a request and, when the server answers that the
// content was modified (-32801) or that it cancelled the request itself
// (-32802), sends it again — at most maxRequestRetries times, and only
// while same reports that the document is still at the version the
// request was about: an answer for an older text is what Monaco must not
// get, and a newer text brings a request of its own.
func callRetrying(ctx ctxlite.Context, rpc *jsonrpc.Conn, method string, params jsonlite.Appender, same func() bool) (jsonlite.Raw, error) {
	for attempt := 0; ; attempt++ {
		var raw jsonlite.Raw
		err := rpc.Call(ctx, method, params, &raw)
		if err == nil || attempt == maxRequestRetries || !retryable(err) || ctx.Err() != nil || !same() {
			return raw, err
		}
	}
}

// retryable reports whether the server asked, by its error code, for the
// request to be sent again.
func retryable(err error) bool {
	return errors.Is(err, jsonrpc.ErrContentModified) || errors.Is(err, jsonrpc.ErrServerCancelled)
}

// atVersion reports whether the document is still open on c, with the
// server holding exactly its text at version v.
func (d *Document) atVersion(c *connection, v int32) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.on == c && d.sd != nil && d.sd.AtVersion(v)
}
