package client

import (
	"sync"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// Monaco asks every server's provider and shows all their answers: two
// servers of one file that know the same thing (two TypeScript servers, a
// linter whose fix a compiler also offers) would show it twice. Answers are
// made unique across the servers of a document here, per request: the
// items an answer shares with one another server already gave for the
// same request are dropped from it. Locations need nothing: Monaco's
// references model merges equal ranges itself.

// dedupLists names, per provider call, the answer's list of items and what
// makes two of them the same to a user.
var dedupLists = map[string]struct {
	member string
	key    func(v jsonlite.Value) string
}{
	"hover":      {"contents", func(v jsonlite.Value) string { return string(v.Raw()) }},
	"codeAction": {"actions", func(v jsonlite.Value) string { return v.Get("title").String() + "\x00" + v.Get("kind").String() }},
	"completion": {"suggestions", func(v jsonlite.Value) string {
		return string(v.Get("label").Raw()) + "\x00" + v.Get("insertText").String()
	}},
	"inlayHints": {"hints", func(v jsonlite.Value) string {
		return string(v.Get("position").Raw()) + "\x00" + string(v.Get("label").Raw())
	}},
}

// dedupKeep bounds the requests remembered: Monaco asks the servers of one
// request together, so only the latest few can still be answering.
const dedupKeep = 32

// answered is the items given so far for recent requests, by request.
type answered struct {
	mu    sync.Mutex
	order []string                          // request keys, oldest first
	items map[string]map[string]*connection // request → item key → the connection that gave it
}

// unique returns out without the items another connection already gave
// for the same request (the call's name and the binding's request text,
// which holds the model, its version and the position), and remembers the
// rest as c's.
func (a *answered) unique(c *connection, name, req, out string) string {
	list, ok := dedupLists[name]
	if !ok || out == "null" {
		return out
	}
	v, err := jsonlite.Parse([]byte(out))
	if err != nil || v.Get(list.member).Kind() != jsonlite.Array {
		return out
	}
	reqKey := name + "\x00" + req
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.items == nil {
		a.items = make(map[string]map[string]*connection)
	}
	seen := a.items[reqKey]
	if seen == nil {
		seen = make(map[string]*connection)
		a.items[reqKey] = seen
		a.order = append(a.order, reqKey)
		if len(a.order) > dedupKeep {
			delete(a.items, a.order[0])
			a.order = a.order[1:]
		}
	}
	var kept []jsonlite.Raw
	dropped := false
	for _, item := range v.Get(list.member).Elems() {
		k := list.key(item)
		if by, ok := seen[k]; ok && by != c {
			dropped = true
			continue
		}
		seen[k] = c
		kept = append(kept, item.Raw())
	}
	if !dropped {
		return out
	}
	if len(kept) == 0 && name == "hover" {
		return "null" // nothing of its own: no second, empty hover
	}
	// The answer again, its list without the dropped items; its other
	// members as they were.
	b := []byte{'{'}
	first := true
	for key, m := range v.Members() {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonlite.AppendString(b, key)
		b = append(b, ':')
		if key != list.member {
			b = append(b, m.Raw()...)
			continue
		}
		b = append(b, '[')
		for i, r := range kept {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, r...)
		}
		b = append(b, ']')
	}
	return string(append(b, '}'))
}
