//go:build js && wasm

package jsbind

import (
	"strconv"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// The binding formats its console lines and wraps errors itself: fmt would
// bring reflect into lsp.wasm, and the lines need only %v, %s, %d and %q.

// sprintf formats like fmt.Sprintf for the verbs %v, %s, %d, %q and %% and
// for strings, errors, Stringers, booleans and integers; anything else
// prints as ?. %q quotes as a JSON string, which differs from Go's quoting
// only in how it escapes control and non-ASCII characters, and keeps Go's
// quoting code and its Unicode tables out of lsp.wasm.
func sprintf(format string, args ...any) string {
	b := make([]byte, 0, len(format)+32)
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b = append(b, c)
			continue
		}
		i++
		verb := format[i]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n >= len(args) {
			b = jsonlite.AppendLit(b, "%!")
			b = append(b, verb)
			b = jsonlite.AppendLit(b, "(MISSING)")
			continue
		}
		s := sprint(args[n])
		n++
		if verb == 'q' {
			b = jsonlite.AppendString(b, s)
		} else {
			b = append(b, s...)
		}
	}
	return string(b)
}

func sprint(x any) string {
	switch x := x.(type) {
	case nil:
		return "<nil>"
	case string:
		return x
	case error:
		return x.Error()
	case interface{ String() string }:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	return "?"
}

// wrapError is an error with context in front, as fmt.Errorf("%s: %w")
// makes; errors.Is and errors.As see the wrapped error.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg + ": " + e.err.Error() }
func (e *wrapError) Unwrap() error { return e.err }

// wrap returns err with msg in front.
func wrap(msg string, err error) error { return &wrapError{msg: msg, err: err} }
