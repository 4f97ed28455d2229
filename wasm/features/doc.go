// Package features maps the wired LSP editor features to Monaco and back:
// which providers a server's capabilities (static and dynamically
// registered) allow, the request params built from Monaco's provider
// arguments, and each result rendered as one JSON string in exactly the
// shape Monaco's provider API expects.
//
// It is pure Go (no syscall/js) so it is tested natively. Crossing between
// JavaScript and Go costs about 13 µs, so each provider call crosses twice:
// the binding's JS shim stringifies Monaco's arguments into one request
// JSON (CompletionRequest, PositionRequest, SignatureHelpRequest), and the
// answer comes back as one string the shim JSON.parses. The only
// post-processing left to the shim is what JSON cannot carry: Uri objects
// for locations (monaco.Uri.parse), a Uint32Array for semantic tokens and a
// dispose method on signature help.
//
// # How the binding uses it
//
// After initialize: reg := NewRegistry(result.capabilities); on
// client/registerCapability and client/unregisterCapability call
// reg.Register / reg.Unregister, then p := reg.For(languageID) and redo the
// Monaco registrations of Changed(old, p). ProvidersJSON(p) lists, in one
// string, the providers to register and their options; a feature absent
// from it is never registered, and p.Allows(f) guards every request.
//
// Per request (uri is the model URI; the binding maps it to the server's
// clean file:// URI with navigate.Workspace.ModelToServer):
//
//	completion      ParseCompletionRequest → req.Params(docURI) → textDocument/completion → CompletionResult(result, req)
//	hover           ParsePositionRequest   → req.PositionParams   → textDocument/hover      → HoverResult
//	definition      ParsePositionRequest   → req.PositionParams   → textDocument/definition → LocationsResult(result, ws.ServerToModel)
//	references      ParsePositionRequest   → req.ReferenceParams  → textDocument/references → LocationsResult(result, ws.ServerToModel)
//	signature help  ParseSignatureHelpRequest → req.Params        → textDocument/signatureHelp → SignatureHelpResult
//	semantic tokens ParsePositionRequest   → req.SemanticTokensParams → textDocument/semanticTokens/full → SemanticTokensResult
//	diagnostics     publishDiagnostics params → DiagnosticsResult → setModelMarkers(model, MarkerOwner(session, language), markers)
//
// The other features are calls by name (Lookup, Call.Run), each mapped in
// a file of its own: code actions (codeaction.go), rename, formatting,
// document symbols, folding, highlights, inlay hints, code lenses
// (codelens.go: textDocument/codeLens, codeLens/resolve, running a lens's
// command), document links (links.go), document colors (colors.go),
// linked editing ranges (linked.go), selection ranges (selection.go),
// semantic tokens' delta and range requests (semantic.go), and inline
// completions (inline.go, LSP 3.18).
//
// A server request workspace/semanticTokens/refresh, workspace/inlayHint/refresh,
// workspace/codeLens/refresh or workspace/foldingRange/refresh (3.18) is
// answered with null and fires the
// onDidChange emitter of that connection's providers of the feature, so
// Monaco fetches again; an empty token answer is a completed {"data":[]}
// and never null, so Monaco does not retry in a loop.
//
// Rules this package owns:
//   - A feature outside Providers.Set is never registered with Monaco and
//     its request is never sent (Providers.Allows).
//   - Completion trigger kinds: Monaco 0/1/2 → LSP 1/2/3, the trigger
//     character only with 2; isIncomplete is kept as Monaco's incomplete.
//   - Every LSP CompletionItemKind 1..25 has its Monaco kind.
//   - An item without textEdit gets the word at the request position; an
//     explicit TextEdit or InsertReplaceEdit range wins.
//   - An empty or null semantic-token answer is a completed empty result;
//     a delta is asked for only when the server advertises full.delta.
//   - A code lens runs on the server only with a command the server lists
//     in executeCommandProvider; VS Code's client commands
//     editor.action.showReferences and editor.action.goToLocations are
//     Monaco's own; any other is shown and not run.
package features
