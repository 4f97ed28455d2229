//go:build js && wasm

package jsbind

import (
	"errors"
	"runtime"
	"strconv"
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/app"
	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// GlobalName is the property of globalThis that holds the API object.
const GlobalName = "kandevLSP"

// Install sets globalThis.kandevLSP. Its functions live as long as the page,
// so they are never released.
func Install(version string) error {
	a := newAPI(version,
		func() (jsValue, error) { return jsGlobal().Get("WebSocket") },
		func() (jsValue, error) { return jsGlobal().Get("localStorage") })
	obj, err := a.object()
	if err != nil {
		return err
	}
	return jsGlobal().Set(GlobalName, obj)
}

// api is the Go side of the kandevLSP object.
type api struct {
	version   string
	webSocket func() (jsValue, error) // the WebSocket constructor
	storage   func() (jsValue, error) // the Storage object (localStorage)
	clock     client.Clock            // nil: the wall clock (tests inject one)
	microtask jsValue                 // globalThis.queueMicrotask

	fns funcSet // the object's own methods

	mu           sync.Mutex
	app          *app.App
	gen          int                        // configurations so far
	editor       jsValue                    // monaco.editor
	bridge       *editorBridge              // the current configuration's Monaco bridge
	late         *client.LateEditor         // the current configuration's calls while its Monaco loads
	goCall       jsValue                    // provide, created once
	goNav        jsValue                    // navigate, created once
	goCancel     jsValue                    // cancel, created once
	goApplied    jsValue                    // applied, created once
	goTurn       jsValue                    // endTurn, created once
	turn         []func()                   // what waits for the end of this turn (soon)
	cancels      map[int]ctxlite.CancelFunc // provider calls in flight, by the shim's number
	edits        map[int]chan string        // workspace edits running in the editor
	formatOnSave bool                       // configure's formatOnSave
	goOff        jsValue                    // unsubscribe, created once
	offFor       jsValue                    // (goOff, id) → off(), a JavaScript closure
	listeners    []listener                 // onStatus
	msgLs        []listener                 // onMessage
	diskLs       []listener                 // onDiskChange
	filesLs      []listener                 // onWorkspaceFiles
	probLs       []listener                 // onProblems
	nextID       int
	docs         map[int]func() // open document handles' close, by id
}

type listener struct {
	id int
	fn jsValue
}

func newAPI(version string, webSocket, storage func() (jsValue, error)) *api {
	return &api{version: version, webSocket: webSocket, storage: storage}
}

// object builds the kandevLSP object.
func (a *api) object() (jsValue, error) {
	obj, err := newObject()
	if err != nil {
		return obj, err
	}
	methods := []struct {
		name string
		fn   func(jsValue, []jsValue) any
	}{
		{"configure", a.configure},
		{"setSettings", a.setSettings},
		{"setLocale", a.setLocale},
		{"openDocument", a.openDocument},
		{"start", a.pairAction(func(x *app.App, s string, l wire.Language, slot int) bool { x.StartSlot(s, l, slot); return true })},
		{"stop", a.pairAction(func(x *app.App, s string, l wire.Language, slot int) bool { x.StopSlot(s, l, slot); return true })},
		{"retry", a.pairAction(func(x *app.App, s string, l wire.Language, slot int) bool { x.RetrySlot(s, l, slot); return true })},
		// prepare connects the pair now if a document of the language
		// would connect on opening, so the server starts on the workspace
		// while the editor loads: true if a connection started or is live.
		{"prepare", a.pairAction(func(x *app.App, s string, l wire.Language, _ int) bool { return x.Prepare(s, l) })},
		{"view", a.view(false)},
		{"status", a.view(true)},
		{"onStatus", a.subscribe(&a.listeners, "onStatus")},
		{"onMessage", a.subscribe(&a.msgLs, "onMessage")},
		{"onDiskChange", a.subscribe(&a.diskLs, "onDiskChange")},
		{"onWorkspaceFiles", a.subscribe(&a.filesLs, "onWorkspaceFiles")},
		{"onProblems", a.subscribe(&a.probLs, "onProblems")},
		{"problems", a.problems},
		{"memory", a.memory},
		{"respond", a.respond},
		{"surface", a.surface},
		{"text", a.text},
		{"saved", a.saved},
		{"willSave", a.pageCall("willSave")},
		{"outline", a.pageCall("outline")},
		{"documentContent", a.documentContent},
		{"dispose", a.dispose},
	}
	for _, m := range methods {
		fn, err := a.fns.add(m.fn)
		if err == nil {
			err = obj.Set(m.name, fn)
		}
		if err != nil {
			return obj, wrap("jsbind: "+m.name, err)
		}
	}
	if err := obj.Set("version", a.version); err != nil {
		return obj, err
	}
	var err1, err2, err3, err4, err5, err6, err7 error
	a.microtask, _ = jsGlobal().Get("queueMicrotask")
	a.goTurn, err7 = a.fns.add(a.endTurn)
	a.goCall, err1 = a.fns.add(a.provide)
	a.goNav, err2 = a.fns.add(a.navigate)
	a.goOff, err3 = a.fns.add(a.unsubscribe)
	a.goCancel, err5 = a.fns.add(a.cancel)
	a.goApplied, err6 = a.fns.add(a.applied)
	if fn, err := jsGlobal().Get("Function"); err == nil {
		a.offFor, err4 = fn.New("f", "id", "return function off() { f(id); };")
	} else {
		err4 = err
	}
	if err := errors.Join(err1, err2, err3, err4, err5, err6, err7); err != nil {
		return obj, err
	}
	a.listenForThePath()
	if err := a.addExplore(obj); err != nil {
		return obj, err
	}
	return obj, a.addFileOps(obj)
}

// listenForThePath has reconnecting connections try again at once when the
// browser is back online or the page back in the foreground (where its
// timers were throttled), rather than when their back-off says. Best
// effort: a runtime without these events (Node) reconnects on its timers.
func (a *api) listenForThePath() {
	fn, err := a.fns.add(a.nudge)
	if err != nil {
		return
	}
	_, _ = jsGlobal().Call("addEventListener", "online", fn)
	if doc, err := jsGlobal().Get("document"); err == nil && doc.Type() == jsTypeObject {
		_, _ = doc.Call("addEventListener", "visibilitychange", fn)
	}
}

// nudge is the online and visibilitychange listener.
func (a *api) nudge(jsValue, []jsValue) any {
	if app := a.current(); app != nil {
		app.Nudge()
	}
	return nil
}

func (a *api) current() *app.App {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.app
}

// configure({monaco, relayURL, locale?, settings?}) → true, or false after a
// console.error.
func (a *api) configure(_ jsValue, args []jsValue) any {
	opts, err := parseConfigure(args)
	if err != nil {
		consoleError("configure: %v", err)
		return false
	}
	ctor, err := a.webSocket()
	if err != nil || ctor.Type() != jsTypeFunction {
		consoleError("configure: this runtime has no WebSocket")
		return false
	}
	var store *localStore
	if a.storage != nil {
		if ls, err := a.storage(); err == nil {
			store = newLocalStore(ls)
		}
	}
	a.mu.Lock()
	a.gen++
	gen := a.gen
	a.mu.Unlock()
	live := func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.gen == gen // a replaced configuration's late events are dropped
	}
	cfg := app.Config{
		OnMessage: func(js string) {
			if live() {
				a.emitMessage(js)
			}
		},
		RelayURL: opts.relayURL,
		Dial:     dialer(ctor),
		Clock:    a.clock,
		Locale:   opts.locale,
		Settings: opts.settings,
		Version:  a.version,
		Logf:     consoleDebug,
	}
	cfg.Soon = a.soon
	cfg.ReadFile = readFileFunc(opts.readFile)
	cfg.ListFiles = listFilesFunc(opts.listFiles)
	cfg.Library = opts.library
	cfg.OnDiskChange = func(ch client.DiskChange) {
		if live() {
			a.emitDisk(ch)
		}
	}
	cfg.OnWorkspaceFiles = func(sessionID string, changes []client.FileChange) {
		if live() {
			a.emitTo(&a.filesLs, workspaceFilesJSON(sessionID, changes), "onWorkspaceFiles listener")
		}
	}
	cfg.ShowDocument = a.showDocumentFunc(opts.openFile, opts.openTabs, opts.openExternal)
	cfg.OnProblems = func(sessionID string) {
		if live() {
			a.emitTo(&a.probLs, string(jsonlite.AppendString([]byte(`{"sessionId":`), sessionID))+"}", "onProblems listener")
		}
	}
	if store != nil {
		cfg.Store = store // a nil *localStore must not become a non-nil interface
	}
	var (
		bridge *editorBridge
		late   *client.LateEditor
	)
	if opts.pending.Type() == jsTypeUndefined {
		bridge = newEditorBridge(opts.monaco, a, opts.page)
		cfg.Editor = bridge
	} else {
		late = client.NewLateEditor()
		cfg.Editor = late
	}
	cfg.FileOps = opts.fileOps
	x, err := app.New(cfg, func(js string) {
		if live() {
			a.emit(js)
		}
	})
	if err != nil {
		if bridge != nil {
			bridge.close()
		}
		consoleError("configure: %v", err)
		return false
	}
	if bridge != nil {
		bridge.setOpener(opts.openTabs, opts.openFile)
	}

	a.mu.Lock()
	old, oldBridge, oldLate := a.app, a.bridge, a.late
	a.app = x
	a.bridge, a.late = bridge, late
	a.editor = opts.editor
	a.formatOnSave = opts.formatOnSave
	a.mu.Unlock()
	if oldBridge != nil {
		oldBridge.close()
	}
	if oldLate != nil {
		oldLate.Fail()
	}
	closeInBackground(old)
	if late != nil {
		a.await(gen, opts, late)
	}
	return true
}

