//go:build js && wasm

package jsbind

import (
	"errors"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/clock/clocktest"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/kandev/lsp/wasm/transport"
	"github.com/stretchr/testify/require"
)

func TestSetMarkersCrossesOnce(t *testing.T) {
	mon := jsEval(t, fakeMonaco)
	modelV := jsEval(t, fakeModel)
	m := &model{v: modelV, editor: get(t, mon, "editor")}
	m.SetMarkers([]monaco.Marker{{StartLineNumber: 3, StartColumn: 6, EndLineNumber: 3, EndColumn: 10, Message: "undefined: x", Severity: monaco.SeverityError, Source: "compiler", Code: "UndeclaredName"}})
	calls := get(t, mon, "calls")
	require.Equal(t, 1, length(t, calls))
	c := index(t, calls, 0)
	require.True(t, get(t, c, "model").Equal(modelV))
	require.Equal(t, monaco.MarkerOwner, str(t, get(t, c, "owner")))
	require.JSONEq(t, `[{"startLineNumber":3,"startColumn":6,"endLineNumber":3,"endColumn":10,"message":"undefined: x","severity":8,"source":"compiler","code":"UndeclaredName"}]`,
		stringify(t, get(t, c, "markers")))

	m.SetMarkers([]monaco.Marker{})
	require.Equal(t, "[]", stringify(t, get(t, index(t, calls, 1), "markers")))
	require.Equal(t, "package main\n", m.Text())
}

func TestParseOptions(t *testing.T) {
	mon := jsEval(t, fakeMonaco)
	modelV := jsEval(t, fakeModel)

	c, err := parseConfigure([]jsValue{obj(t, map[string]any{"monaco": mon, "relayURL": "ws://h/lsp"})})
	require.NoError(t, err)
	require.Equal(t, "ws://h/lsp", c.relayURL)

	c, err = parseConfigure([]jsValue{obj(t, map[string]any{"monaco": mon, "relayURL": "ws://h/lsp", "locale": "de",
		"settings": obj(t, map[string]any{"lsp_auto_start_languages": []any{"go"}})})})
	require.NoError(t, err)
	require.Equal(t, "de", c.locale)
	require.JSONEq(t, `{"lsp_auto_start_languages":["go"]}`, string(c.settings))
	c, err = parseConfigure([]jsValue{obj(t, map[string]any{"monaco": mon, "relayURL": "ws://h/lsp", "settings": `{"a":1}`})})
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, string(c.settings))

	for name, args := range map[string][]jsValue{
		"bad settings":  {obj(t, map[string]any{"monaco": mon, "relayURL": "ws://h/lsp", "settings": 7})},
		"no args":       nil,
		"not an object": {jsNull()},
		"no monaco":     {obj(t, map[string]any{"relayURL": "ws://h/lsp"})},
		"no editor":     {obj(t, map[string]any{"monaco": obj(t, map[string]any{}), "relayURL": "ws://h/lsp"})},
		"url not str":   {obj(t, map[string]any{"monaco": mon, "relayURL": 7})},
		"empty url":     {obj(t, map[string]any{"monaco": mon, "relayURL": ""})},
	} {
		_, err := parseConfigure(args)
		require.Error(t, err, name)
	}

	o, err := parseOpen([]jsValue{obj(t, map[string]any{"sessionId": "demo", "path": "a b.go", "model": modelV})})
	require.NoError(t, err)
	require.Equal(t, openOptions{sessionID: "demo", path: "a b.go", model: modelV}, o)
	for name, m := range map[string]map[string]any{
		"no session": {"path": "a.go", "model": modelV},
		"no path":    {"sessionId": "s", "model": modelV},
		"no model":   {"sessionId": "s", "path": "a.go"},
		"bad model":  {"sessionId": "s", "path": "a.go", "model": obj(t, map[string]any{"getValue": 1})},
	} {
		_, err := parseOpen([]jsValue{obj(t, m)})
		require.Error(t, err, name)
	}
}

