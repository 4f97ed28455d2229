//go:build js && wasm

package jsbind

import (
	"sync"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/ctxlite"
)

// showJS shows a server's window/showDocument through the page, settling
// into done(boolean): a workspace file (m, its model URI) is resolved as
// the editor opener resolves a definition target (nav, with the page's
// tabs) and handed to openFile with the selection; anything else goes to
// openExternal(uri, {takeFocus}), never opened here. A missing callback,
// false, a rejection or a throw is not shown.
const showJS = `let t = null;
if (m) {
  let list = [];
  try { list = (tabs && tabs()) || []; } catch (e) { console.error(e); }
  t = JSON.parse(nav(JSON.stringify({ source: '', sessionId: s, target: m, tabs: list })));
  if (!t.handled) { done(false); return; }
  if (sel) t.selection = JSON.parse(sel);
  t.takeFocus = focus;
}
const f = m ? open : ext;
if (typeof f !== 'function') { done(false); return; }
Promise.resolve().then(() => (m ? f(t) : f(u, { takeFocus: focus }))).then((r) => done(r !== false), () => done(false));`

var (
	showOnce sync.Once
	showFn   jsValue
)

// showDocumentFunc is client.Config.ShowDocument for the page's openFile,
// openTabs and openExternal callbacks; nil (the capability not offered)
// when the page has neither opener.
func (a *api) showDocumentFunc(open, tabs, ext jsValue) func(ctxlite.Context, client.ShowDocument) bool {
	if open.Type() != jsTypeFunction && ext.Type() != jsTypeFunction {
		return nil
	}
	return func(ctx ctxlite.Context, d client.ShowDocument) bool {
		showOnce.Do(func() {
			showFn = jsUndefined()
			if fn, err := jsGlobal().Get("Function"); err == nil {
				if f, err := fn.New("open", "tabs", "ext", "nav", "s", "m", "sel", "u", "focus", "done", showJS); err == nil {
					showFn = f
				}
			}
		})
		ch := make(chan bool, 1)
		var fs funcSet
		defer fs.release()
		done, err := fs.add(func(_ jsValue, args []jsValue) any {
			ok := false
			if len(args) > 0 && args[0].Type() == jsTypeBoolean {
				ok, _ = args[0].Bool()
			}
			select {
			case ch <- ok:
			default:
			}
			return nil
		})
		if err == nil {
			_, err = showFn.Invoke(open, tabs, ext, a.goNav, d.SessionID, d.Model, d.Selection, d.External, d.TakeFocus, done)
		}
		if err != nil {
			consoleError("showDocument: %v", err)
			return false
		}
		select {
		case ok := <-ch:
			return ok
		case <-ctx.Done():
			return false
		}
	}
}