// await waits for configuration gen's promise of Monaco: the connections
// run meanwhile, and what they register waits in late. Once it resolves,
// the bridge is made as configure makes it and late replays into it; if it
// rejects, the configuration is over. A configuration replaced or disposed
// before then gets nothing registered.
func (a *api) await(gen int, opts configureOptions, late *client.LateEditor) {
	fns := &funcSet{}
	settled := make(chan struct{})
	fns.releaseWhen(settled)
	var once sync.Once
	settle := func() { once.Do(func() { close(settled) }) }
	onOK, err1 := fns.add(func(_ jsValue, args []jsValue) any {
		settle()
		ns := jsUndefined()
		if len(args) > 0 {
			ns = args[0]
		}
		if editor, err := monacoEditor(ns); err != nil {
			a.monacoFailed(gen, late, err.Error())
		} else {
			a.monacoArrived(gen, ns, editor, opts, late)
		}
		return nil
	})
	onErr, err2 := fns.add(func(_ jsValue, args []jsValue) any {
		settle()
		reason := "rejected"
		if len(args) > 0 {
			if s, err := jsGlobal().Call("String", args[0]); err == nil {
				reason, _ = s.String()
			}
		}
		a.monacoFailed(gen, late, reason)
		return nil
	})
	err := errors.Join(err1, err2)
	if err == nil {
		_, err = opts.pending.Call("then", onOK, onErr)
	}
	if err != nil {
		settle()
		a.monacoFailed(gen, late, err.Error())
	}
}

