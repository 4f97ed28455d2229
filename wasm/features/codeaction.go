package features

import (
	"errors"
	"slices"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
)

// Code actions: textDocument/codeAction for Monaco's light bulb, quick fix
// menu and source actions, and the step that runs a chosen one.
//
// Request: {"uri","range":IRange,"only"?:kind,"trigger":1|2}. The context's
// diagnostics are the server's own, raw (data kept), of those that overlap
// the range: servers recognise what they published. Monaco's trigger
// types (1 invoke, 2 auto) are LSP's CodeActionTriggerKind numbers.
//
// Answer: {"actions":[{"title","kind"?,"isPreferred"?,"isAI"?,"disabled"?,
// "diagnostics"?:IMarkerData[],"lsp":"<the LSP action as JSON>"}]}; isAI
// is LSP 3.18's LLMGenerated tag, which Monaco marks with a sparkle. The
// shim gives each action a command that hands "lsp" back to the
// "codeActionApply" step: the edit is applied by lsp.wasm's own workspace
// edit (not Monaco's, which cannot open files) and then the command runs.

func codeActionParams(r *Request, e *Env) (j.Appender, error) {
	rng, ok := r.monacoRange("range")
	if !ok {
		return nil, errRequest
	}
	b := append(appendDoc(nil, e.DocURI), `,"range":`...)
	b = rng.AppendJSON(b)
	b = append(b, `,"context":{"diagnostics":[`...)
	n := 0
	for _, d := range e.Diagnostics {
		if len(d.Raw) == 0 || before(d.Range.End, rng.Start) || before(rng.End, d.Range.Start) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, d.Raw...)
	}
	b = append(b, ']')
	if only, _ := r.v.Get("only").DecodeString(); only != "" {
		b = append(appendString(append(b, `,"only":[`...), only), ']')
	}
	if t, _ := r.v.Get("trigger").Uint(); t == 1 || t == 2 {
		b = appendUint(append(b, `,"triggerKind":`...), t)
	}
	return j.Raw(append(b, '}', '}')), nil
}

// before reports whether position a comes before b.
func before(a, b lsptypes.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

func codeActionResult(raw []byte, _ *Request, e *Env) (string, error) {
	b, err := mapArray(append(make([]byte, 0, len(raw)*2), `{"actions":`...), raw, func(b []byte, v j.Value) []byte {
		title, ok := v.Get("title").DecodeString()
		if !ok || title == "" || v.Kind() != j.Object {
			return b
		}
		b = appendString(append(b, `{"title":`...), title)
		if v.Get("command").Kind() != j.String { // a CodeAction, not a bare Command
			b = appendMember(b, v, "kind", "kind")
			b = appendMember(b, v, "isPreferred", "isPreferred")
			if hasTagValue(v.Get("tags"), codeActionTagLLMGenerated) {
				b = append(b, `,"isAI":true`...)
			}
			if reason, ok := v.Get("disabled").Get("reason").DecodeString(); ok && v.Get("disabled").Kind() == j.Object {
				b = appendString(appendKey(b, "disabled"), reason)
			}
			var ms []monaco.Marker
			for _, d := range v.Get("diagnostics").Elems() {
				if diag, ok := lsptypes.ParseDiagnostic(d); ok {
					ms = append(ms, monaco.FromDiagnostic(diag, e.MapURI))
				}
			}
			if len(ms) > 0 {
				b = append(appendKey(b, "diagnostics"), monaco.MarkersJSON(ms)...)
			}
		}
		b = appendString(appendKey(b, "lsp"), string(v.Raw()))
		return append(b, '}')
	})
	if err != nil {
		return "", err
	}
	return string(append(b, '}')), nil
}

// errNotApplied reports a code action whose edit was refused.
var errNotApplied = errors.New("the workspace edit was not applied")

// applyCodeAction runs a chosen action, {"uri","lsp":"<LSP CodeAction or
// Command>"}: an action without an edit is resolved first when the server
// resolves actions (codeAction/resolve), its edit is applied, then its
// command runs through workspace/executeCommand. Answers "true".
func applyCodeAction(r *Request, e *Env) (string, error) {
	s, _ := r.v.Get("lsp").DecodeString()
	v, err := j.Parse([]byte(s))
	if err != nil || v.Kind() != j.Object {
		return "", errRequest
	}
	if v.Get("command").Kind() == j.String {
		return "true", execute(e, v)
	}
	if edit := v.Get("edit"); (!edit.Exists() || edit.IsNull()) && e.Providers.CodeActionResolve {
		res, err := e.Call(lsptypes.MethodCodeActionResolve, v.Raw())
		if err != nil {
			return "", err
		}
		if rv, err := j.Parse(res); err == nil && rv.Kind() == j.Object {
			v = rv
		}
	}
	if edit := v.Get("edit"); edit.Kind() == j.Object {
		if ok, reason := e.Apply(edit.Raw()); !ok {
			return "", errors.Join(errNotApplied, errors.New(reason))
		}
	}
	if c := v.Get("command"); c.Kind() == j.Object {
		return "true", execute(e, c)
	}
	return "true", nil
}

// execute sends workspace/executeCommand for an LSP Command.
func execute(e *Env, c j.Value) error {
	name, ok := c.Get("command").DecodeString()
	if !ok || name == "" {
		return errRequest
	}
	b := appendString(append([]byte(nil), `{"command":`...), name)
	b = appendMember(b, c, "arguments", "arguments")
	_, err := e.Call(lsptypes.MethodExecuteCommand, j.Raw(append(b, '}')))
	return err
}

// codeActionTagLLMGenerated is LSP 3.18's CodeActionTag.LLMGenerated.
const codeActionTagLLMGenerated = 1

// hasTagValue reports whether the tags array holds tag.
func hasTagValue(tags j.Value, tag uint64) bool {
	for _, t := range tags.Elems() {
		if n, ok := t.Uint(); ok && n == tag {
			return true
		}
	}
	return false
}

// codeActionOptions is the code action provider's options:
// {"kinds":[...],"docs"?:[{"kind","title","lsp":"<LSP Command>"}]}. The
// shim makes each doc Monaco's documentation entry, shown under the menu
// of actions of that kind; choosing it runs the command on the server
// through the "codeActionApply" step.
func codeActionOptions(b []byte, p Providers) []byte {
	b = appendStrings(append(b, `{"kinds":`...), nonNil(p.CodeActionKinds))
	if len(p.CodeActionDocs) > 0 {
		b = append(b, `,"docs":[`...)
		for i, d := range p.CodeActionDocs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(append(b, `{"kind":`...), d.Kind)
			b = appendString(append(b, `,"title":`...), d.Title)
			b = appendString(append(b, `,"lsp":`...), string(d.Command))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// unionDocs adds the docs of b whose kind a does not document yet.
func unionDocs(a, b []CodeActionDoc) []CodeActionDoc {
	for _, d := range b {
		if !slices.ContainsFunc(a, func(x CodeActionDoc) bool { return x.Kind == d.Kind }) {
			a = append(a, d)
		}
	}
	return a
}

// sameDoc reports whether two docs are the same entry.
func sameDoc(a, b CodeActionDoc) bool {
	return a.Kind == b.Kind && a.Title == b.Title && string(a.Command) == string(b.Command)
}
