//go:build js && wasm

package jsbind

import (
	"sync"

	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/suppress"
)

// editorBridge is the client's Editor for one configuration: it registers
// each connection's Monaco providers through the shim, publishes the
// suppression snapshot to the TypeScript built-in wrapper, and owns the
// editor opener. With a Monaco namespace that has no languages API (tests'
// fakes) it does nothing.
type editorBridge struct {
	helpers jsValue // the shim's {register, hookChange, opener}; undefined without Monaco languages
	ctl     jsValue // the wrapper's control object
	api     *api    // for workspace edits' outcomes

	mu      sync.Mutex
	handles map[string]map[string]jsValue // connection id → language/feature → provider handle
	opener  jsValue                       // the editor opener's disposable
	closed  bool                          // a later configure or dispose replaced it
}

// newEditorBridge evaluates the suppression wrapper (once per Monaco
// namespace: before any TypeScript model makes Monaco register its
// built-ins, and whatever the state of any LSP handshake) and the shim.
// a's Go functions serve the shim; page holds the page's callbacks
// (readFile, onEdit, createFile, renameFile, deleteFile).
func newEditorBridge(monacoV jsValue, a *api, page jsValue) *editorBridge {
	b := &editorBridge{api: a, handles: make(map[string]map[string]jsValue), helpers: jsUndefined(), ctl: jsUndefined(), opener: jsUndefined()}
	langs, err := monacoV.Get("languages")
	if err != nil || langs.Type() != jsTypeObject {
		return b
	}
	wrap, err := evalExpr(suppress.WrapperJS)
	if err == nil {
		b.ctl, err = wrap.Invoke(monacoV)
	}
	if err != nil {
		consoleError("configure: TypeScript built-in wrapper: %v", err)
		return b
	}
	guard, err := b.ctl.Get("guard")
	if err != nil {
		return b
	}
	mk, err := evalExpr(shimJS)
	if err == nil {
		b.helpers, err = mk.Invoke(monacoV, a.goCall, a.goNav, guard, page, a.goCancel, a.goApplied)
	}
	if err != nil {
		consoleError("configure: provider shim: %v", err)
		b.helpers = jsUndefined()
	}
	b.Suppress("{}")
	return b
}

func (b *editorBridge) ok() bool { return b.helpers.Type() == jsTypeObject }

// live reports whether the bridge still registers anything: not after
// close, when a connection of the replaced configuration ends late. b.mu
// must be held.
func (b *editorBridge) live() bool { return b.ok() && !b.closed }

// Provider implements client.Editor: one feature's provider of one
// connection and Monaco language, replaced or disposed alone.
func (b *editorBridge) Provider(connID, languageID string, f features.Feature, optionsJSON string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.live() {
		return
	}
	key := languageID + "\x00" + f.String()
	hs := b.handles[connID]
	if h, ok := hs[key]; ok {
		dispose(h)
		delete(hs, key)
	}
	if optionsJSON == "" {
		return
	}
	h, err := b.helpers.Call("register", connID, languageID, f.String(), optionsJSON)
	if err != nil {
		consoleError("register the %s provider for %s: %v", f.String(), languageID, err)
		return
	}
	if hs == nil {
		hs = make(map[string]jsValue)
		b.handles[connID] = hs
	}
	hs[key] = h
}

// Ended implements client.Editor: every provider of the connection, and
// the placeholder models of its peek previews, are disposed.
func (b *editorBridge) Ended(connID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live() {
		b.endLocked(connID)
	}
}

// endLocked disposes connID's providers and placeholders. b.mu must be held.
func (b *editorBridge) endLocked(connID string) {
	for _, h := range b.handles[connID] {
		dispose(h)
	}
	delete(b.handles, connID)
	if _, err := b.helpers.Call("end", connID); err != nil {
		consoleError("dispose placeholders: %v", err)
	}
}

// Refresh implements client.Editor.
func (b *editorBridge) Refresh(connID string, f features.Feature) {
	b.mu.Lock()
	live := b.live()
	b.mu.Unlock()
	if !live {
		return
	}
	if _, err := b.helpers.Call("refresh", connID, f.String()); err != nil {
		consoleError("%s refresh: %v", f.String(), err)
	}
}

// SetContent implements client.ContentSetter: a refreshed server
// document's model gets its new text.
func (b *editorBridge) SetContent(modelURI, text string) {
	b.mu.Lock()
	live := b.live()
	b.mu.Unlock()
	if !live {
		return
	}
	if _, err := b.helpers.Call("setContent", modelURI, text); err != nil {
		consoleError("setContent: %v", err)
	}
}

