//go:build js && wasm

package jsbind

import (
	"sync"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/client"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/jsonlite"
)

// Files that change on the task host: the model side of a reload, the
// page's readFile awaited from Go, the onDiskChange events, and the
// onWorkspaceFiles events of every path the task host reports.

// VersionID implements client.DiskModel: model.getVersionId().
func (m *model) VersionID() int {
	v, err := m.v.Call("getVersionId")
	if err == nil {
		var n int
		if n, err = v.Int(); err == nil {
			return n
		}
	}
	consoleError("model.getVersionId: %v", err)
	return -1
}

// Replace implements client.DiskModel (see diskJS).
func (m *model) Replace(text string) int {
	v, err := diskJS().replace.Invoke(m.v, text)
	if err == nil {
		var n int
		if n, err = v.Int(); err == nil {
			return n
		}
	}
	consoleError("reload: %v", err)
	return -1
}

// diskHelpers are small JavaScript functions, made once: the reload edit,
// which works on JavaScript's own UTF-16 strings with the model's
// getPositionAt; the page's change object, built from plain values in one
// call; and the call of the page's readFile, settled into one callback.
// In JavaScript they cost lsp.wasm a fraction of their Go form.
type diskHelpers struct{ replace, event, read, list jsValue }

var (
	diskOnce sync.Once
	diskFns  diskHelpers
)

// diskJS returns the helpers (undefined ones if they could not be made:
// every call through them then reports an error).
//
//go:noinline
func diskJS() diskHelpers {
	diskOnce.Do(func() {
		diskFns = diskHelpers{jsUndefined(), jsUndefined(), jsUndefined(), jsUndefined()}
		fn, err := jsGlobal().Get("Function")
		if err != nil {
			return
		}
		if r, err := fn.New("m", "t", replaceJS); err == nil {
			diskFns.replace = r
		}
		if e, err := fn.New("s", "p", "m", "c", "r", "d", "v", eventJS); err == nil {
			diskFns.event = e
		}
		if r, err := fn.New("f", "s", "p", "done", readJS); err == nil {
			diskFns.read = r
		}
		if l, err := fn.New("f", listJS); err == nil {
			diskFns.list = l
		}
	})
	return diskFns
}

// replaceJS replaces model m's text with t by one edit of the range that
// differs, between undo stops: cursors and decorations outside it stay,
// the user can undo it, and the change listener sends it to the server.
// The range never splits a surrogate pair or a CRLF. It returns the new
// version id.
const replaceJS = `const o = m.getValue(), n = Math.min(o.length, t.length);
let p = 0, s = 0;
while (p < n && o.charCodeAt(p) === t.charCodeAt(p)) p++;
while (s < n - p && o.charCodeAt(o.length - 1 - s) === t.charCodeAt(t.length - 1 - s)) s++;
const cut = (x, i) => i > 0 && i < x.length && ((x.charCodeAt(i) & 0xfc00) === 0xdc00 || (x[i - 1] === '\r' && x[i] === '\n'));
while (p > 0 && (cut(o, p) || cut(t, p))) p--;
while (s > 0 && (cut(o, o.length - s) || cut(t, t.length - s))) s--;
if (p === o.length - s && p === t.length - s) return m.getVersionId();
const a = m.getPositionAt(p), b = m.getPositionAt(o.length - s);
m.pushStackElement();
m.pushEditOperations(null, [{ range: { startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column }, text: t.slice(p, t.length - s) }], () => null);
m.pushStackElement();
return m.getVersionId();`

// readJS calls the page's readFile f(s, p) and hands done its text, or
// null for anything else, a rejection or a throw.
const readJS = `Promise.resolve().then(() => f(s, p)).then((t) => done(typeof t === 'string' ? t : null), () => done(null));`

// listJS makes of the page's listFiles f(s) a reader of one text: the
// list's strings as a JSON array, or null for anything else.
const listJS = `return (s) => Promise.resolve().then(() => f(s)).then((l) => Array.isArray(l) ? JSON.stringify(l.filter((x) => typeof x === 'string')) : null);`

