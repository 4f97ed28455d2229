package client

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/mdparse"
)

// The VS Code Markdown server leaves parsing and the file system to its
// client, as VS Code's Markdown extension does for it: it asks for the
// block tokens of a document (markdown/parse; mdparse stands in for
// markdown-it) and reads the workspace (markdown/fs/*,
// markdown/findMarkdownFilesInWorkspace) to resolve links and check them.
// The answers come from the open documents and the page's readFile and
// listFiles, within the connection's workspace only: a URI outside it is
// not there.
const (
	methodMarkdownParse     = "markdown/parse"
	methodMarkdownReadFile  = "markdown/fs/readFile"
	methodMarkdownStat      = "markdown/fs/stat"
	methodMarkdownReadDir   = "markdown/fs/readDirectory"
	methodMarkdownFindFiles = "markdown/findMarkdownFilesInWorkspace"
	methodMarkdownWatch     = "markdown/fs/watcher/create"
	methodMarkdownStopWatch = "markdown/fs/watcher/delete"
)

// errNoFile answers a read of a file that is not in the workspace.
var errNoFile = jsonrpc.NewError(-32803, "no such file in the workspace") // RequestFailed

// markdownRequest answers the Markdown server's requests of its client;
// ok is false for a method that is none of them.
func (c *connection) markdownRequest(req *jsonrpc.Request) (jsonlite.Appender, bool) {
	if !strings.HasPrefix(req.Method, "markdown/") {
		return nil, false // any other method pays no parse of its params
	}
	v, _ := jsonlite.Parse(req.Params)
	uri, _ := v.Get("uri").Str()
	switch req.Method {
	case methodMarkdownWatch, methodMarkdownStopWatch:
		// Changes reach the server as workspace/didChangeWatchedFiles
		// where it registered for them; these watchers add nothing.
		return jsonlite.Raw("null"), true
	case methodMarkdownParse:
		text, given := v.Get("text").Str()
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			if !given {
				var ok bool
				if text, ok = c.markdownText(ctx, uri); !ok {
					return nil, errNoFile
				}
			}
			return jsonlite.Raw(mdparse.AppendJSON(nil, mdparse.Parse(text))), nil
		}), true
	case methodMarkdownReadFile:
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			rel, ok := c.workspaceRel(uri)
			if !ok || c.cl.cfg.ReadFile == nil {
				return nil, errNoFile
			}
			text, ok := c.cl.cfg.ReadFile(ctx, c.p.key.sessionID, rel)
			if !ok {
				return nil, errNoFile
			}
			return jsonlite.Raw(appendBytes(nil, text)), nil
		}), true
	case methodMarkdownStat, methodMarkdownReadDir:
		dirOnly := req.Method == methodMarkdownReadDir
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			rel, ok := c.workspaceRel(uri)
			files, listed := c.workspaceFiles(ctx)
			if !ok || !listed {
				if dirOnly {
					return nil, errNoFile
				}
				return jsonlite.Raw("null"), nil
			}
			if dirOnly {
				return jsonlite.Raw(appendDirectory(rel, files)), nil
			}
			switch {
			case slices.Contains(files, rel):
				return jsonlite.Raw(`{"isDirectory":false}`), nil
			case rel == "" || slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, rel+"/") }):
				return jsonlite.Raw(`{"isDirectory":true}`), nil
			}
			return jsonlite.Raw("null"), nil
		}), true
	case methodMarkdownFindFiles:
		return jsonrpc.Later(func(ctx ctxlite.Context) (jsonlite.Appender, error) {
			files, _ := c.workspaceFiles(ctx)
			c.mu.Lock()
			root := c.workspace
			c.mu.Unlock()
			out := jsonlite.Raw{'['}
			n := 0
			for _, f := range files {
				if strings.HasSuffix(strings.ToLower(f), ".md") {
					if n > 0 {
						out = append(out, ',')
					}
					out = jsonlite.AppendString(out, wire.FileURI(path.Join(root, f)))
					n++
				}
			}
			return append(out, ']'), nil
		}), true
	}
	return nil, false
}

// markdownText is the text of a document as the server sees it: the open
// document's, else the file's.
func (c *connection) markdownText(ctx ctxlite.Context, uri string) (string, bool) {
	if abs, ok := wire.PathFromFileURI(uri); ok {
		c.mu.Lock()
		var src TextSource
		if e := c.byPath[path.Clean(abs)]; e != nil && len(e.docs) > 0 {
			src = e.docs[0].src
		}
		c.mu.Unlock()
		if src != nil {
			return src.Text(), true
		}
	}
	rel, ok := c.workspaceRel(uri)
	if !ok || c.cl.cfg.ReadFile == nil {
		return "", false
	}
	return c.cl.cfg.ReadFile(ctx, c.p.key.sessionID, rel)
}

// workspaceRel turns a file URI inside the connection's workspace into its
// workspace-relative path ("" for the workspace itself).
func (c *connection) workspaceRel(uri string) (string, bool) {
	abs, ok := wire.PathFromFileURI(uri)
	if !ok {
		return "", false
	}
	c.mu.Lock()
	root := c.workspace
	c.mu.Unlock()
	abs = path.Clean(abs)
	if root == "" {
		return "", false
	}
	if abs == root {
		return "", true
	}
	rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(root, "/")+"/")
	return rel, ok && rel != ""
}

// workspaceFiles lists the workspace's files through the page, once per
// connection until a files frame says the tree changed.
func (c *connection) workspaceFiles(ctx ctxlite.Context) ([]string, bool) {
	c.mu.Lock()
	files, ok := c.mdFiles, c.mdFilesOK
	c.mu.Unlock()
	if ok || c.cl.cfg.ListFiles == nil {
		return files, ok
	}
	files, ok = c.cl.cfg.ListFiles(ctx, c.p.key.sessionID)
	if ok {
		c.mu.Lock()
		c.mdFiles, c.mdFilesOK = files, true
		c.mu.Unlock()
	}
	return files, ok
}

// appendDirectory appends readDirectory's answer for directory rel: each
// entry once, [name, {"isDirectory": bool}].
func appendDirectory(rel string, files []string) []byte {
	prefix := ""
	if rel != "" {
		prefix = rel + "/"
	}
	seen := map[string]bool{}
	out := []byte{'['}
	for _, f := range files {
		rest, ok := strings.CutPrefix(f, prefix)
		if !ok || rest == "" {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		if len(seen) > 1 {
			out = append(out, ',')
		}
		out = append(out, '[')
		out = jsonlite.AppendString(out, name)
		if isDir {
			out = append(out, `,{"isDirectory":true}]`...)
		} else {
			out = append(out, `,{"isDirectory":false}]`...)
		}
	}
	return append(out, ']')
}

// appendBytes appends text's UTF-8 bytes as a JSON array of numbers, the
// Uint8Array the server's readFile expects (a page's text is valid UTF-8:
// syscall/js makes it so).
func appendBytes(dst []byte, text string) []byte {
	dst = append(dst, '[')
	for i := 0; i < len(text); i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, uint64(text[i]), 10)
	}
	return append(dst, ']')
}
