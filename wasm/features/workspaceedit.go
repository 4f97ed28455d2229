package features

import (
	"errors"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Workspace edits: the one implementation behind code actions, rename,
// formatting on save and the server's workspace/applyEdit. Planning is
// pure Go: the LSP WorkspaceEdit becomes a list of steps for the binding,
// after every check that can refuse it, so a refused edit changes nothing.
// The binding then runs the steps in order (see the shim's apply):
//
//	{"op":"edit","sessionId","path","model","edits":[{range,text}]}
//	    the edits of one TextDocumentEdit (or one file of "changes") on
//	    the model, as one undo stop; a model that does not exist is made
//	    from the page's readFile first and left dirty for the page's save.
//	    A snippet edit (LSP 3.18) carries "snippet" too: where an editor
//	    shows the model, the step's edits run as one snippet session there
//	    (tab stops to fill in); elsewhere the text is applied
//	{"op":"create"|"delete","sessionId","path","model","options"?}
//	{"op":"rename","sessionId","path","model","newPath","newModel","options"?}
//	    through the page's createFile / deleteFile / renameFile
//
// Nothing is written to disk by lsp.wasm itself.

// EditFile is what the planner needs to know of one file the edit names.
type EditFile struct {
	// Session, Path and Model name the file: its session, its
	// workspace-relative path and the model URI to edit (the model whose
	// text the server holds, when it is open).
	Session, Path, Model string
	// Open: the server has the document open, so a version in the edit is
	// checked with Current.
	Open    bool
	Current func(version int32) bool
}

// FileResolver maps a server URI to the file it names; false for a URI
// outside the session's workspace.
type FileResolver func(serverURI string) (EditFile, bool)

// FileOps are the resource operations the page supports: its createFile,
// renameFile and deleteFile callbacks.
type FileOps uint8

// The resource operations.
const (
	OpCreate FileOps = 1 << iota
	OpRename
	OpDelete
)

// ResourceOperations lists ops as the client capability
// workspace.workspaceEdit.resourceOperations names them.
func (ops FileOps) ResourceOperations() []string {
	out := []string{}
	for i, name := range [3]string{"create", "rename", "delete"} {
		if ops&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// Refusals, whose texts become applyEdit's failureReason and a rename's
// reject reason.
var (
	errStale     = errors.New("a file changed since the server computed the edit")
	errOutside   = errors.New("the edit names a file outside the workspace")
	errFileOp    = errors.New("the page does not support this file operation")
	errMalformed = errors.New("malformed workspace edit")
)

// PlanWorkspaceEdit turns an LSP WorkspaceEdit into the binding's steps, or
// refuses it whole: a versioned edit of an open document whose version is
// not the server's current one (the user typed since), a file outside the
// workspace, or a file operation the page does not support.
// documentChanges wins over changes, as LSP says for a client that
// supports both.
func PlanWorkspaceEdit(edit []byte, resolve FileResolver, ops FileOps) (string, error) {
	v, err := j.Parse(edit)
	if err != nil || v.Kind() != j.Object {
		return "", errMalformed
	}
	b := []byte{'['}
	step := func(op string, f EditFile) {
		b = j.Sep(b)
		b = appendString(append(b, `{"op":`...), op)
		b = appendString(append(b, `,"sessionId":`...), f.Session)
		b = appendString(append(b, `,"path":`...), f.Path)
		b = appendString(append(b, `,"model":`...), f.Model)
	}
	file := func(uri j.Value) (EditFile, error) {
		s, ok := uri.DecodeString()
		if !ok || s == "" {
			return EditFile{}, errMalformed
		}
		f, ok := resolve(s)
		if !ok {
			return EditFile{}, errOutside
		}
		return f, nil
	}
	edits := func(f EditFile, list j.Value) error {
		if list.Kind() != j.Array {
			return errMalformed
		}
		step("edit", f)
		var err error
		if b, err = appendEdits(append(b, `,"edits":`...), []byte(list.Raw())); err != nil {
			return err
		}
		b = append(b, '}')
		return nil
	}
	if dc := v.Get("documentChanges"); dc.Kind() == j.Array {
		for _, c := range dc.Elems() {
			if err := planChange(c, file, edits, step, &b, ops); err != nil {
				return "", err
			}
		}
	} else {
		var err error
		v.Get("changes").ForEach(func(uri string, list j.Value) bool {
			f, ferr := fileOf(resolve, uri)
			if err = ferr; err == nil {
				err = edits(f, list)
			}
			return err == nil
		})
		if err != nil {
			return "", err
		}
	}
	return string(append(b, ']')), nil
}

func fileOf(resolve FileResolver, uri string) (EditFile, error) {
	f, ok := resolve(uri)
	if !ok {
		return EditFile{}, errOutside
	}
	return f, nil
}

// planChange plans one entry of documentChanges: a TextDocumentEdit or a
// create, rename or delete operation.
func planChange(c j.Value, file func(j.Value) (EditFile, error), edits func(EditFile, j.Value) error, step func(string, EditFile), b *[]byte, ops FileOps) error {
	kind, _ := c.Get("kind").DecodeString()
	var need FileOps
	switch kind {
	case "":
		td := c.Get("textDocument")
		f, err := file(td.Get("uri"))
		if err != nil {
			return err
		}
		if ver := td.Get("version"); ver.Exists() && !ver.IsNull() && f.Open {
			n, ok := ver.Int()
			if !ok || f.Current == nil || !f.Current(int32(n)) {
				return errStale
			}
		}
		return edits(f, c.Get("edits"))
	case "create":
		need = OpCreate
	case "rename":
		need = OpRename
	case "delete":
		need = OpDelete
	default:
		return errMalformed
	}
	if ops&need == 0 {
		return errFileOp
	}
	uri := c.Get("uri")
	if kind == "rename" {
		uri = c.Get("oldUri")
	}
	f, err := file(uri)
	if err != nil {
		return err
	}
	step(kind, f)
	if kind == "rename" {
		to, err := file(c.Get("newUri"))
		if err != nil {
			return err
		}
		*b = appendString(append(*b, `,"newPath":`...), to.Path)
		*b = appendString(append(*b, `,"newModel":`...), to.Model)
	}
	*b = append(appendMember(*b, c, "options", "options"), '}')
	return nil
}
