//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The first edit of a turn of the event loop reaches an incremental server
// inside Monaco's listener, before the completion request Monaco makes in
// the same task; the turn's later edits leave together in one more
// didChange at its end, before the page's next task — no debounce timer
// stands between an edit and the server.
func TestFirstEditLeavesInItsListenerTheRestAtTheEndOfTheTurn(t *testing.T) {
	p := newLSPPage(t)
	p.a.clock = nil // the binding's own clock
	p.configure()
	modelV, ws := p.open(`{"textDocumentSync":2}`)

	// Three edits in one task, as Monaco makes them: the frames sent by
	// the time each listener call returned, and by the next task (a
	// setTimeout of 0).
	turn := jsEval(t, `(function (model, ws) {
		let v = 1;
		const fire = (col, text) => {
			const e = { versionId: ++v, isFlush: false, isEolChange: false, changes: [{
				range: { startLineNumber: 1, startColumn: col, endLineNumber: 1, endColumn: col }, rangeOffset: col - 1, rangeLength: 0, text }] };
			for (const f of model.change) f(e);
			return ws.sent.length - before;
		};
		let before = 0;
		return () => {
			before = ws.sent.length;
			const during = [fire(1, 'a'), fire(2, 'b'), fire(3, 'c')];
			return new Promise((resolve) => setTimeout(() => resolve({ during, after: ws.sent.slice(before) }), 0));
		};
	})`)
	run, err := turn.Invoke(modelV, ws)
	require.NoError(t, err)
	promise, err := run.Invoke()
	require.NoError(t, err)
	got := make(chan jsValue, 1)
	var fns funcSet
	defer fns.release()
	then, err := fns.add(func(_ jsValue, args []jsValue) any {
		got <- args[0]
		return nil
	})
	require.NoError(t, err)
	_, err = promise.Call("then", then)
	require.NoError(t, err)
	out := <-got

	during := get(t, out, "during")
	require.Equal(t, "[1,1,1]", stringify(t, during),
		"frames on the wire after each listener call: the first edit's didChange inside its listener, nothing more during the turn")
	after := get(t, out, "after")
	require.Equal(t, 2, length(t, after), "the turn's edits did not leave in two didChanges before the next task: %s", stringify(t, after))
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/main.go","version":2},"contentChanges":[`+
		`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"a"}]}}`, str(t, index(t, after, 0)))
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/main.go","version":3},"contentChanges":[`+
		`{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"text":"b"},`+
		`{"range":{"start":{"line":0,"character":2},"end":{"line":0,"character":2}},"text":"c"}]}}`, str(t, index(t, after, 1)))
}