// monacoArrived builds configuration gen's bridge over the namespace and
// hands it the calls kept meanwhile, in order.
func (a *api) monacoArrived(gen int, ns, editor jsValue, opts configureOptions, late *client.LateEditor) {
	a.mu.Lock()
	current := a.gen == gen
	a.mu.Unlock()
	if !current {
		return
	}
	bridge := newEditorBridge(ns, a, opts.page)
	bridge.setOpener(opts.openTabs, opts.openFile)
	a.mu.Lock()
	current = a.gen == gen
	if current {
		a.bridge, a.late, a.editor = bridge, nil, editor
	}
	a.mu.Unlock()
	if !current {
		bridge.close()
		return
	}
	late.Resolve(bridge)
}

// monacoFailed ends configuration gen when its Monaco will never come: no
// connection keeps a server running for it. Calls then answer as before
// configure, which may be called again.
func (a *api) monacoFailed(gen int, late *client.LateEditor, reason string) {
	a.mu.Lock()
	current := a.gen == gen
	var old *app.App
	if current {
		a.gen++ // its late events are dropped
		old = a.app
		a.app, a.late, a.editor = nil, nil, jsUndefined()
	}
	a.mu.Unlock()
	late.Fail()
	if current {
		consoleError("configure: monaco did not load (%s): the configuration's connections are closed", reason)
		closeInBackground(old)
	}
}

