package features

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
	"github.com/kandev/lsp/wasm/jsonrpc"
	"github.com/kandev/lsp/wasm/lsptypes"
)

// Rename: textDocument/prepareRename for Monaco's resolveRenameLocation and
// textDocument/rename for provideRenameEdits, across files.
//
// prepareRename request: {"uri","lineNumber","column"}; answer: Monaco's
// RenameLocation {"range","text"} ("text" null when the server gave only a
// range: the shim reads the model's text in it), null when the server
// leaves it to the word at the cursor, or {"range","text":"",
// "rejectReason"} carrying the server's error message.
//
// rename request: {"uri","lineNumber","column","newName"}. The server's
// WorkspaceEdit is applied by lsp.wasm (Env.Apply: every file, opened
// through the page's readFile when it has no model) and the answer is an
// empty Monaco WorkspaceEdit {"edits":[]} — with "rejectReason" when the
// server refused or the edit could not be applied — so Monaco, which
// cannot open files, applies nothing itself.

// rejection is {"range":<the position>,"text":"","rejectReason":reason}.
func rejection(r *Request, reason string) string {
	p, _ := r.position()
	b := append([]byte(nil), `{"range":`...)
	b = appendLSPRange(b, lsptypes.Range{Start: p, End: p})
	b = append(b, `,"text":"","rejectReason":`...)
	return string(append(appendString(b, reason), '}'))
}

// serverMessage is the server's error message, or "" for another failure.
func serverMessage(err error) string {
	if e, ok := errors.AsType[*jsonrpc.Error](err); ok && e.Code != jsonrpc.ErrRequestCancelled.Code {
		return e.Message
	}
	return ""
}

func prepareRename(r *Request, e *Env) (string, error) {
	if !e.Providers.RenamePrepare {
		return "null", nil // Monaco takes the word at the cursor
	}
	p, err := posParams(r, e)
	if err != nil {
		return "", err
	}
	raw, err := e.Call(lsptypes.MethodPrepareRename, p)
	if msg := serverMessage(err); msg != "" {
		return rejection(r, msg), nil
	}
	if err != nil || nullish(raw) {
		return "null", err
	}
	v, err := j.Parse(raw)
	if err != nil {
		return "", err
	}
	rng := v
	if v.Get("range").Exists() {
		rng = v.Get("range")
	} else if !v.Get("start").Exists() {
		return "null", nil // {defaultBehavior}: the word at the cursor
	}
	b, ok := appendRangeOf(append([]byte(nil), `{"range":`...), rng)
	if !ok {
		return "", errSyntax
	}
	b = append(b, `,"text":`...)
	if ph, ok := v.Get("placeholder").DecodeString(); ok && v.Get("placeholder").Exists() {
		b = appendString(b, ph)
	} else {
		b = append(b, "null"...)
	}
	return string(append(b, '}')), nil
}

func rename(r *Request, e *Env) (string, error) {
	name, _ := r.v.Get("newName").DecodeString()
	b, err := r.appendPosParams(nil, e)
	if err != nil {
		return "", err
	}
	b = append(appendString(append(b, `,"newName":`...), name), '}')
	raw, err := e.Call(lsptypes.MethodRename, j.Raw(b))
	if msg := serverMessage(err); msg != "" {
		return noEdits(msg), nil
	}
	if err != nil {
		return "", err
	}
	if nullish(raw) {
		return noEdits(""), nil
	}
	if ok, reason := e.Apply(raw); !ok {
		return noEdits(reason), nil
	}
	return noEdits(""), nil
}

// noEdits is an empty Monaco WorkspaceEdit, rejected with reason if any.
func noEdits(reason string) string {
	if reason == "" {
		return `{"edits":[]}`
	}
	return string(append(appendString([]byte(`{"edits":[],"rejectReason":`), reason), '}'))
}
