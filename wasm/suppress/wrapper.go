package suppress

//go:generate go run ../jsbind/jsembed.go wrapper.js wrapperSource wrapperjs.go

// GuardSymbol is the Symbol.for key that marks Kandev's own providers. A
// provider object carrying provider[Symbol.for(GuardSymbol)] === true is
// registered untouched, whatever the suppression state: the registration
// guard does not depend on suppression.
const GuardSymbol = "kandev.lsp.provider"

// WrapperJS (wrapper.js) is the JavaScript that wraps Monaco's
// register*Provider functions for the replaceable built-in features. It is
// one expression after comments, so it is evaluated inside parentheses (a
// comment after a bare return would end it); wrapper-types.d.ts types it
// for tsc (the typecheck task), and lsp.wasm holds wrapper.js alone, as
// wrapperjs.go's constant (go generate). The binding evaluates it once per
// Monaco namespace, as soon as it is handed Monaco (configure) — before
// Monaco's lazy TypeScript mode registers its providers on the first
// TypeScript/JavaScript model, and whether or not an LSP handshake already
// happened — and keeps the returned control object:
//
//	const ctl = new Function('return (' + WrapperJS + '\n)')()(monaco);
//	ctl.set(JSON.parse(state.Snapshot()));   // after every state change
//	ctl.mark(provider);                      // on each of our providers
//
// Installing twice on the same namespace returns the same control object;
// ctl.uninstall() (lsp.dispose()) puts Monaco's functions back. A wrapped
// built-in asks the control in force (a Map lookup, no Go crossing) on
// every call and answers empty — {suggestions: []}, null, [], no actions
// or no hints — for a suppressed (model, feature); null makes Monaco ask
// the next provider (the LSP one) where it takes the first answer; otherwise, and with no control installed,
// it calls the original provider. Only providers registered for the
// typescript or javascript languages are wrapped; ours, marked with the
// guard, never are.
//
// monaco.editor.setModelMarkers is wrapped too, for the TypeScript
// worker's diagnostics (markers owned by "typescript" or "javascript"):
// the worker sees the open model alone, so an import of another file of
// the task reads "Cannot find module". On a model owned by an active
// connection (ctl.owns(model)) they are dropped, the server's standing
// instead, and a model's are cleared when it becomes owned.
const WrapperJS = wrapperSource
