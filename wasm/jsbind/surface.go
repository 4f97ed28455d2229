//go:build js && wasm

package jsbind

import "github.com/kandev/lsp/wasm/status"

// surface({ model?, phone?, coarse?, statusBar? }) → { preferred, location,
// fallback, disclosure, pair, connect }: where the page renders the status
// control of its active editor (see status.Decide). model is the Monaco
// model mounted in the active editor (or its URI string), null when the
// active panel is anything else.
func (a *api) surface(_ jsValue, args []jsValue) any {
	x := a.current()
	if x == nil {
		consoleError("surface: call configure first")
		return nil
	}
	var (
		l   status.Layout
		uri string
	)
	if len(args) > 0 && args[0].Type() == jsTypeObject {
		o := args[0]
		l = status.Layout{Phone: flag(o, "phone"), Coarse: flag(o, "coarse"), StatusBar: flag(o, "statusBar")}
		if m, err := o.Get("model"); err == nil {
			uri = modelURI(m)
		}
	}
	v, err := parseJSON(x.Surface(uri, l))
	if err != nil {
		consoleError("surface: %v", err)
		return nil
	}
	return v
}

// text(key, args?) → the catalog text in the current locale, with {name}
// placeholders filled from args ({ name: string | number }).
func (a *api) text(_ jsValue, args []jsValue) any {
	x := a.current()
	key, ok := stringArg(args, 0)
	if x == nil || !ok {
		consoleError("text: call configure first, with a key string")
		return ""
	}
	var js []byte
	if len(args) > 1 && args[1].Type() == jsTypeObject {
		js, _ = jsonArg(args[1]) // one stringify for all placeholders
	}
	return x.TextJSON(key, js)
}

// flag reads o[name] as JavaScript truthiness.
func flag(o jsValue, name string) bool {
	v, err := o.Get(name)
	if err != nil {
		return false
	}
	b, err := v.Truthy()
	return err == nil && b
}

// modelURI is a model's uri.toString(), or the string itself; "" for
// anything else.
func modelURI(m jsValue) string {
	switch m.Type() {
	case jsTypeString:
		s, _ := m.String()
		return s
	case jsTypeObject:
		mm := &model{v: m}
		mm.describe()
		return mm.uri
	}
	return ""
}
