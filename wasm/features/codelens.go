package features

import (
	"errors"
	"slices"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Code lenses: textDocument/codeLens for the commands Monaco shows above
// lines, codeLens/resolve for lenses that come without a command when the
// server resolves them (the "codeLensResolve" step, see kept.go), and
// workspace/codeLens/refresh (the client's Editor.Refresh fires the
// provider's onDidChange).
//
// Answer: {"lenses":[{"range","command"?:{"id","title"},...}]}. A lens's
// command is one of:
//
//   - a command the server runs (one it lists in executeCommandProvider):
//     id "kandev.lsp.codeLens" with "run", the LSP command as JSON; the
//     shim makes the arguments [connection, model, run] of the one Monaco
//     command it registers, which hands "run" back to the "codeLensRun"
//     step: workspace/executeCommand;
//   - a command of the client that servers send in VS Code's convention,
//     editor.action.showReferences or editor.action.goToLocations with
//     arguments (uri, position, locations, ...): Monaco's own command of
//     that name. "refs" holds the locations as Monaco's, with model URIs,
//     and "args" the LSP arguments; the shim makes them Monaco's arguments:
//     the lens's model (the document a lens's references start from), the
//     position, the locations as Uris, and the arguments after them;
//   - any other: shown, not run (id "", which Monaco draws as plain text),
//     with "unknown" its name for the shim's one warning.
//
// A lens without a command gets "lsp" for the resolve step.

// lensCommand is the Monaco command the shim registers for lenses the
// server runs.
const lensCommand = "kandev.lsp.codeLens"

func codeLensResult(raw []byte, _ *Request, e *Env) (string, error) {
	return keptArray(`{"lenses":`, raw, e, CodeLens, appendLens)
}

// appendLens appends one lens (an itemFunc).
func appendLens(b []byte, v j.Value, e *Env, key, index int) []byte {
	b, ok := appendRangeOf(append(b, `{"range":`...), v.Get("range"))
	if !ok || v.Kind() != j.Object {
		return b[:0]
	}
	c := v.Get("command")
	title, ok := c.Get("title").Str()
	if !ok {
		return append(appendRef(b, key, index), '}')
	}
	name, _ := c.Get("command").Str()
	id := ""
	switch args := c.Get("arguments"); {
	case name == "editor.action.showReferences" || name == "editor.action.goToLocations":
		refs, err := LocationsResult(args.Index(2).Raw(), e.MapURI)
		if err == nil && args.Index(1).Kind() == j.Object && args.Index(2).Kind() == j.Array {
			id = name
			b = append(append(append(append(b, `,"refs":`...), refs...), `,"args":`...), args.Raw()...)
		}
	case slices.Contains(e.Providers.Commands, name):
		id = lensCommand
		b = appendString(appendKey(b, "run"), string(c.Raw()))
	}
	b = appendString(append(appendString(append(b, `,"command":{"id":`...), id), `,"title":`...), title)
	if id == "" && name != "" {
		b = appendString(append(b, `},"unknown":`...), name)
		return append(b, '}')
	}
	return append(b, '}', '}')
}

// errNotServerCommand reports a command the server does not run.
var errNotServerCommand = errors.New("the server does not run this command")

// runServerCommand runs a lens's or an accepted inline completion's
// command, {"uri","lsp":"<LSP Command>"}, on the server through
// workspace/executeCommand: only a command the server lists. Answers
// "true".
func runServerCommand(r *Request, e *Env) (string, error) {
	s, _ := r.v.Get("lsp").DecodeString()
	v, _ := j.Parse([]byte(s))
	if name, ok := v.Get("command").Str(); !ok || !slices.Contains(e.Providers.Commands, name) {
		return "", errNotServerCommand
	}
	return "true", execute(e, v)
}
