package client

import (
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/navigate"
)

// MethodShowDocument is the server's request to show a document: a file of
// the workspace in the editor, or an external URI (a web page).
const MethodShowDocument = "window/showDocument"

// ShowDocument is a server's window/showDocument, resolved for the page.
// Exactly one of Model and External is set.
type ShowDocument struct {
	_ noCompare
	// SessionID is the session of the connection that asked.
	SessionID string
	// Model is the session-scoped model URI of a workspace file to open in
	// the editor (the page's openFile, as a definition target opens), or
	// of a library file when the page reads those (Config.Library).
	Model string
	// Selection is the range to select or reveal in it, as a Monaco IRange
	// JSON object; "" for none.
	Selection string
	// External is a URI to open outside the editor — the server said
	// external, or it is no file of the workspace. Only a page callback
	// may open it: nothing is opened behind the user's back.
	External string
	// TakeFocus: the server asked for the editor's focus.
	TakeFocus bool
}

// showDocument answers window/showDocument: whether the page showed it.
// A file outside the session's workspace is not shown (it is no file the
// page can open) unless it is a library file (Config.Library), nor is
// anything without Config.ShowDocument.
func (c *connection) showDocument(ctx ctxlite.Context, params jsonlite.Raw) bool {
	show := c.cl.cfg.ShowDocument
	v, err := jsonlite.Parse(params)
	uri, ok := v.Get("uri").Str()
	if err != nil || !ok || show == nil {
		return false
	}
	external, _ := v.Get("external").Bool()
	focus, _ := v.Get("takeFocus").Bool()
	d := ShowDocument{SessionID: c.p.key.sessionID, TakeFocus: focus}
	if !external {
		model := c.serverToModel(uri)
		_, _, isModel := navigate.ParseModelURI(model)
		if _, _, isLib := navigate.ParseLibraryURI(model); isModel || isLib {
			d.Model = model
			if sel := v.Get("selection"); sel.Kind() == jsonlite.Object {
				if r, ok := lsptypes.ParseRange(sel); ok {
					d.Selection = string(monaco.AppendRange(nil, r))
				}
			}
			return show(ctx, d)
		}
		if isFileURI(uri) {
			return false // a file, but not one of this workspace
		}
	}
	d.External = uri
	return show(ctx, d)
}

// isFileURI reports whether uri names a local file.
func isFileURI(uri string) bool {
	return len(uri) >= 5 && (uri[:5] == "file:" || uri[:5] == "FILE:")
}