// soon runs f in a microtask: once the JavaScript that called into Go
// (Monaco dispatching a content change to its listeners) has returned, and
// before the page handles its next event. A document's first change of a
// turn leaves at once; this ends the turn, sending the changes made after
// it in one didChange.
func (a *api) soon(f func()) {
	a.mu.Lock()
	a.turn = append(a.turn, f)
	first := len(a.turn) == 1
	a.mu.Unlock()
	if first {
		if _, err := a.microtask.Invoke(a.goTurn); err != nil {
			go a.endTurn(jsUndefined(), nil) // no queueMicrotask
		}
	}
}

// endTurn runs what waited for the end of the turn; what it schedules
// waits for a microtask of its own.
func (a *api) endTurn(jsValue, []jsValue) any {
	a.mu.Lock()
	fns := a.turn
	a.turn = nil
	a.mu.Unlock()
	for _, f := range fns {
		f()
	}
	return nil
}

// closeInBackground stops a replaced configuration's connections. Closing
// waits for sockets to close, which needs the event loop the calling
// callback is holding: never wait there.
func closeInBackground(old *app.App) {
	if old == nil {
		return
	}
	go func() {
		ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 10*clock.Second)
		defer cancel()
		_ = old.Close(ctx)
	}()
}

// setSettings(settings) → true, or false after a console.error. settings is
// the /api/v1/user/settings object (or its JSON text).
func (a *api) setSettings(_ jsValue, args []jsValue) any {
	x := a.current()
	if x == nil {
		consoleError("setSettings: call configure first")
		return false
	}
	if len(args) < 1 {
		consoleError("setSettings: expected the settings object")
		return false
	}
	data, err := jsonArg(args[0])
	if err == nil {
		err = x.SetSettings(data)
	}
	if err != nil {
		consoleError("setSettings: %v", err)
		return false
	}
	return true
}

// setLocale(tag) → the locale in use ("en" for unknown tags).
func (a *api) setLocale(_ jsValue, args []jsValue) any {
	x := a.current()
	tag, ok := stringArg(args, 0)
	if x == nil || !ok {
		consoleError("setLocale: call configure first, with a locale string")
		return nil
	}
	return x.SetLocale(tag)
}

// pairAction builds start/stop/retry/prepare(sessionId, language) → boolean.
//
//go:noinline
func (a *api) pairAction(do func(*app.App, string, wire.Language, int) bool) func(jsValue, []jsValue) any {
	return func(_ jsValue, args []jsValue) any {
		sessionID, ok1 := stringArg(args, 0)
		language, ok2 := stringArg(args, 1)
		x := a.current()
		if _, known := wire.Lookup(language); !ok1 || !ok2 || !known || sessionID == "" || x == nil {
			consoleError("expected (sessionId, language[, slot]) after configure")
			return false
		}
		// A third argument names one server of the language by its place
		// in the list (the view's servers[i].slot); without it, all.
		slot := -1
		if len(args) > 2 && args[2].Type() == jsTypeNumber {
			if n, err := args[2].Int(); err == nil && n >= 0 {
				slot = n
			}
		}
		return do(x, sessionID, wire.Language(language), slot)
	}
}

