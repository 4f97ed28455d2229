//go:build js && wasm

package jsbind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hack-pad/safejs"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/client"
)

// GlobalName is the property of globalThis that holds the API object.
const GlobalName = "kandevLSP"

// Install sets globalThis.kandevLSP. Its functions live as long as the page,
// so they are never released.
func Install(version string) error {
	a := newAPI(version, func() (safejs.Value, error) { return safejs.Global().Get("WebSocket") })
	obj, err := a.object()
	if err != nil {
		return err
	}
	return safejs.Global().Set(GlobalName, obj)
}

// api is the Go side of the kandevLSP object.
type api struct {
	version   string
	webSocket func() (safejs.Value, error) // the WebSocket constructor
	clock     client.Clock                 // nil: the wall clock (tests inject one)

	fns funcSet // the object's own methods

	mu        sync.Mutex
	client    *client.Client
	editor    safejs.Value // monaco.editor
	listeners []listener
	nextID    int
}

type listener struct {
	id int
	fn safejs.Value
}

func newAPI(version string, webSocket func() (safejs.Value, error)) *api {
	return &api{version: version, webSocket: webSocket}
}

// object builds the kandevLSP object.
func (a *api) object() (safejs.Value, error) {
	obj, err := newObject()
	if err != nil {
		return obj, err
	}
	methods := map[string]func(safejs.Value, []safejs.Value) any{
		"configure":    a.configure,
		"openDocument": a.openDocument,
		"onStatus":     a.onStatus,
		"status":       a.status,
	}
	for name, m := range methods {
		fn, err := a.fns.add(m)
		if err == nil {
			err = obj.Set(name, fn)
		}
		if err != nil {
			return obj, fmt.Errorf("jsbind: %s: %w", name, err)
		}
	}
	if err := obj.Set("version", a.version); err != nil {
		return obj, err
	}
	return obj, nil
}

// configure({monaco, relayURL}) → true, or false after a console.error.
func (a *api) configure(_ safejs.Value, args []safejs.Value) any {
	opts, err := parseConfigure(args)
	if err != nil {
		consoleError("configure: %v", err)
		return false
	}
	ctor, err := a.webSocket()
	if err != nil || ctor.Type() != safejs.TypeFunction {
		consoleError("configure: this runtime has no WebSocket")
		return false
	}
	c, err := client.New(client.Config{
		RelayURL: opts.relayURL,
		Dial:     dialer(ctor),
		Clock:    a.clock,
		Version:  a.version,
		Logf:     consoleDebug,
	})
	if err != nil {
		consoleError("configure: %v", err)
		return false
	}
	c.OnStatus(a.emit)

	a.mu.Lock()
	old := a.client
	a.client = c
	a.editor = opts.editor
	a.mu.Unlock()
	if old != nil {
		// Closing waits for sockets to close, which needs the event loop
		// this callback is holding: never wait here.
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = old.Close(ctx)
		}()
	}
	return true
}

// openDocument({sessionId, path, model}) → {path, language, close} or null.
func (a *api) openDocument(_ safejs.Value, args []safejs.Value) any {
	opts, err := parseOpen(args)
	if err != nil {
		consoleError("openDocument: %v", err)
		return nil
	}
	a.mu.Lock()
	c, editor := a.client, a.editor
	a.mu.Unlock()
	if c == nil {
		consoleError("openDocument: call configure first")
		return nil
	}
	if _, ok := wire.ForFile(opts.path); !ok {
		return nil
	}
	m := &model{v: opts.model, editor: editor}
	d, err := c.OpenDocument(opts.sessionID, opts.path, m, m)
	if err != nil {
		if !errors.Is(err, client.ErrNoLanguage) {
			consoleError("openDocument: %v", err)
		}
		return nil
	}
	obj, err := a.bindDocument(d, opts.model)
	if err != nil {
		d.Close()
		consoleError("openDocument: %v", err)
		return nil
	}
	return obj
}

