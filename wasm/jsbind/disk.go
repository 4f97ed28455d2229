//go:build js && wasm

package jsbind

import (
	"context"

	j "github.com/kandev/lsp/wasm/jsonlite"
)

// Files that change on the task host: the model side of a reload and the
// page's readFile awaited from Go.

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

// Replace implements client.DiskModel: one pushEditOperations between two
// undo stops, so the reload is one step the user can undo, and cursors
// outside the range stay where they are. The edit array crosses as one
// JSON string.
func (m *model) Replace(sl, sc, el, ec int, text string) int {
	b := append(make([]byte, 0, 128+len(text)), `[{"range":{"startLineNumber":`...)
	b = j.AppendInt(b, int64(sl))
	b = j.AppendInt(append(b, `,"startColumn":`...), int64(sc))
	b = j.AppendInt(append(b, `,"endLineNumber":`...), int64(el))
	b = j.AppendInt(append(b, `,"endColumn":`...), int64(ec))
	b = j.AppendString(append(b, `},"text":`...), text)
	edits, err := parseJSON(string(append(b, "}]"...)))
	if err == nil {
		_, _ = m.v.Call("pushStackElement")
		_, err = m.v.Call("pushEditOperations", nil, edits, nil)
		_, _ = m.v.Call("pushStackElement")
	}
	if err != nil {
		consoleError("reload: %v", err)
	}
	return m.VersionID()
}

// readFileFunc adapts the page's readFile(sessionId, path) → (a Promise
// of) string | null for the client; nil without one.
func readFileFunc(readFile jsValue) func(ctx context.Context, sessionID, path string) (string, bool) {
	if readFile.Type() != jsTypeFunction {
		return nil
	}
	return func(ctx context.Context, sessionID, path string) (string, bool) {
		return awaitText(ctx, readFile, sessionID, path)
	}
}

// awaitText calls fn(args...) and waits for its answer, a string or a
// Promise of one. null, anything else, a rejection, a throw or ctx ending
// first is no text. The two callbacks are released once the answer came
// (or ctx ended: an answer after that only logs "call to released
// function" in the console).
func awaitText(ctx context.Context, fn jsValue, args ...any) (string, bool) {
	type answer struct {
		text string
		ok   bool
	}
	ch := make(chan answer, 1)
	settle := func(ok bool) func(jsValue, []jsValue) any {
		return func(_ jsValue, a []jsValue) any {
			var ans answer
			if ok && len(a) > 0 && a[0].Type() == jsTypeString {
				ans.text, _ = a[0].String()
				ans.ok = true
			}
			select {
			case ch <- ans:
			default:
			}
			return nil
		}
	}
	var fs funcSet
	defer fs.release()
	resolve, err := fs.add(settle(true))
	var reject, promise, p jsValue
	if err == nil {
		reject, err = fs.add(settle(false))
	}
	if err == nil {
		promise, err = jsGlobal().Get("Promise")
	}
	if err == nil {
		p, err = fn.Invoke(args...)
	}
	if err == nil {
		p, err = promise.Call("resolve", p)
	}
	if err == nil {
		_, err = p.Call("then", resolve, reject)
	}
	if err != nil {
		consoleError("readFile: %v", err)
		return "", false
	}
	select {
	case a := <-ch:
		return a.text, a.ok
	case <-ctx.Done():
		return "", false
	}
}