// view(sessionId, language) → the status view-model object, or null.
// status() is the same but null for a pair this window never saw.
//
//go:noinline
func (a *api) view(onlySeen bool) func(jsValue, []jsValue) any {
	return func(_ jsValue, args []jsValue) any {
		sessionID, ok1 := stringArg(args, 0)
		language, ok2 := stringArg(args, 1)
		x := a.current()
		if !ok1 || !ok2 || x == nil {
			return nil
		}
		v, err := parseJSON(x.View(sessionID, wire.Language(language), onlySeen))
		if err != nil {
			consoleError("view: %v", err)
			return nil
		}
		return v
	}
}

// problems(sessionId) → [{path, model, language, markers}]: every file of
// the session with diagnostics, open or not ([] before configure). Plain
// data: URIs stay strings.
func (a *api) problems(_ jsValue, args []jsValue) any {
	sessionID, ok := stringArg(args, 0)
	x := a.current()
	js := "[]"
	if ok && x != nil {
		js = x.Problems(sessionID)
	}
	v, err := parseJSON(js)
	if err != nil {
		consoleError("problems: %v", err)
		return nil
	}
	return v
}

// memory() → {goHeapInUse, goHeapObjects, goSys}: what lsp.wasm's Go
// runtime holds, after a collection, for a page or a benchmark that weighs
// it. The WebAssembly memory only grows, so its size says how much was
// ever needed, not how much is live; the heap in use says that.
func (a *api) memory(_ jsValue, _ []jsValue) any {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b := strconv.AppendUint([]byte(`{"goHeapInUse":`), m.HeapInuse, 10)
	b = strconv.AppendUint(append(b, `,"goHeapObjects":`...), m.HeapObjects, 10)
	b = strconv.AppendUint(append(b, `,"goSys":`...), m.Sys, 10)
	v, err := parseJSON(string(append(b, '}')))
	if err != nil {
		consoleError("memory: %v", err)
		return nil
	}
	return v
}

// openDocument({sessionId, path, model, library?}) → {sessionId, path, language, library?, close, reload} or null.
func (a *api) openDocument(_ jsValue, args []jsValue) any {
	opts, err := parseOpen(args)
	if err != nil {
		consoleError("openDocument: %v", err)
		return nil
	}
	a.mu.Lock()
	x, editor, bridge, late := a.app, a.editor, a.bridge, a.late
	a.mu.Unlock()
	if x == nil {
		consoleError("openDocument: call configure first")
		return nil
	}
	if late != nil {
		consoleError("openDocument: monaco has not loaded yet; open documents once the promise given to configure has resolved")
		return nil
	}
	if _, ok := wire.ForFile(opts.path); !ok {
		return nil
	}
	info, _ := wire.ForFile(opts.path)
	m := &model{v: opts.model, editor: editor, bridge: bridge, owner: features.MarkerOwner(opts.sessionID, string(info.Language))}
	m.describe()
	open := x.OpenDocument
	if opts.library {
		open = x.OpenLibraryDocument
	}
	d, err := open(opts.sessionID, opts.path, m, m)
	if err != nil {
		if !errors.Is(err, client.ErrNoLanguage) {
			consoleError("openDocument: %v", err)
		}
		return nil
	}
	if opts.persistedText != nil {
		d.SetPersistedText(*opts.persisted, *opts.persistedText)
	} else if opts.persisted != nil {
		d.SetPersisted(*opts.persisted)
	}
	if bridge != nil {
		bridge.claim(opts.model) // the page's model now, never a placeholder
	}
	obj, err := a.bindDocument(d, opts.model, bridge)
	if err != nil {
		d.Close()
		consoleError("openDocument: %v", err)
		return nil
	}
	return obj
}

