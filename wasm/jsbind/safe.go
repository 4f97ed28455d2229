//go:build js && wasm

package jsbind

import (
	"errors"
	"syscall/js"
)

// This file is the binding's only contact with syscall/js: a thin wrapper
// whose methods turn the panics of syscall/js (JavaScript exceptions, and
// misuse such as Int on a string) into Go errors, the way
// github.com/hack-pad/safejs does with the same method names. It replaces
// safejs because that library brings fmt (and reflect) into lsp.wasm, which
// has a size budget.

// jsValue is a JavaScript value whose fallible operations return errors.
type jsValue struct{ v js.Value }

// jsFunc is a Go function callable from JavaScript; Release frees it.
type jsFunc struct{ fn js.Func }

// jsType is a JavaScript value's type (typeof, with null apart).
type jsType int

// The JavaScript types.
const (
	jsTypeUndefined = jsType(js.TypeUndefined)
	jsTypeNull      = jsType(js.TypeNull)
	jsTypeBoolean   = jsType(js.TypeBoolean)
	jsTypeNumber    = jsType(js.TypeNumber)
	jsTypeString    = jsType(js.TypeString)
	jsTypeSymbol    = jsType(js.TypeSymbol)
	jsTypeObject    = jsType(js.TypeObject)
	jsTypeFunction  = jsType(js.TypeFunction)
)

func (t jsType) String() string { return js.Type(t).String() }

func jsSafe(v js.Value) jsValue        { return jsValue{v: v} }
func jsUnsafe(v jsValue) js.Value      { return v.v }
func jsGlobal() jsValue                { return jsSafe(js.Global()) }
func jsNull() jsValue                  { return jsSafe(js.Null()) }
func jsUndefined() jsValue             { return jsSafe(js.Undefined()) }
func (f jsFunc) Release()              { f.fn.Release() }
func (f jsFunc) Value() jsValue        { return jsSafe(f.fn.Value) }
func (v jsValue) Equal(w jsValue) bool { return v.v.Equal(w.v) }
func (v jsValue) IsNull() bool         { return v.v.IsNull() }
func (v jsValue) IsUndefined() bool    { return v.v.IsUndefined() }
func (v jsValue) IsNaN() bool          { return v.v.IsNaN() }
func (v jsValue) Type() jsType         { return jsType(v.v.Type()) }

// errPanic stands for a panic value that is neither an error nor a
// JavaScript value.
var errPanic = errors.New("jsbind: JavaScript call panicked")

// catch turns a panic into *err: a thrown JavaScript value becomes a
// js.Error, an error stays itself.
func catch(err *error) {
	switch r := recover().(type) {
	case nil:
	case error:
		*err = r
	case js.Value:
		*err = js.Error{Value: r}
	case string:
		*err = errors.New(r)
	default:
		*err = errPanic
	}
}

func try[T any](fn func() T) (res T, err error) {
	defer catch(&err)
	return fn(), nil
}

func trySideEffect(fn func()) (err error) {
	defer catch(&err)
	fn()
	return nil
}

// toJS unwraps the binding's types, also inside []any and map[string]any,
// for syscall/js, which knows only its own.
func toJS(x any) any {
	switch x := x.(type) {
	case jsValue:
		return x.v
	case jsFunc:
		return x.fn
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = toJS(v)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, v := range x {
			s[i] = toJS(v)
		}
		return s
	}
	return x
}

func toJSArgs(args []any) []any { return toJS(args).([]any) }

// jsValueOf converts a Go value as js.ValueOf does.
func jsValueOf(x any) (jsValue, error) {
	return try(func() jsValue { return jsSafe(js.ValueOf(x)) })
}

// jsErrorName is the name of the JavaScript error err carries (a thrown
// EvalError: "EvalError"), or "".
func jsErrorName(err error) string {
	// errors.AsType rather than errors.As, which links reflection (16 KB
	// of lsp.wasm, gzip).
	je, ok := errors.AsType[js.Error](err)
	if !ok {
		return ""
	}
	name, nerr := jsSafe(je.Value).Get("name")
	if nerr != nil || name.Type() != jsTypeString {
		return ""
	}
	s, _ := name.String()
	return s
}

// copyBytesToGo copies a Uint8Array into dst, as js.CopyBytesToGo does.
func copyBytesToGo(dst []byte, src jsValue) (int, error) {
	return try(func() int { return js.CopyBytesToGo(dst, src.v) })
}

// jsFuncOf wraps fn for JavaScript.
func jsFuncOf(fn func(this jsValue, args []jsValue) any) (jsFunc, error) {
	wrapped := func(this js.Value, args []js.Value) any {
		vs := make([]jsValue, len(args))
		for i, a := range args {
			vs[i] = jsSafe(a)
		}
		return toJS(fn(jsSafe(this), vs))
	}
	f, err := try(func() js.Func { return js.FuncOf(wrapped) })
	return jsFunc{fn: f}, err
}

func (v jsValue) Bool() (bool, error)     { return try(v.v.Bool) }
func (v jsValue) Float() (float64, error) { return try(v.v.Float) }
func (v jsValue) Int() (int, error)       { return try(v.v.Int) }
func (v jsValue) Length() (int, error)    { return try(v.v.Length) }
func (v jsValue) String() (string, error) { return try(v.v.String) }
func (v jsValue) Truthy() (bool, error)   { return try(v.v.Truthy) }

func (v jsValue) Get(p string) (jsValue, error) {
	return try(func() jsValue { return jsSafe(v.v.Get(p)) })
}

func (v jsValue) Index(i int) (jsValue, error) {
	return try(func() jsValue { return jsSafe(v.v.Index(i)) })
}

func (v jsValue) Set(p string, x any) error {
	x = toJS(x)
	return trySideEffect(func() { v.v.Set(p, x) })
}

func (v jsValue) SetIndex(i int, x any) error {
	x = toJS(x)
	return trySideEffect(func() { v.v.SetIndex(i, x) })
}

func (v jsValue) Delete(p string) error {
	return trySideEffect(func() { v.v.Delete(p) })
}

func (v jsValue) Call(m string, args ...any) (jsValue, error) {
	args = toJSArgs(args)
	return try(func() jsValue { return jsSafe(v.v.Call(m, args...)) })
}

func (v jsValue) Invoke(args ...any) (jsValue, error) {
	args = toJSArgs(args)
	return try(func() jsValue { return jsSafe(v.v.Invoke(args...)) })
}

func (v jsValue) New(args ...any) (jsValue, error) {
	args = toJSArgs(args)
	return try(func() jsValue { return jsSafe(v.v.New(args...)) })
}