// documentContent(model) is the page's lsp.documentContent: the shim's
// promise of a server document's text (a model or its URI string), null
// before configure.
func (a *api) documentContent(_ jsValue, args []jsValue) any {
	a.mu.Lock()
	b := a.bridge
	a.mu.Unlock()
	if b == nil || !b.ok() || len(args) < 1 {
		consoleError("documentContent: expected a model URI after configure")
		return nil
	}
	u := args[0]
	if u.Type() == jsTypeObject {
		if uri, err := u.Get("uri"); err == nil && uri.Type() == jsTypeObject {
			u = uri
		}
		if s, err := u.Call("toString"); err == nil {
			u = s
		}
	}
	v, err := b.helpers.Call("content", u)
	if err != nil {
		consoleError("documentContent: %v", err)
		return nil
	}
	return v
}

// Apply implements client.Editor: the shim runs the plan and reports its
// outcome through the api's applied function.
func (b *editorBridge) Apply(ctx ctxlite.Context, plan string) (bool, string) {
	b.mu.Lock()
	live := b.live()
	b.mu.Unlock()
	if !live {
		return false, "lsp.wasm was reconfigured"
	}
	n, ch := b.api.waitApplied()
	defer b.api.forgetApplied(n)
	if _, err := b.helpers.Call("apply", plan, n); err != nil {
		return false, err.Error()
	}
	select {
	case out := <-ch:
		v, err := jsonlite.Parse([]byte(out))
		ok, _ := v.Get("applied").Bool()
		reason, _ := v.Get("failureReason").DecodeString()
		if err != nil {
			reason = err.Error()
		}
		return ok, reason
	case <-ctx.Done():
		return false, "the edit did not finish in time"
	}
}

// markers sets a model's markers through the shim (Uris for related
// information and code links); false without the shim.
func (b *editorBridge) markers(modelV jsValue, owner, js string) bool {
	if !b.ok() {
		return false
	}
	if _, err := b.helpers.Call("markers", modelV, owner, js); err != nil {
		consoleError("setModelMarkers: %v", err)
	}
	return true
}

// Suppress implements client.Editor.
func (b *editorBridge) Suppress(snapshot string) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed || b.ctl.Type() != jsTypeObject {
		return
	}
	v, err := parseJSON(snapshot)
	if err == nil {
		_, err = b.ctl.Call("set", v)
	}
	if err != nil {
		consoleError("suppression: %v", err)
	}
}

// setOpener registers the editor opener that routes navigation targets to
// the page's openFile(target), asking tabs() for the open tabs.
func (b *editorBridge) setOpener(tabs, open jsValue) {
	if !b.ok() || open.Type() != jsTypeFunction {
		return
	}
	if !isFunc(b.helpers, "opener") {
		return
	}
	d, err := b.helpers.Call("opener", tabs, open)
	if err != nil {
		consoleError("registerEditorOpener: %v", err)
		return
	}
	b.mu.Lock()
	b.opener = d
	b.mu.Unlock()
}

// claim tells the shim the page opened this model: it is not a placeholder
// to dispose with a connection.
func (b *editorBridge) claim(modelV jsValue) {
	if b.ok() {
		if _, err := b.helpers.Call("claim", modelV); err != nil {
			consoleError("claim: %v", err)
		}
	}
}

// hookChange subscribes fn to the model's content changes, each event
// stringified on the JavaScript side: one crossing per change.
func (b *editorBridge) hookChange(modelV, fn jsValue) (jsValue, error) {
	return b.helpers.Call("hookChange", modelV, fn)
}

// close disposes every registration, placeholder model and the opener (a
// new configure); late calls for the replaced configuration's connections
// do nothing. The TypeScript built-in wrapper stays for the next one.
func (b *editorBridge) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	if b.ok() {
		for id := range b.handles {
			b.endLocked(id)
		}
	}
	b.closed = true
	dispose(b.opener)
	b.opener = jsUndefined()
	if b.ok() {
		_, _ = b.helpers.Call("close")
	}
}

// dispose is close plus the wrapper's uninstall: Monaco's register
// functions are its own again and no built-in is suppressed (dispose()).
func (b *editorBridge) dispose() {
	b.close()
	if b.ctl.Type() == jsTypeObject {
		if _, err := b.ctl.Call("uninstall"); err != nil {
			consoleError("dispose: TypeScript built-in wrapper: %v", err)
		}
	}
}