// bindDocument hooks the model's events to d and builds the JS handle.
func (a *api) bindDocument(d *client.Document, modelValue jsValue, bridge *editorBridge) (jsValue, error) {
	fns := &funcSet{}
	done := make(chan struct{})
	fns.releaseWhen(done)

	obj, err := newObject()
	if err != nil {
		close(done)
		return obj, err
	}
	var (
		once        sync.Once
		disposables []jsValue
	)
	a.mu.Lock()
	a.nextID++
	handleID := a.nextID
	a.mu.Unlock()
	closeDoc := func() {
		once.Do(func() {
			a.mu.Lock()
			delete(a.docs, handleID)
			a.mu.Unlock()
			d.Close()
			for _, disp := range disposables {
				dispose(disp)
			}
			// The handle may be called again; it must not reach a
			// released function.
			_ = obj.Set("close", noop())
			close(done)
		})
	}
	hook := func(event string, fn func(jsValue, []jsValue) any) error {
		cb, err := fns.add(fn)
		if err != nil {
			return err
		}
		disp, err := modelValue.Call(event, cb)
		if err != nil {
			return wrap("model."+event, err)
		}
		disposables = append(disposables, disp)
		return nil
	}

	if bridge != nil && bridge.ok() {
		// Per change: Monaco's event crosses as one JSON string, built
		// synchronously inside the listener; the text is not read.
		var cb jsValue
		if cb, err = fns.add(func(_ jsValue, args []jsValue) any {
			if s, ok := stringArg(args, 0); ok {
				if err := d.Changed(s); err != nil {
					consoleError("content change: %v", err)
				}
			}
			return nil
		}); err == nil {
			var disp jsValue
			if disp, err = bridge.hookChange(modelValue, cb); err == nil {
				disposables = append(disposables, disp)
			}
		}
	} else {
		// Without the shim (no Monaco languages API): mark dirty, read
		// nothing; the next didChange carries the whole text.
		err = hook("onDidChangeContent", func(jsValue, []jsValue) any {
			d.MarkDirty()
			return nil
		})
	}
	if err == nil && isFunc(modelValue, "onWillDispose") {
		err = hook("onWillDispose", func(jsValue, []jsValue) any {
			closeDoc()
			return nil
		})
	}
	var closeFn jsValue
	if err == nil {
		closeFn, err = fns.add(func(jsValue, []jsValue) any {
			closeDoc()
			return nil
		})
	}
	if err == nil {
		err = obj.Set("close", closeFn)
	}
	var reloadFn jsValue
	if err == nil {
		reloadFn, err = fns.add(func(jsValue, []jsValue) any { return d.Reload() })
	}
	if err == nil {
		err = obj.Set("reload", reloadFn)
	}
	if err == nil {
		err = obj.Set("path", d.Path())
	}
	if err == nil && d.Library() {
		err = obj.Set("library", true)
	}
	if err == nil {
		err = obj.Set("sessionId", d.SessionID())
	}
	if err == nil {
		err = obj.Set("language", string(d.Language()))
	}
	if err != nil {
		for _, disp := range disposables {
			dispose(disp)
		}
		once.Do(func() { close(done) })
		return obj, err
	}
	a.mu.Lock()
	if a.docs == nil {
		a.docs = make(map[int]func())
	}
	a.docs[handleID] = closeDoc
	a.mu.Unlock()
	return obj, nil
}

// dispose() → true: the teardown. Every document handle closes (didClose,
// markers cleared, model listeners disposed), every connection stops in
// the background (its late events are dropped), every provider,
// placeholder model and the editor opener lsp.wasm registered go, the
// TypeScript built-ins are unwrapped, and the onStatus and onMessage
// listeners are dropped: Monaco is as configure found it, and configure
// may be called again.
func (a *api) dispose(_ jsValue, _ []jsValue) any {
	a.mu.Lock()
	old, bridge, late := a.app, a.bridge, a.late
	closers := make([]func(), 0, len(a.docs))
	for _, f := range a.docs {
		closers = append(closers, f)
	}
	a.app, a.bridge, a.late, a.editor = nil, nil, nil, jsUndefined()
	a.gen++
	a.listeners, a.msgLs, a.diskLs, a.filesLs, a.probLs = nil, nil, nil, nil, nil
	a.mu.Unlock()
	for _, f := range closers {
		f()
	}
	if bridge != nil {
		bridge.dispose()
	}
	if late != nil {
		late.Fail()
	}
	closeInBackground(old)
	return true
}

