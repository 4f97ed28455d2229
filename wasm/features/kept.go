package features

import j "github.com/kandev/lsp/wasm/jsonlite"

// Items resolved later: inlay hints, code lenses and document links whose
// server resolves them (Providers.Resolves). Their answer is kept on the
// connection (Env.Keep) and each Monaco item carries "lsp":[key,index],
// which the shim hides from Monaco and hands back to the feature's resolve
// step; the step sends the kept LSP item to the resolve method and answers
// the resolved item, or null once the answer is no longer kept.

// itemFunc appends one mapped item of an answer array; key < 0 leaves out
// "lsp".
type itemFunc func(b []byte, v j.Value, e *Env, key, index int) []byte

// keptArray maps an answer array with each as prefix + [items] + "}",
// keeping the answer when the server resolves f's items.
func keptArray(prefix string, raw []byte, e *Env, f Feature, each itemFunc) (string, error) {
	key := -1
	if e.Providers.Resolves.Has(f) && e.Keep != nil && !nullish(raw) {
		key = e.Keep(raw)
	}
	i := -1
	b, err := mapArray(append(make([]byte, 0, 2*len(raw)), prefix...), raw, func(b []byte, v j.Value) []byte {
		i++
		return each(b, v, e, key, i)
	})
	if err != nil {
		return "", err
	}
	return string(append(b, '}')), nil
}

// appendRef appends ,"lsp":[key,index] unless key < 0.
func appendRef(b []byte, key, index int) []byte {
	if key < 0 {
		return b
	}
	b = appendInt(append(b, `,"lsp":[`...), int64(key))
	return append(appendInt(append(b, ','), int64(index)), ']')
}

// resolveStep is the step that resolves one kept item of f with method.
//
//go:noinline
func resolveStep(name string, f Feature, method string, each itemFunc) call {
	return call{name: name, f: f, run: func(r *Request, e *Env) (string, error) {
		if !e.Providers.Resolves.Has(f) {
			return "null", nil
		}
		item, _, ok := kept(r, e)
		if !ok {
			return "null", nil
		}
		raw, err := e.Call(method, item.Raw())
		if err != nil {
			return "", err
		}
		v, err := j.Parse(raw)
		if err != nil {
			return "", err
		}
		if b := each(nil, v, e, -1, 0); len(b) > 0 {
			return string(b), nil
		}
		return "null", nil
	}}
}

// kept returns element index of the kept result key (an array, or the
// "items" of a CompletionList) and the kept result itself.
func kept(r *Request, e *Env) (item, whole j.Value, ok bool) {
	k := r.v.Get("lsp")
	key, ok1 := k.Index(0).Int()
	index, ok2 := k.Index(1).Int()
	if !ok1 || !ok2 || e.Kept == nil {
		return item, whole, false
	}
	raw := e.Kept(int(key))
	whole, err := j.Parse(raw)
	if err != nil || raw == nil {
		return item, whole, false
	}
	list := whole
	if list.Kind() == j.Object {
		list = list.Get("items")
	}
	item = list.Index(int(index))
	return item, whole, item.Kind() == j.Object
}
