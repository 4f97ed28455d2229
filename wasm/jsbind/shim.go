//go:build js && wasm

package jsbind

// Run by GOOS=js GOARCH=wasm go generate; the generator itself runs natively.
//go:generate env GOOS= GOARCH= go run jsembed.go shim.js shimSource shimjs.go "js && wasm"

// shimJS (shim.js) is one JavaScript expression, evaluated once per
// configure (evalExpr) and called with (monaco, call, navigate, guard,
// page, cancel, applied): it returns the helpers through which the binding
// talks to Monaco with one string per crossing. shim-types.d.ts types all
// of them for tsc (the typecheck task), which checks shim.js; lsp.wasm
// holds shim.js alone, as shimjs.go's constant (go generate).
//
//   - call(connID, name, json, resolve, reject, n) is the Go function of
//     every provider and step (features.Lookup names them): it answers later
//     by calling resolve(string) or reject(err); cancel(n) is Monaco's
//     cancellation of call n reaching Go, which tells the server.
//   - applied(n, json) reports the outcome of apply(plan, n), a workspace
//     edit the client asked the editor to run.
//   - page holds the page's callbacks: readFile, onEdit, createFile,
//     renameFile, deleteFile.
//   - navigate(json) → JSON string (client.Navigate) is the Go function of the
//     editor opener.
//   - guard marks our providers for the TypeScript built-in wrapper.
//   - page.readFile(sessionId, path) → Promise<string|null>, optional:
//     a definition or reference target in a file with no model gets a
//     placeholder model (so Monaco can preview it), owned by the connection
//     and disposed when the connection ends (end) unless the page opened it
//     since (claim).
//
// register(connID, lang, feature, optionsJSON) registers one feature's
// provider and returns its own disposable, so a registration change redoes
// only the features it changed: the others keep their place in Monaco's
// provider order, and no peek preview loses its placeholder model. The
// providers table has one entry per feature (features.OptionsJSON gives
// its options).
//
// Each provider packs Monaco's arguments into one JSON string, so a call
// costs two crossings whatever its size; the answer is JSON.parsed here,
// with the only post-processing JSON cannot carry: Uri objects for
// locations, a Uint32Array for semantic tokens, dispose on signature help,
// a RegExp for a linked editing word pattern.
// Go answers null for a model its connection does not serve, so Monaco
// asks the next provider.
const shimJS = shimSource

// evalExpr evaluates one embedded JavaScript expression (shim.js,
// suppress.WrapperJS) with new Function. The parentheses keep the return
// from ending at the file's leading comments, where a semicolon would be
// inserted after a bare return.
func evalExpr(src string) (jsValue, error) {
	fn, err := jsGlobal().Get("Function")
	if err != nil {
		return jsUndefined(), err
	}
	f, err := fn.New("return (" + src + "\n)")
	if err != nil {
		return jsUndefined(), err
	}
	return f.Invoke()
}