// subscribe builds onStatus(fn) and onMessage(fn): fn joins the list and
// the result is off(), which takes it out again. off is a small JavaScript
// closure over one shared Go function, so a subscription holds no js.Func
// of its own and nothing leaks when the page never calls off.
//
//go:noinline
func (a *api) subscribe(list *[]listener, name string) func(jsValue, []jsValue) any {
	return func(_ jsValue, args []jsValue) any {
		if len(args) < 1 || args[0].Type() != jsTypeFunction {
			consoleError("%s: expected a function", name)
			return nil
		}
		a.mu.Lock()
		a.nextID++
		id := a.nextID
		*list = append(*list, listener{id: id, fn: args[0]})
		a.mu.Unlock()
		off, err := a.offFor.Invoke(a.goOff, id)
		if err != nil {
			consoleError("%s: %v", name, err)
			return nil
		}
		return off
	}
}

// unsubscribe is the Go side of every off(): it takes listener id out of
// whichever list holds it.
func (a *api) unsubscribe(_ jsValue, args []jsValue) any {
	if len(args) < 1 {
		return nil
	}
	id, err := args[0].Int()
	if err != nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, list := range []*[]listener{&a.listeners, &a.msgLs, &a.diskLs, &a.probLs} {
		for i, l := range *list {
			if l.id == id {
				*list = append((*list)[:i:i], (*list)[i+1:]...)
				return nil
			}
		}
	}
	return nil
}

// emitMessage delivers one server message to every onMessage listener. A
// request nobody listens to is answered null at once: nobody can choose.
func (a *api) emitMessage(js string) {
	a.mu.Lock()
	ls := append([]listener(nil), a.msgLs...)
	x := a.app
	a.mu.Unlock()
	v, err := parseJSON(js)
	if err != nil {
		consoleError("server message: %v", err)
		return
	}
	if len(ls) == 0 {
		if id, err := v.Get("id"); err == nil && id.Type() == jsTypeString && x != nil {
			s, _ := id.String()
			x.Respond(s, "", false)
		}
		return
	}
	for _, l := range ls {
		if _, err := l.fn.Invoke(v); err != nil {
			consoleError("message listener threw: %v", err)
		}
	}
}

// respond(id, title) → boolean: the page's answer to a server's
// showMessageRequest (the message's id), the chosen action's title, or
// null to dismiss it. false when the request no longer waits.
func (a *api) respond(_ jsValue, args []jsValue) any {
	id, ok := stringArg(args, 0)
	x := a.current()
	if !ok || x == nil {
		consoleError("respond: expected (id, title | null) after configure")
		return false
	}
	title, chosen := stringArg(args, 1)
	return x.Respond(id, title, chosen)
}

// emit delivers one view to every onStatus listener.
func (a *api) emit(viewJSON string) { a.emitTo(&a.listeners, viewJSON, "status listener") }

// emitTo delivers one event to every listener of list: the JSON string
// crosses once, is parsed once, and the object is shared.
func (a *api) emitTo(list *[]listener, js, what string) {
	v, err := parseJSON(js)
	if err != nil {
		consoleError("%s: %v", what, err)
		return
	}
	a.emitValue(list, v, what)
}

// emitValue calls every listener of list with v.
func (a *api) emitValue(list *[]listener, v jsValue, what string) {
	a.mu.Lock()
	ls := append([]listener(nil), *list...)
	a.mu.Unlock()
	for _, l := range ls {
		if _, err := l.fn.Invoke(v); err != nil {
			consoleError("%s threw: %v", what, err)
		}
	}
}

// consoleDebug is the client's developer log.
func consoleDebug(format string, args ...any) {
	console, err := jsGlobal().Get("console")
	if err != nil {
		return
	}
	_, _ = console.Call("debug", "kandevLSP: "+sprintf(format, args...))
}
