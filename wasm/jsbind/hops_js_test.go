//go:build js && wasm

package jsbind

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A provider call's request leaves inside the call itself, and its answer
// settles Monaco's promise inside the socket's message event: no timer and
// no later task stands on either hop (the browser's single thread runs
// nothing else in between, so each would add to what the user waits for).
func TestProviderHopsStayInTheirTask(t *testing.T) {
	p, ws := hoverPage(t)

	run := jsEval(t, `(function (regs, ws) {
		const hover = regs.find((r) => r.kind === 'registerHoverProvider' && !r.disposed).provider;
		const model = { uri: { toString() { return 'kandev://demo/main.go'; } } };
		return () => {
			const before = ws.sent.length;
			let settled = null;
			const p = hover.provideHover(model, { lineNumber: 1, column: 2 }, { isCancellationRequested: false });
			p.then((v) => { settled = v; });
			const sent = ws.sent.slice(before);
			const id = sent.length ? JSON.parse(sent[0]).id : null;
			// The answer arrives in a task of its own, as a socket's message
			// does; Monaco has it once that task's microtasks have run, before
			// any timer could fire.
			return new Promise((resolve) => setTimeout(async () => {
				ws.onmessage({ data: JSON.stringify({ jsonrpc: '2.0', id, result: { contents: { kind: 'markdown', value: 'func main()' } } }) });
				for (let i = 0; i < 20 && settled === null; i++) await null;
				resolve({ sent, settled });
			}, 0));
		};
	})`)
	fn, err := run.Invoke(get(t, p.mon, "regs"), ws)
	require.NoError(t, err)
	promise, err := fn.Invoke()
	require.NoError(t, err)
	out := await(t, promise)

	sent := get(t, out, "sent")
	require.Equal(t, 1, length(t, sent), "the hover request did not leave inside the provider call: %s", stringify(t, sent))
	require.Contains(t, str(t, index(t, sent, 0)), `"method":"textDocument/hover"`)
	require.Contains(t, stringify(t, get(t, out, "settled")), "func main()", "the answer did not settle Monaco's promise within the message event's task")
}

// hoverPage is a configured page with main.go open on a server that
// answers hovers.
func hoverPage(t testing.TB) (*lspPage, jsValue) {
	p := newLSPPage(t)
	p.configure()
	modelV, ws := p.open(`{"textDocumentSync":2,"hoverProvider":true}`)
	_, err := jsEval(t, `(m) => { m.getVersionId = () => 1; }`).Invoke(modelV) // as Monaco's model has it
	require.NoError(t, err)
	waitFor(t, "hover provider", func() bool { return liveProviders(t, p.mon) == goModels(t) })
	return p, ws
}

// await waits for a JavaScript promise and returns its value.
func await(t testing.TB, promise jsValue) jsValue {
	t.Helper()
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
	return <-got
}

// BenchmarkProviderHops times a hover's two hops through the binding over
// the fake socket: the provider call until its request is sent, and the
// answer's message event until Monaco's promise has it (median µs per
// hop: the machine's other work shows in the mean).
func BenchmarkProviderHops(b *testing.B) {
	t := b // the page helpers take a testing.TB
	p, ws := hoverPage(t)
	run := jsEval(t, `(async function (regs, ws, n) {
		const hover = regs.find((r) => r.kind === 'registerHoverProvider' && !r.disposed).provider;
		const model = { uri: { toString() { return 'kandev://demo/main.go'; } } };
		const send = [], answer = [];
		for (let i = 0; i < n; i++) {
			const before = ws.sent.length;
			let settled = null;
			const t0 = performance.now();
			hover.provideHover(model, { lineNumber: 1, column: 2 }, { isCancellationRequested: false }).then((v) => { settled = v; });
			const t1 = performance.now();
			const id = JSON.parse(ws.sent[before]).id;
			const data = JSON.stringify({ jsonrpc: '2.0', id, result: { contents: { kind: 'markdown', value: 'func main()' } } });
			const t2 = performance.now();
			ws.onmessage({ data });
			while (settled === null) await null;
			answer.push(performance.now() - t2);
			send.push(t1 - t0);
		}
		const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1] * 1000;
		return { send: median(send), answer: median(answer) };
	})`)
	b.ResetTimer()
	promise, err := run.Invoke(get(t, p.mon, "regs"), ws, b.N)
	require.NoError(t, err)
	out := await(t, promise)
	b.StopTimer()
	send, err := get(t, out, "send").Float()
	require.NoError(t, err)
	answer, err := get(t, out, "answer").Float()
	require.NoError(t, err)
	b.ReportMetric(send, "µs-to-send")
	b.ReportMetric(answer, "µs-to-settled")
}
