//go:build js && wasm

package jsbind

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// jsEval evaluates a JavaScript expression (Node has no WebSocket or Monaco,
// so tests build small fakes in JavaScript itself).
func jsEval(t testing.TB, expr string) jsValue {
	t.Helper()
	fn, err := jsGlobal().Get("Function")
	require.NoError(t, err)
	f, err := fn.New("return (" + expr + ");")
	require.NoError(t, err)
	v, err := f.Invoke()
	require.NoError(t, err)
	return v
}

// stringify is JSON.stringify(v).
func stringify(t testing.TB, v jsValue) string {
	t.Helper()
	j, err := jsGlobal().Get("JSON")
	require.NoError(t, err)
	s, err := j.Call("stringify", v)
	require.NoError(t, err)
	if s.Type() != jsTypeString {
		return "undefined"
	}
	str, err := s.String()
	require.NoError(t, err)
	return str
}

func get(t testing.TB, v jsValue, path ...string) jsValue {
	t.Helper()
	for _, p := range path {
		var err error
		v, err = v.Get(p)
		require.NoError(t, err)
	}
	return v
}

func length(t testing.TB, v jsValue) int {
	t.Helper()
	n, err := v.Length()
	require.NoError(t, err)
	return n
}

func index(t testing.TB, v jsValue, i int) jsValue {
	t.Helper()
	x, err := v.Index(i)
	require.NoError(t, err)
	return x
}

func str(t testing.TB, v jsValue) string {
	t.Helper()
	s, err := v.String()
	require.NoError(t, err)
	return s
}

// waitFor polls a condition that JavaScript events or goroutines make true.
// Sleeping yields to the JavaScript event loop, which the Go side needs.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func call(t testing.TB, v jsValue, method string, args ...any) jsValue {
	t.Helper()
	r, err := v.Call(method, args...)
	require.NoError(t, err)
	return r
}

func obj(t testing.TB, m map[string]any) jsValue {
	t.Helper()
	plain := make(map[string]any, len(m))
	for k, x := range m {
		if sv, ok := x.(jsValue); ok {
			x = jsUnsafe(sv) // js.ValueOf knows js.Value, not jsValue
		}
		plain[k] = x
	}
	v, err := jsValueOf(plain)
	require.NoError(t, err)
	return v
}

// fakeWebSocket is a WebSocket constructor recording every instance.
const fakeWebSocket = `(function () {
	function FakeWS(url) { this.url = url; this.sent = []; this.closedWith = null; FakeWS.all.push(this); }
	FakeWS.all = [];
	FakeWS.prototype.send = function (s) { if (typeof s !== 'string') throw new TypeError('text frames only'); this.sent.push(s); };
	FakeWS.prototype.close = function (code) { this.closedWith = code === undefined ? 1005 : code; };
	return FakeWS;
})()`

// fakeMonaco records setModelMarkers calls.
const fakeMonaco = `(function () {
	const calls = [];
	return { calls, editor: { setModelMarkers(model, owner, markers) { calls.push({ model, owner, markers }); } } };
})()`

// fakeModel is a Monaco ITextModel with the events the binding uses.
const fakeModel = `(function () {
	const m = {
		text: 'package main\n', reads: 0, disposed: 0, change: [], willDispose: [],
		getValue() { m.reads++; return m.text; },
		onDidChangeContent(fn) { m.change.push(fn); return { dispose() { m.disposed++; m.change = m.change.filter((f) => f !== fn); } }; },
		onWillDispose(fn) { m.willDispose.push(fn); return { dispose() { m.disposed++; m.willDispose = m.willDispose.filter((f) => f !== fn); } }; },
		edit(text) { m.text = text; for (const f of m.change) f({ changes: [] }); },
	};
	return m;
})()`

// fakeStorage is a Storage (localStorage) over a Map.
const fakeStorage = `(function () {
	const m = new Map();
	return {
		getItem(k) { return m.has(k) ? m.get(k) : null; },
		setItem(k, v) { m.set(k, String(v)); },
		removeItem(k) { m.delete(k); },
	};
})()`
