//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The edits of one turn of the event loop reach an incremental server in
// one didChange at its end: none while the turn runs, and sent before the
// page's next task — no debounce timer stands between an edit and the
// server.
func TestEditsLeaveAtTheEndOfTheirTurn(t *testing.T) {
	p := newLSPPage(t)
	p.a.clock = nil // the binding's own clock
	p.configure()
	modelV, ws := p.open(`{"textDocumentSync":2}`)

	// Two edits in one task, as Monaco makes them: the frames sent during
	// the task, and by the next one (a setTimeout of 0).
	turn := jsEval(t, `(function (model, ws) {
		let v = 1;
		const fire = (col, text) => {
			const e = { versionId: ++v, isFlush: false, isEolChange: false, changes: [{
				range: { startLineNumber: 1, startColumn: col, endLineNumber: 1, endColumn: col }, rangeOffset: col - 1, rangeLength: 0, text }] };
			for (const f of model.change) f(e);
		};
		return () => {
			const before = ws.sent.length;
			fire(1, 'a');
			fire(2, 'b');
			const during = ws.sent.length - before;
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

	require.Equal(t, 0, mustInt(t, get(t, out, "during")), "a didChange left inside Monaco's listener")
	after := get(t, out, "after")
	require.Equal(t, 1, length(t, after), "the turn's edits did not leave before the next task: %s", stringify(t, after))
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/main.go","version":2},"contentChanges":[`+
		`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"a"},`+
		`{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"text":"b"}]}}`, str(t, index(t, after, 0)))
}