// provide is the Go side of every provider call and step:
// (connID, name, requestJSON, resolve, reject, n). It returns at once; the
// answer comes from a goroutine through resolve(string) or reject(message).
// Until then cancel(n) cancels it.
func (a *api) provide(_ jsValue, args []jsValue) any {
	connID, ok1 := stringArg(args, 0)
	name, ok2 := stringArg(args, 1)
	req, ok3 := stringArg(args, 2)
	if !ok1 || !ok2 || !ok3 || len(args) < 5 {
		return nil
	}
	resolve, reject := args[3], args[4]
	x := a.current()
	if _, known := features.Lookup(name); x == nil || !known && name != client.ContentCall {
		_, _ = resolve.Invoke("null")
		return nil
	}
	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	n := -1
	if len(args) > 5 {
		if i, err := args[5].Int(); err == nil {
			n = i
			a.mu.Lock()
			if a.cancels == nil {
				a.cancels = make(map[int]ctxlite.CancelFunc)
			}
			a.cancels[n] = cancel
			a.mu.Unlock()
		}
	}
	go func() {
		defer func() {
			a.mu.Lock()
			delete(a.cancels, n)
			a.mu.Unlock()
			cancel()
		}()
		out, err := x.Provide(ctx, connID, name, req)
		if err != nil {
			_, _ = reject.Invoke(err.Error())
			return
		}
		_, _ = resolve.Invoke(out)
	}()
	return nil
}

// cancel is the Go side of Monaco's cancellation of call n.
func (a *api) cancel(_ jsValue, args []jsValue) any {
	if len(args) < 1 {
		return nil
	}
	n, err := args[0].Int()
	if err != nil {
		return nil
	}
	a.mu.Lock()
	cancel := a.cancels[n]
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// waitApplied reserves a number for a workspace edit's outcome.
func (a *api) waitApplied() (int, chan string) {
	ch := make(chan string, 1)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.nextID++
	if a.edits == nil {
		a.edits = make(map[int]chan string)
	}
	a.edits[a.nextID] = ch
	return a.nextID, ch
}

func (a *api) forgetApplied(n int) {
	a.mu.Lock()
	delete(a.edits, n)
	a.mu.Unlock()
}

// applied is the Go side of the shim's applied(n, json).
func (a *api) applied(_ jsValue, args []jsValue) any {
	js, ok := stringArg(args, 1)
	if len(args) < 2 || !ok {
		return nil
	}
	n, err := args[0].Int()
	if err != nil {
		return nil
	}
	a.mu.Lock()
	ch := a.edits[n]
	a.mu.Unlock()
	if ch != nil {
		select {
		case ch <- js:
		default:
		}
	}
	return nil
}

// pageCall is willSave(model) and outline(model): the shim's promise for
// the page, null before configure or without Monaco's languages API.
//
//go:noinline
func (a *api) pageCall(name string) func(jsValue, []jsValue) any {
	return func(_ jsValue, args []jsValue) any {
		a.mu.Lock()
		b, on := a.bridge, a.formatOnSave
		a.mu.Unlock()
		if b == nil || !b.ok() || len(args) < 1 || args[0].Type() != jsTypeObject {
			consoleError("%s: expected a model after configure", name)
			return nil
		}
		v, err := b.helpers.Call(name, args[0], on)
		if err != nil {
			consoleError("%s: %v", name, err)
			return nil
		}
		return v
	}
}

// navigate is the Go side of the editor opener: one JSON in, one out.
func (a *api) navigate(_ jsValue, args []jsValue) any {
	req, ok := stringArg(args, 0)
	x := a.current()
	if !ok || x == nil {
		return `{"handled":false}`
	}
	return x.Navigate(req)
}

// saved({sessionId?, model, ok, persistedVersion, liveVersion, text?}) →
// {dirty}: the page reports a finished write (see docsync.Saved).
func (a *api) saved(_ jsValue, args []jsValue) any {
	x := a.current()
	if x == nil || len(args) < 1 {
		consoleError("saved: call configure first, with the save report")
		return nil
	}
	data, err := savedArg(args[0])
	if err != nil {
		consoleError("saved: %v", err)
		return nil
	}
	out, err := x.Saved(string(data))
	if err != nil {
		consoleError("saved: %v", err)
		return nil
	}
	v, err := parseJSON(out)
	if err != nil {
		return nil
	}
	return v
}

// savedArg stringifies the save report, turning a model object into its
// URI string first.
func savedArg(v jsValue) ([]byte, error) {
	if v.Type() == jsTypeObject {
		// A copy: the page's object stays as it was.
		o, err := jsGlobal().Get("Object")
		if err == nil {
			v, err = o.Call("assign", mustObject(), v)
		}
		if err != nil {
			return nil, err
		}
		if m, err := v.Get("model"); err == nil && m.Type() == jsTypeObject {
			if u, err := m.Get("uri"); err == nil && u.Type() == jsTypeObject {
				if s, err := u.Call("toString"); err == nil {
					if err := v.Set("model", s); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return jsonArg(v)
}

// mustObject is a new empty object, or undefined if Object is unreachable.
func mustObject() jsValue {
	o, err := newObject()
	if err != nil {
		return jsUndefined()
	}
	return o
}
