//go:build js && wasm

package jsbind

import "github.com/kandev/lsp/wasm/ctxlite"

// fileOpsJS builds the page's file-operation calls around one Go
// function, go(requestJSON, will, resolve, reject): each packs a session
// and its files into one JSON request (fileops.ParseRequest). A created
// or deleted file may be given as its path alone.
const fileOpsJS = `const files = (kind, list) => (Array.isArray(list) ? list : []).map((f) => {
  if (typeof f === 'string') return { path: f };
  const p = kind === 'rename' ? f.oldPath : f.path;
  const o = { path: p == null ? '' : String(p), folder: !!f.folder };
  if (kind === 'rename') o.newPath = f.newPath == null ? '' : String(f.newPath);
  return o;
});
const op = (kind, will) => (sessionId, list) => new Promise((res, rej) =>
  go(JSON.stringify({ sessionId: String(sessionId), kind, files: files(kind, list) }), will, res, rej)).then((r) => (will ? JSON.parse(r) : undefined));
return {
  willCreateFiles: op('create', true), didCreateFiles: op('create', false),
  willRenameFiles: op('rename', true), didRenameFiles: op('rename', false),
  willDeleteFiles: op('delete', true), didDeleteFiles: op('delete', false),
};`

// fileOpsNames are the members fileOpsJS returns, set on the API object.
var fileOpsNames = []string{"willCreateFiles", "didCreateFiles", "willRenameFiles", "didRenameFiles", "willDeleteFiles", "didDeleteFiles"}

// addFileOps sets the file-operation calls on obj.
func (a *api) addFileOps(obj jsValue) error {
	goFn, err := a.fns.add(a.fileOps)
	if err != nil {
		return err
	}
	return addCalls(obj, goFn, fileOpsJS, fileOpsNames)
}

// noFileOps is the will* answer before configure: no server, no edit.
const noFileOps = `{"applied":0,"failed":[]}`

// fileOps is the Go side of those calls: (requestJSON, will, resolve,
// reject). It returns at once and answers from a goroutine: a will*
// once the servers' edits were applied, a did* once the notifications
// are on their way.
func (a *api) fileOps(_ jsValue, args []jsValue) any {
	req, ok := stringArg(args, 0)
	if !ok || len(args) < 4 {
		return nil
	}
	will, _ := args[1].Bool()
	resolve, reject := args[2], args[3]
	x := a.current()
	if x == nil {
		_, _ = resolve.Invoke(noFileOps)
		return nil
	}
	go func() {
		out, err := "", error(nil)
		if will {
			out, err = x.WillChangeFiles(ctxlite.Background(), req)
		} else {
			err = x.DidChangeFiles(req)
		}
		if err != nil {
			_, _ = reject.Invoke(err.Error())
			return
		}
		_, _ = resolve.Invoke(out)
	}()
	return nil
}
