//go:build js && wasm

package jsbind

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

// parseJSON turns one JSON string into a JavaScript value: one crossing for
// a whole structure instead of one per field.
func parseJSON(s string) (safejs.Value, error) {
	j, err := safejs.Global().Get("JSON")
	if err != nil {
		return safejs.Undefined(), err
	}
	v, err := j.Call("parse", s)
	if err != nil {
		return safejs.Undefined(), fmt.Errorf("JSON.parse: %w", err)
	}
	return v, nil
}

// consoleError logs to the browser console; it is how errors reach
// developers without being thrown into the page.
func consoleError(format string, args ...any) {
	console, err := safejs.Global().Get("console")
	if err != nil {
		return
	}
	_, _ = console.Call("error", "kandevLSP: "+fmt.Sprintf(format, args...))
}

// noop is a JavaScript function that does nothing (Function.prototype),
// used to replace a callback after its Go side is released.
func noop() safejs.Value {
	fn, err := safejs.Global().Get("Function")
	if err != nil {
		return safejs.Undefined()
	}
	p, err := fn.Get("prototype")
	if err != nil {
		return safejs.Undefined()
	}
	return p
}

// newObject returns an empty JavaScript object.
func newObject() (safejs.Value, error) {
	o, err := safejs.Global().Get("Object")
	if err != nil {
		return safejs.Undefined(), err
	}
	return o.New()
}

// isFunc reports whether v[name] is a function.
func isFunc(v safejs.Value, name string) bool {
	f, err := v.Get(name)
	return err == nil && f.Type() == safejs.TypeFunction
}
