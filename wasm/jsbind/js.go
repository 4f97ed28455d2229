//go:build js && wasm

package jsbind

// parseJSON turns one JSON string into a JavaScript value: one crossing for
// a whole structure instead of one per field.
func parseJSON(s string) (jsValue, error) {
	j, err := jsGlobal().Get("JSON")
	if err != nil {
		return jsUndefined(), err
	}
	v, err := j.Call("parse", s)
	if err != nil {
		return jsUndefined(), wrap("JSON.parse", err)
	}
	return v, nil
}

// consoleError logs to the browser console; it is how errors reach
// developers without being thrown into the page.
func consoleError(format string, args ...any) {
	console, err := jsGlobal().Get("console")
	if err != nil {
		return
	}
	_, _ = console.Call("error", "kandevLSP: "+sprintf(format, args...))
}

// noop is a JavaScript function that does nothing (Function.prototype),
// used to replace a callback after its Go side is released.
func noop() jsValue {
	fn, err := jsGlobal().Get("Function")
	if err != nil {
		return jsUndefined()
	}
	p, err := fn.Get("prototype")
	if err != nil {
		return jsUndefined()
	}
	return p
}

// newObject returns an empty JavaScript object.
func newObject() (jsValue, error) {
	o, err := jsGlobal().Get("Object")
	if err != nil {
		return jsUndefined(), err
	}
	return o.New()
}

// isFunc reports whether v[name] is a function.
func isFunc(v jsValue, name string) bool {
	f, err := v.Get(name)
	return err == nil && f.Type() == jsTypeFunction
}
