//go:build js && wasm

package jsbind

// StartErrorName is the property of globalThis where lsp.wasm leaves why
// it could not start (Install failed); the ES module's loader puts it in
// its start error.
const StartErrorName = "kandevLSPStartError"

// StartFailed reports that Install failed: on the console, and as
// globalThis.kandevLSPStartError. lsp.wasm evaluates small JavaScript
// helpers with Function, so a page whose Content Security Policy refuses
// that (no 'unsafe-eval' in script-src) is told which directive it lacks.
func StartFailed(err error) {
	msg := "lsp.wasm could not start: " + err.Error()
	if jsErrorName(err) == "EvalError" {
		msg += " (the page's Content Security Policy must allow 'unsafe-eval' in script-src: lsp.wasm evaluates its JavaScript helpers with Function)"
	}
	consoleError("%s", msg)
	_ = jsGlobal().Set(StartErrorName, msg)
}
