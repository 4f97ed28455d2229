//go:build js && wasm

package jsbind

import "github.com/kandev/lsp/wasm/ctxlite"

// exploreJS builds the page's hierarchy and workspace-symbol calls around
// one Go function, go(requestJSON, resolve, reject): each packs its
// arguments into one JSON request (hierarchy.ParseRequest) and parses the
// one JSON answer. A model may be given as the ITextModel or its URI.
const exploreJS = `const ask = (r) => new Promise((res, rej) => go(JSON.stringify(r), res, rej)).then(JSON.parse);
const uri = (m) => (typeof m === 'string' ? m : m && m.uri ? m.uri.toString() : '');
const at = (op) => (model, p) => ask({ op, model: uri(model), lineNumber: p.lineNumber, column: p.column });
const step = (op) => (item) => ask({ op, item: { conn: item.conn, lsp: item.lsp } });
return {
  workspaceSymbols: (model, query) => ask({ op: 'workspaceSymbols', model: uri(model), query: String(query == null ? '' : query) }),
  resolveWorkspaceSymbol: step('resolveWorkspaceSymbol'),
  callHierarchy: at('callHierarchy'),
  incomingCalls: step('incomingCalls'),
  outgoingCalls: step('outgoingCalls'),
  typeHierarchy: at('typeHierarchy'),
  supertypes: step('supertypes'),
  subtypes: step('subtypes'),
};`

// exploreNames are the members exploreJS returns, set on the API object.
var exploreNames = []string{"workspaceSymbols", "resolveWorkspaceSymbol", "callHierarchy", "incomingCalls", "outgoingCalls", "typeHierarchy", "supertypes", "subtypes"}

// addExplore sets the hierarchy and workspace-symbol calls on obj.
func (a *api) addExplore(obj jsValue) error {
	goFn, err := a.fns.add(a.explore)
	if err != nil {
		return err
	}
	return addCalls(obj, goFn, exploreJS, exploreNames)
}

// addCalls sets on obj the members names of what the JavaScript function
// body source, called with go bound to goFn, returns: the page's calls
// that pack their arguments into JSON for one Go function.
func addCalls(obj, goFn jsValue, source string, names []string) error {
	fn, err := jsGlobal().Get("Function")
	if err != nil {
		return err
	}
	mk, err := fn.New("go", source)
	if err != nil {
		return err
	}
	calls, err := mk.Invoke(goFn)
	if err != nil {
		return err
	}
	for _, name := range names {
		f, err := calls.Get(name)
		if err == nil {
			err = obj.Set(name, f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// explore is the Go side of those calls: (requestJSON, resolve, reject).
// It returns at once; the answer comes from a goroutine. Before configure
// every call answers the empty result.
func (a *api) explore(_ jsValue, args []jsValue) any {
	req, ok := stringArg(args, 0)
	if !ok || len(args) < 3 {
		return nil
	}
	resolve, reject := args[1], args[2]
	x := a.current()
	if x == nil {
		_, _ = resolve.Invoke("[]")
		return nil
	}
	go func() {
		out, err := x.Explore(ctxlite.Background(), req)
		if err != nil {
			_, _ = reject.Invoke(err.Error())
			return
		}
		_, _ = resolve.Invoke(out)
	}()
	return nil
}
