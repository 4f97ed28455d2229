package client

import (
	"slices"
	"strings"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/fileops"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/watched"
)

// fileOpTimeout bounds one server's answer to a will* request. The
// operation waits for it — a user who renamed a file sees nothing happen
// meanwhile — so it is shorter than a provider request's; a server that
// misses it loses its say, and the operation goes on, as in VS Code.
const fileOpTimeout = 15 * clock.Second

// FileOpResult is the answer to WillChangeFiles.
type FileOpResult struct {
	// Applied counts the servers' workspace edits the editor applied.
	Applied int
	// Failed are the reasons of those it did not, or of servers that
	// failed to answer, one per server ("<language>: <reason>").
	Failed []string
}

// JSON is the page's answer: {"applied":n,"failed":["…"]}.
func (r FileOpResult) JSON() string {
	b := jsonlite.AppendInt(jsonlite.AppendLit(nil, `{"applied":`), int64(r.Applied))
	b = jsonlite.AppendStrings(jsonlite.AppendLit(b, `,"failed":`), append([]string{}, r.Failed...))
	return string(append(b, '}'))
}

// WillChangeFiles is the first half of a file operation the page is about
// to make in a session's workspace (fileops.ParseRequest reads js): each
// live server of the session that declared interest in one of the files
// gets the will* request, and the workspace edit it answers — such as the
// TypeScript server's import updates for a moved module — is applied
// before the answer, one server after another, to open and unopened files
// alike. The page then makes the operation and calls DidChangeFiles.
// Only a malformed request is an error.
func (cl *Client) WillChangeFiles(ctx ctxlite.Context, js string) (FileOpResult, error) {
	r, err := fileops.ParseRequest(js)
	if err != nil {
		return FileOpResult{}, err
	}
	var res FileOpResult
	for _, c := range cl.sessionConns(r.Session) {
		rpc, params := c.fileOpParams(r, true)
		if params == nil {
			continue
		}
		edit, err := askFileOp(ctx, rpc, r.Kind.Method(true), params)
		switch {
		case err != nil:
			c.providerFailed(r.Kind.Method(true), err)
			res.Failed = append(res.Failed, string(c.p.key.language)+": "+err.Error())
		case len(edit) > 0 && !edit.IsNull():
			if ok, reason := c.applyEdit(ctx, edit); ok {
				res.Applied++
			} else {
				res.Failed = append(res.Failed, string(c.p.key.language)+": "+reason)
			}
		}
	}
	return res, nil
}

// askFileOp asks one server, within fileOpTimeout.
func askFileOp(ctx ctxlite.Context, rpc *jsonrpc.Conn, method string, params jsonlite.Raw) (jsonlite.Raw, error) {
	ctx, cancel := ctxlite.WithTimeout(ctx, fileOpTimeout)
	defer cancel()
	var edit jsonlite.Raw
	err := rpc.Call(ctx, method, params, &edit)
	return edit, err
}

// DidChangeFiles is the second half: the page made the operation, and
// each live server of the session that declared interest in one of the
// files is told (the did* notification). Servers that watch the files
// hear of the change at once too (workspace/didChangeWatchedFiles), before
// the page opens documents at the new paths: tsserver drops a watch event
// of a file already open, so a module renamed under an importer whose
// import failed meanwhile would stay unresolved if the task host's own
// report came after the didOpen. The task host's report, later, repeats
// it harmlessly. Only a malformed request is an error.
func (cl *Client) DidChangeFiles(js string) error {
	r, err := fileops.ParseRequest(js)
	if err != nil {
		return err
	}
	frame := fileops.WatchFrame(r)
	for _, c := range cl.sessionConns(r.Session) {
		rpc, params := c.fileOpParams(r, false)
		if params != nil {
			if err := c.notify(rpc, r.Kind.Method(false), params); err != nil {
				c.cl.cfg.Logf("lsp: %s: %v", r.Kind.Method(false), err)
			}
		}
		c.mu.Lock()
		root, reg := c.workspace, c.reg
		c.mu.Unlock()
		if reg == nil || rpc == nil {
			continue
		}
		p, err := watched.Frame(frame, root, reg.Registered(lsptypes.MethodDidChangeWatchedFiles), func(string, int) {})
		if err == nil && p != nil {
			err = c.notify(rpc, lsptypes.MethodDidChangeWatchedFiles, p)
		}
		if err != nil {
			c.cl.cfg.Logf("lsp: didChangeWatchedFiles: %v", err)
		}
	}
	return nil
}

// sessionConns returns the session's initialized connections in a stable
// order (by id), so that servers are asked, and their edits applied, in
// the same order every time.
func (cl *Client) sessionConns(session string) []*connection {
	cl.mu.Lock()
	var out []*connection
	for _, c := range cl.conns {
		if c.p.key.sessionID == session {
			out = append(out, c)
		}
	}
	cl.mu.Unlock()
	slices.SortFunc(out, func(a, b *connection) int { return strings.Compare(a.id(), b.id()) })
	return out
}

// fileOpParams returns the server's connection and the params of the
// will (or did) message for the files of r it declared interest in; nil
// params when none, or when the server is not initialized.
func (c *connection) fileOpParams(r fileops.Request, will bool) (*jsonrpc.Conn, jsonlite.Raw) {
	c.mu.Lock()
	rpc, reg, caps, root := c.rpc, c.reg, c.caps, c.workspace
	c.mu.Unlock()
	if reg == nil || rpc == nil {
		return nil, nil
	}
	fs := fileops.Filters(caps, reg.Registered(r.Kind.Method(will)), r.Kind, will)
	return rpc, fileops.Params(r, root, fs)
}