func TestWebSocketReleasesFuncsOnClose(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	before := liveFuncs.Load()

	type dialed struct {
		tr interface {
			Read(ctxlite.Context) ([]byte, error)
		}
		err error
	}
	res := make(chan dialed, 1)
	go func() {
		tr, err := dialWebSocket(ctxlite.Background(), ctor, "ws://h/lsp/s?language=go")
		res <- dialed{tr, err}
	}()
	waitFor(t, "new WebSocket", func() bool { return length(t, get(t, ctor, "all")) == 1 })
	ws := index(t, get(t, ctor, "all"), 0)
	require.Equal(t, "ws://h/lsp/s?language=go", str(t, get(t, ws, "url")))
	require.Equal(t, before+3, liveFuncs.Load())

	call(t, ws, "onopen", obj(t, map[string]any{}))
	d := <-res
	require.NoError(t, d.err)
	sock := d.tr.(*webSocket)

	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"status":"ready"}`}))
	frame, err := sock.Read(ctxlite.Background())
	require.NoError(t, err)
	require.Equal(t, `{"status":"ready"}`, string(frame))
	// A text frame crosses as its UTF-8 bytes (textFrames), whatever its
	// characters; a binary frame, no part of the protocol, is dropped.
	call(t, ws, "onmessage", obj(t, map[string]any{"data": jsEval(t, `new ArrayBuffer(3)`)}))
	call(t, ws, "onmessage", obj(t, map[string]any{"data": "{\"message\":\"undéfini: grüße \U0001F30D \\u00e9\"}"}))
	frame, err = sock.Read(ctxlite.Background())
	require.NoError(t, err)
	require.Equal(t, "{\"message\":\"undéfini: grüße \U0001F30D \\u00e9\"}", string(frame))
	// The frames share the socket's buffer: each is copied whole and
	// alone, whether it fits the room kept for ASCII, needs the worst
	// case's, comes after a longer one, or is too big for the buffer to
	// be kept.
	for _, text := range []string{
		strings.Repeat("é🌍x", 3000),
		"short",
		strings.Repeat("a", 100_000),
		"ä",
		strings.Repeat("b", 2_200_000),
		"{}",
	} {
		call(t, ws, "onmessage", obj(t, map[string]any{"data": text}))
		frame, err = sock.Read(ctxlite.Background())
		require.NoError(t, err)
		require.True(t, text == string(frame), "a frame of %d bytes crossed as %d bytes", len(text), len(frame))
	}

	require.NoError(t, sock.Write(ctxlite.Background(), []byte(`{"jsonrpc":"2.0"}`)))
	require.Equal(t, `["{\"jsonrpc\":\"2.0\"}"]`, stringify(t, get(t, ws, "sent")))

	call(t, ws, "onclose", obj(t, map[string]any{"code": 4006}))
	_, err = sock.Read(ctxlite.Background())
	var ce *transport.CloseError
	require.True(t, errors.As(err, &ce))
	require.Equal(t, 4006, ce.Code)
	waitFor(t, "funcs released", func() bool { return liveFuncs.Load() == before })
	require.True(t, get(t, ws, "onmessage").IsNull())
	require.Error(t, sock.Write(ctxlite.Background(), []byte("x")))
}

func TestDialFailsOnCloseAndOnCancel(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	before := liveFuncs.Load()

	errc := make(chan error, 1)
	go func() {
		_, err := dialWebSocket(ctxlite.Background(), ctor, "ws://h/a")
		errc <- err
	}()
	waitFor(t, "socket 1", func() bool { return length(t, get(t, ctor, "all")) == 1 })
	call(t, index(t, get(t, ctor, "all"), 0), "onclose", obj(t, map[string]any{"code": 4005}))
	err := <-errc
	var ce *transport.CloseError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, 4005, ce.Code)

	ctx, cancel := ctxlite.WithCancel(ctxlite.Background())
	go func() {
		_, err := dialWebSocket(ctx, ctor, "ws://h/b")
		errc <- err
	}()
	waitFor(t, "socket 2", func() bool { return length(t, get(t, ctor, "all")) == 2 })
	cancel()
	require.ErrorIs(t, <-errc, ctxlite.Canceled)
	ws := index(t, get(t, ctor, "all"), 1)
	require.Equal(t, "1005", stringify(t, get(t, ws, "closedWith")))
	call(t, ws, "onclose", obj(t, map[string]any{"code": 1006})) // the browser's answer
	waitFor(t, "funcs released", func() bool { return liveFuncs.Load() == before })
}

// The whole JavaScript API against fakes: the page's view of lsp.wasm.
func TestAPI(t *testing.T) {
	ctor := jsEval(t, fakeWebSocket)
	mon := jsEval(t, fakeMonaco)
	storage := jsEval(t, fakeStorage)
	a := newAPI("v-test", func() (jsValue, error) { return ctor, nil }, func() (jsValue, error) { return storage, nil })
	clock := &clocktest.Manual{}
	a.clock = clock
	lsp, err := a.object()
	require.NoError(t, err)
	require.Equal(t, "v-test", str(t, get(t, lsp, "version")))

	// Before configure, documents cannot open.
	modelV := jsEval(t, fakeModel)
	require.True(t, call(t, lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "main.go", "model": modelV})).IsNull())
	require.Equal(t, false, mustBool(t, call(t, lsp, "configure", obj(t, map[string]any{"relayURL": "ws://h/lsp"}))))
	require.Equal(t, true, mustBool(t, call(t, lsp, "configure", obj(t, map[string]any{
		"monaco": mon, "relayURL": "ws://h/lsp", "locale": "en",
		"settings": obj(t, map[string]any{"lsp_auto_start_languages": []any{"go"}}),
	}))))

	events := jsEval(t, `(function () { const f = function (e) { f.events.push(e); }; f.events = []; return f; })()`)
	off := call(t, lsp, "onStatus", events)
	require.Equal(t, jsTypeFunction, off.Type())
	require.True(t, call(t, lsp, "status", "demo", "go").IsNull())

	// No language for a README: null, nothing dialed.
	require.True(t, call(t, lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "notes.txt", "model": modelV})).IsNull())

	funcsBefore := liveFuncs.Load()
	doc := call(t, lsp, "openDocument", obj(t, map[string]any{"sessionId": "demo", "path": "cmd/a b.go", "model": modelV}))
	require.Equal(t, "cmd/a b.go", str(t, get(t, doc, "path")))
	require.Equal(t, "go", str(t, get(t, doc, "language")))
	require.Equal(t, 2, length(t, get(t, modelV, "change"))+length(t, get(t, modelV, "willDispose")))

	waitFor(t, "dial", func() bool { return length(t, get(t, ctor, "all")) == 1 })
	ws := index(t, get(t, ctor, "all"), 0)
	require.Equal(t, "ws://h/lsp/demo?language=go", str(t, get(t, ws, "url")))
	call(t, ws, "onopen", obj(t, map[string]any{}))
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"status":"ready","workspacePath":"/srv/t","workspaceUri":"file:///srv/t"}`}))

	sent := func() int { return length(t, get(t, ws, "sent")) }
	msg := func(i int) string { return str(t, index(t, get(t, ws, "sent"), i)) }
	waitFor(t, "initialize", func() bool { return sent() == 1 })
	require.Contains(t, msg(0), `"method":"initialize"`)
	require.Contains(t, msg(0), `"rootUri":"file:///srv/t"`)
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"textDocumentSync":1}}}`}))
	waitFor(t, "initialized + didOpen", func() bool { return sent() == 3 })
	require.Contains(t, msg(1), `"method":"initialized"`)
	require.Contains(t, msg(2), `"method":"textDocument/didOpen"`)
	require.Contains(t, msg(2), `"uri":"file:///srv/t/cmd/a%20b.go"`)
	require.Contains(t, msg(2), `"text":"package main\n"`)

	// Edits only mark dirty; one getValue per debounced change.
	reads := func() int { n, _ := get(t, modelV, "reads").Int(); return n }
	readsBefore := reads()
	call(t, modelV, "edit", "package main\n\nf")
	call(t, modelV, "edit", "package main\n\nfunc")
	require.Equal(t, readsBefore, reads())
	require.Equal(t, 4-1, sent())
	clock.Fire()
	waitFor(t, "didChange", func() bool { return sent() == 4 })
	require.Contains(t, msg(3), `"version":2`)
	require.Contains(t, msg(3), `"text":"package main\n\nfunc"`)
	require.Equal(t, readsBefore+1, reads())

	// Diagnostics become one setModelMarkers call with parsed markers.
	call(t, ws, "onmessage", obj(t, map[string]any{"data": `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///srv/t/cmd/a%20b.go","diagnostics":[{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":4}},"severity":2,"message":"w"}]}}`}))
	calls := get(t, mon, "calls")
	waitFor(t, "markers", func() bool { return length(t, calls) == 1 })
	require.JSONEq(t, `[{"startLineNumber":3,"startColumn":1,"endLineNumber":3,"endColumn":5,"message":"w","severity":4}]`, stringify(t, get(t, index(t, calls, 0), "markers")))

	// close(): didClose, markers cleared, listeners disposed, funcs released.
	call(t, doc, "close")
	require.Contains(t, msg(4), `"method":"textDocument/didClose"`)
	require.Equal(t, 2, length(t, calls))
	require.Equal(t, "[]", stringify(t, get(t, index(t, calls, 1), "markers")))
	require.Equal(t, 2, mustInt(t, get(t, modelV, "disposed")))
	call(t, doc, "close") // idempotent, reaches no released function
	require.Equal(t, 5, sent())
	// The document's three functions are gone; the socket's three remain.
	waitFor(t, "doc funcs released", func() bool { return liveFuncs.Load() == funcsBefore+3 })

	// The server exits: the view says so, with Retry, never transport prose.
	call(t, ws, "onclose", obj(t, map[string]any{"code": 4006}))
	evs := get(t, events, "events")
	last := func() jsValue { return index(t, evs, length(t, evs)-1) }
	waitFor(t, "error event", func() bool {
		return length(t, evs) > 0 && str(t, get(t, last(), "state")) == "error"
	})
	require.Equal(t, "The language server exited.", str(t, get(t, last(), "summary")))
	require.Equal(t, "retry", str(t, get(t, last(), "action")))
	require.Equal(t, 4006, mustInt(t, get(t, last(), "closeCode")))
	require.True(t, get(t, last(), "progress").IsNull())
	require.Equal(t, "error", str(t, get(t, call(t, lsp, "status", "demo", "go"), "state")))
	require.Equal(t, "error", str(t, get(t, call(t, lsp, "view", "demo", "go"), "state")))
	waitFor(t, "socket funcs released", func() bool { return liveFuncs.Load() == funcsBefore })

	// Retry dials a new connection; Stop is remembered only in memory,
	// Start in localStorage.
	require.True(t, mustBool(t, call(t, lsp, "retry", "demo", "go")))
	waitFor(t, "redial", func() bool { return length(t, get(t, ctor, "all")) == 2 })
	ws2 := index(t, get(t, ctor, "all"), 1)
	require.True(t, mustBool(t, call(t, lsp, "stop", "demo", "go")))
	call(t, ws2, "onclose", obj(t, map[string]any{"code": 1006}))
	waitFor(t, "off", func() bool { return str(t, get(t, last(), "state")) == "off" })
	require.Equal(t, "start", str(t, get(t, last(), "action")))
	require.True(t, call(t, storage, "getItem", "kandev.lsp.manual.demo.go").IsNull())
	require.True(t, mustBool(t, call(t, lsp, "start", "demo", "go")))
	require.Equal(t, "1", str(t, call(t, storage, "getItem", "kandev.lsp.manual.demo.go")))
	waitFor(t, "dial after start", func() bool { return length(t, get(t, ctor, "all")) == 3 })
	require.False(t, mustBool(t, call(t, lsp, "start", "demo", "cobol")))

	// Locale and settings.
	require.Equal(t, "de", str(t, call(t, lsp, "setLocale", "de-DE")))
	require.Equal(t, "Verbinden …", str(t, get(t, call(t, lsp, "view", "demo", "go"), "summary")))
	require.True(t, mustBool(t, call(t, lsp, "setSettings", obj(t, map[string]any{"lsp_auto_start_languages": []any{"go"}}))))
	require.True(t, mustBool(t, call(t, lsp, "setSettings", `{"lsp_server_configs":{"go":{"gopls":{}}}}`)))
	require.False(t, mustBool(t, call(t, lsp, "setSettings", `{`)))
	require.True(t, call(t, lsp, "view", "demo", "cobol").IsNull())
	require.Equal(t, "off", str(t, get(t, call(t, lsp, "view", "other", "rust"), "state")))
	require.True(t, call(t, lsp, "status", "other", "rust").IsNull())

	_, err = off.Invoke()
	require.NoError(t, err)
	require.Empty(t, a.listeners)
}

// localStorage through the binding: absent storage remembers nothing.
func TestLocalStore(t *testing.T) {
	require.Nil(t, newLocalStore(jsUndefined()))
	st := newLocalStore(jsEval(t, fakeStorage))
	require.NotNil(t, st)
	_, ok := st.Get("k")
	require.False(t, ok)
	st.Set("k", "1")
	v, ok := st.Get("k")
	require.True(t, ok)
	require.Equal(t, "1", v)
	st.Remove("k")
	_, ok = st.Get("k")
	require.False(t, ok)
	throwing := newLocalStore(jsEval(t, `({ getItem() { throw new Error('denied'); }, setItem() { throw new Error('quota'); }, removeItem() {} })`))
	_, ok = throwing.Get("k")
	require.False(t, ok)
	throwing.Set("k", "1") // logged, not thrown
}

func mustBool(t testing.TB, v jsValue) bool {
	t.Helper()
	b, err := v.Bool()
	require.NoError(t, err)
	return b
}

func mustInt(t testing.TB, v jsValue) int {
	t.Helper()
	n, err := v.Int()
	require.NoError(t, err)
	return n
}