// bindDocument hooks the model's events to d and builds the JS handle.
func (a *api) bindDocument(d *client.Document, modelValue safejs.Value) (safejs.Value, error) {
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
		disposables []safejs.Value
	)
	closeDoc := func() {
		once.Do(func() {
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
	hook := func(event string, fn func(safejs.Value, []safejs.Value) any) error {
		cb, err := fns.add(fn)
		if err != nil {
			return err
		}
		disp, err := modelValue.Call(event, cb)
		if err != nil {
			return fmt.Errorf("model.%s: %w", event, err)
		}
		disposables = append(disposables, disp)
		return nil
	}

	// Per keystroke: mark dirty, read nothing.
	err = hook("onDidChangeContent", func(safejs.Value, []safejs.Value) any {
		d.MarkDirty()
		return nil
	})
	if err == nil && isFunc(modelValue, "onWillDispose") {
		err = hook("onWillDispose", func(safejs.Value, []safejs.Value) any {
			closeDoc()
			return nil
		})
	}
	var closeFn safejs.Value
	if err == nil {
		closeFn, err = fns.add(func(safejs.Value, []safejs.Value) any {
			closeDoc()
			return nil
		})
	}
	if err == nil {
		err = obj.Set("close", closeFn)
	}
	if err == nil {
		err = obj.Set("path", d.Path())
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
	return obj, nil
}

// onStatus(fn) subscribes fn to status events and returns off().
func (a *api) onStatus(_ safejs.Value, args []safejs.Value) any {
	if len(args) < 1 || args[0].Type() != safejs.TypeFunction {
		consoleError("onStatus: expected a function")
		return nil
	}
	a.mu.Lock()
	a.nextID++
	id := a.nextID
	a.listeners = append(a.listeners, listener{id: id, fn: args[0]})
	a.mu.Unlock()

	fns := &funcSet{}
	done := make(chan struct{})
	fns.releaseWhen(done)
	var once sync.Once
	off, err := fns.add(func(safejs.Value, []safejs.Value) any {
		once.Do(func() {
			a.mu.Lock()
			for i, l := range a.listeners {
				if l.id == id {
					a.listeners = append(a.listeners[:i:i], a.listeners[i+1:]...)
					break
				}
			}
			a.mu.Unlock()
			close(done)
		})
		return nil
	})
	if err != nil {
		consoleError("onStatus: %v", err)
		return nil
	}
	return off
}

// status(sessionId, language) → the latest status object or null.
func (a *api) status(_ safejs.Value, args []safejs.Value) any {
	sessionID, ok1 := stringArg(args, 0)
	language, ok2 := stringArg(args, 1)
	a.mu.Lock()
	c := a.client
	a.mu.Unlock()
	if !ok1 || !ok2 || c == nil {
		return nil
	}
	s, ok := c.Status(sessionID, wire.Language(language))
	if !ok {
		return nil
	}
	v, err := parseJSON(statusJSON(s))
	if err != nil {
		consoleError("status: %v", err)
		return nil
	}
	return v
}

// emit delivers a status to every JavaScript listener; the object is built
// once from JSON and shared.
func (a *api) emit(s client.Status) {
	a.mu.Lock()
	ls := append([]listener(nil), a.listeners...)
	a.mu.Unlock()
	if len(ls) == 0 {
		return
	}
	v, err := parseJSON(statusJSON(s))
	if err != nil {
		consoleError("status event: %v", err)
		return
	}
	for _, l := range ls {
		if _, err := l.fn.Invoke(v); err != nil {
			consoleError("status listener threw: %v", err)
		}
	}
}

// statusJSON encodes a status for JavaScript: closeCode is null until the
// connection has closed with a code.
func statusJSON(s client.Status) string {
	var code *int
	if s.CloseCode != 0 {
		code = &s.CloseCode
	}
	b, _ := json.Marshal(struct {
		SessionID string       `json:"sessionId"`
		Language  string       `json:"language"`
		State     client.State `json:"state"`
		CloseCode *int         `json:"closeCode"`
		Message   string       `json:"message,omitempty"`
	}{s.SessionID, s.Language, s.State, code, s.Message})
	return string(b)
}

// consoleDebug is the client's developer log.
func consoleDebug(format string, args ...any) {
	console, err := safejs.Global().Get("console")
	if err != nil {
		return
	}
	_, _ = console.Call("debug", "kandevLSP: "+fmt.Sprintf(format, args...))
}