// eventJS builds the onDiskChange object (see wasm/API.md).
const eventJS = `return { sessionId: s, path: p, model: m, change: ['', 'created', 'changed', 'deleted'][c] || 'changed', reloaded: r, dirty: d, versionId: v };`

// emitDisk delivers one change on disk to every onDiskChange listener.
func (a *api) emitDisk(ch client.DiskChange) {
	v, err := diskJS().event.Invoke(ch.SessionID, ch.Path, ch.Model, ch.Type, ch.Reloaded, ch.Dirty, ch.Version)
	if err != nil {
		consoleError("disk change: %v", err)
		return
	}
	a.emitValue(&a.diskLs, v, "onDiskChange listener")
}

// workspaceFilesJSON is the onWorkspaceFiles event (see wasm/API.md).
func workspaceFilesJSON(sessionID string, changes []client.FileChange) string {
	b := jsonlite.AppendString([]byte(`{"sessionId":`), sessionID)
	b = append(b, `,"changes":[`...)
	for i, c := range changes {
		if i > 0 {
			b = append(b, ',')
		}
		kind := "changed"
		switch c.Type {
		case wire.FileCreated:
			kind = "created"
		case wire.FileDeleted:
			kind = "deleted"
		}
		b = jsonlite.AppendString(append(b, `{"path":`...), c.Path)
		b = append(jsonlite.AppendString(append(b, `,"change":`...), kind), '}')
	}
	return string(append(b, "]}"...))
}

// readFileFunc adapts the page's readFile(sessionId, path) → (a Promise
// of) string | null for the client; nil without one.
func readFileFunc(readFile jsValue) func(ctx ctxlite.Context, sessionID, path string) (string, bool) {
	if readFile.Type() != jsTypeFunction {
		return nil
	}
	return func(ctx ctxlite.Context, sessionID, path string) (string, bool) {
		return awaitText(ctx, readFile, sessionID, path)
	}
}

// listFilesFunc adapts the page's listFiles(sessionId) → (a Promise of)
// string[] for the client; nil without one.
func listFilesFunc(listFiles jsValue) func(ctx ctxlite.Context, sessionID string) ([]string, bool) {
	if listFiles.Type() != jsTypeFunction {
		return nil
	}
	return func(ctx ctxlite.Context, sessionID string) ([]string, bool) {
		reader, err := diskJS().list.Invoke(listFiles)
		if err != nil {
			consoleError("listFiles: %v", err)
			return nil, false
		}
		text, ok := awaitText(ctx, reader, sessionID, "")
		if !ok {
			return nil, false
		}
		v, err := jsonlite.Parse([]byte(text))
		if err != nil {
			return nil, false
		}
		out := make([]string, 0, v.Len())
		for _, e := range v.Elems() {
			if p, ok := e.Str(); ok {
				out = append(out, p)
			}
		}
		return out, true
	}
}

// awaitText calls readFile(sessionID, path) and waits for its answer, a
// string or a Promise of one. null, anything else, a rejection, a throw
// or ctx ending first is no text. The callback is released once the
// answer came (or ctx ended: an answer after that only logs "call to
// released function" in the console).
func awaitText(ctx ctxlite.Context, readFile jsValue, sessionID, path string) (string, bool) {
	ch := make(chan jsValue, 1)
	var fs funcSet
	defer fs.release()
	done, err := fs.add(func(_ jsValue, a []jsValue) any {
		if len(a) > 0 {
			select {
			case ch <- a[0]:
			default:
			}
		}
		return nil
	})
	if err == nil {
		_, err = diskJS().read.Invoke(readFile, sessionID, path, done)
	}
	if err != nil {
		consoleError("readFile: %v", err)
		return "", false
	}
	select {
	case v := <-ch:
		if v.Type() == jsTypeString {
			t, err := v.String()
			return t, err == nil
		}
	case <-ctx.Done():
	}
	return "", false
}
