//go:build js && wasm

package jsbind

import (
	"strconv"
	"testing"
	"time"

	"github.com/kandev/lsp/wasm/clock"
	"github.com/kandev/lsp/wasm/ctxlite"
	"github.com/kandev/lsp/wasm/features"
	"github.com/kandev/lsp/wasm/lsptypes"
	"github.com/kandev/lsp/wasm/monaco"
	"github.com/stretchr/testify/require"
)

// fakeEditingMonaco is a Monaco namespace for the editing features: every
// provider registration the shim makes, commands, and text models that
// apply edits, count undo stops and can be made and disposed. Uri.parse
// reads kandev://session/path like Monaco.
const fakeEditingMonaco = `(function () {
	const regs = [], commands = {}, markerCalls = [], models = new Map();
	const parse = (s) => { const u = new URL(s); return { scheme: u.protocol.slice(0, -1), authority: u.host, path: u.pathname, toString() { return s; } }; };
	const offset = (m, line, col) => { const ls = m.text.split('\n'); let o = 0; for (let i = 0; i < line - 1; i++) o += ls[i].length + 1; return o + col - 1; };
	const createModel = (text, lang, uri) => {
		const m = { uri, text, version: 1, stops: 0, editCalls: 0, disposed: false,
			getValue() { return m.text; }, getVersionId() { return m.version; }, getOptions() { return { tabSize: 2, insertSpaces: true }; },
			pushStackElement() { m.stops++; },
			pushEditOperations(sel, edits) {
				const spans = edits.map((e) => [offset(m, e.range.startLineNumber, e.range.startColumn), offset(m, e.range.endLineNumber, e.range.endColumn), e.text]);
				for (const [s, e, t] of spans.sort((a, b) => b[0] - a[0])) m.text = m.text.slice(0, s) + t + m.text.slice(e);
				m.version++; m.editCalls++;
			},
			isDisposed() { return m.disposed; }, dispose() { m.disposed = true; models.delete(uri.toString()); },
		};
		models.set(uri.toString(), m);
		return m;
	};
	const languages = { FoldingRangeKind: function (v) { this.value = v; } };
	for (const k of ['registerCodeActionProvider', 'registerRenameProvider', 'registerDocumentFormattingEditProvider',
		'registerHoverProvider', 'registerInlayHintsProvider', 'registerInlineCompletionsProvider']) {
		languages[k] = (lang, provider, meta) => { const r = { kind: k, lang, provider, meta, disposed: false }; regs.push(r); return { dispose() { r.disposed = true; } }; };
	}
	return {
		regs, commands, markerCalls, models, out: {}, languages, Uri: { parse },
		editor: {
			getModel(u) { return models.get(u.toString()) || null; },
			createModel,
			setModelMarkers(model, owner, markers) { markerCalls.push({ model, owner, markers }); },
			registerCommand(id, fn) { commands[id] = fn; return { dispose() { delete commands[id]; } }; },
			registerEditorOpener() { return { dispose() {} }; },
			shown: [],
			getEditors() { return this.shown; },
			__show(ed, model) { ed.getModel = () => model; this.shown.push(ed); },
		},
		Range: { lift(r) { return r; } },
	};
})()`

// fakeHeldCall records every call (with its number) and answers only when
// the test says so: held.answer(i, json).
const fakeHeldCall = `(function () {
	const calls = [];
	const f = function (id, name, json, resolve, reject, n) { calls.push({ id, name, json, resolve, reject, n }); };
	f.calls = calls;
	f.answer = (i, json) => calls[i].resolve(json);
	return f;
})()`

// editingBridge is a bridge over fakeEditingMonaco whose shim calls call,
// reports cancellations to a recorder (mon.cancelled) and workspace-edit
// outcomes to Go's applied, with page's callbacks.
func editingBridge(t *testing.T, mon, call, page jsValue) (*editorBridge, *api) {
	t.Helper()
	a := &api{goCall: call, goNav: jsEval(t, `() => '{"handled":false}'`)}
	var err error
	a.goApplied, err = a.fns.add(a.applied)
	require.NoError(t, err)
	t.Cleanup(a.fns.release)
	require.NoError(t, mon.Set("cancelled", jsEval(t, `[]`)))
	a.goCancel = jsEval(t, `(function (mon) { return (n) => mon.cancelled.push(n); })`)
	a.goCancel, err = a.goCancel.Invoke(mon)
	require.NoError(t, err)
	b := newEditorBridge(mon, a, page)
	require.True(t, b.ok())
	return b, a
}

// settle waits for a promise's outcome: mon.out[key] = value or {error}.
func settle(t *testing.T, mon, promise jsValue, key string) jsValue {
	t.Helper()
	keep := jsEval(t, `(function (mon, p, key) { Promise.resolve(p).then((v) => { mon.out[key] = { v }; }, (e) => { mon.out[key] = { error: String(e) }; }); })`)
	_, err := keep.Invoke(mon, promise, key)
	require.NoError(t, err)
	out := get(t, mon, "out")
	waitFor(t, key, func() bool { v, _ := out.Get(key); return v.Type() == jsTypeObject })
	return get(t, out, key)
}

func newFakeModel(t *testing.T, mon jsValue, uri, text string) jsValue {
	t.Helper()
	u := call(t, get(t, mon, "Uri"), "parse", uri)
	return call(t, get(t, mon, "editor"), "createModel", text, jsUndefined(), u)
}

// A chosen code action runs through the one command the shim registers:
// its LSP form goes back to Go (codeActionApply), never to Monaco's own
// edit, and the command goes with the configuration.
func TestCodeActionCommandHandsTheActionBackToGo(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	held := jsEval(t, fakeHeldCall)
	b, _ := editingBridge(t, mon, held, jsEval(t, `({})`))
	p := features.Providers{Set: features.Set(features.CodeAction), CodeActionKinds: []string{"quickfix"}}
	b.Provider("c1", "go", features.CodeAction, features.OptionsJSON(p, features.CodeAction))
	b.Provider("c2", "python", features.CodeAction, features.OptionsJSON(features.Providers{Set: p.Set}, features.CodeAction))
	regs := get(t, mon, "regs")
	require.Equal(t, 2, length(t, regs))
	require.JSONEq(t, `{"providedCodeActionKinds":["quickfix"]}`, stringify(t, get(t, index(t, regs, 0), "meta")))
	require.Equal(t, "undefined", stringify(t, get(t, index(t, regs, 1), "meta")), "no kinds: no metadata")

	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	rng := jsEval(t, `({ startLineNumber: 3, startColumn: 2, endLineNumber: 3, endColumn: 6 })`)
	ctxV := jsEval(t, `({ only: 'quickfix', trigger: 2 })`)
	promise := call(t, get(t, index(t, regs, 0), "provider"), "provideCodeActions", m, rng, ctxV, jsEval(t, `({})`))
	calls := get(t, held, "calls")
	require.Equal(t, 1, length(t, calls))
	c := index(t, calls, 0)
	require.Equal(t, "c1", str(t, get(t, c, "id")))
	require.Equal(t, "codeAction", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go","range":{"startLineNumber":3,"startColumn":2,"endLineNumber":3,"endColumn":6},"only":"quickfix","trigger":2}`, str(t, get(t, c, "json")))
	lsp := `{"title":"Add import","kind":"quickfix","edit":{"changes":{}}}`
	call(t, held, "answer", 0, `{"actions":[{"title":"Add import","kind":"quickfix","isPreferred":true,"lsp":`+strconv.Quote(lsp)+`}]}`)
	list := get(t, settle(t, mon, promise, "actions"), "v")
	action := index(t, get(t, list, "actions"), 0)
	require.JSONEq(t, `{"title":"Add import","kind":"quickfix","isPreferred":true,"command":{"id":"kandev.lsp.codeAction","title":"Add import","arguments":["c1","kandev://s/main.go",`+strconv.Quote(lsp)+`]}}`,
		stringify(t, action), "the LSP form rides in the command only")
	require.True(t, isFunc(list, "dispose"))

	// Monaco runs the command with its accessor first.
	cmd := get(t, mon, "commands", "kandev.lsp.codeAction")
	require.Equal(t, jsTypeFunction, cmd.Type(), "one command for every provider")
	args := get(t, action, "command", "arguments")
	_, err := cmd.Invoke(jsUndefined(), index(t, args, 0), index(t, args, 1), index(t, args, 2))
	require.NoError(t, err)
	require.Equal(t, 2, length(t, calls))
	c = index(t, calls, 1)
	require.Equal(t, "c1", str(t, get(t, c, "id")))
	require.Equal(t, "codeActionApply", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":`+strconv.Quote(lsp)+`}`, str(t, get(t, c, "json")))

	b.close()
	require.Equal(t, jsTypeUndefined, get(t, mon, "commands", "kandev.lsp.codeAction").Type(), "the command goes with the configuration")
}

// A server's code-action kind documentation is Monaco's provider
// metadata; choosing it runs the server's command for the document the
// menu was last asked about.
func TestCodeActionDocumentation(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	held := jsEval(t, fakeHeldCall)
	b, _ := editingBridge(t, mon, held, jsEval(t, `({})`))
	doc := `{"title":"About refactorings","command":"fake.learn"}`
	p := features.Providers{Set: features.Set(features.CodeAction), CodeActionDocs: []features.CodeActionDoc{{Kind: "refactor", Title: "About refactorings", Command: []byte(doc)}}}
	b.Provider("c1", "go", features.CodeAction, features.OptionsJSON(p, features.CodeAction))
	meta := get(t, index(t, get(t, mon, "regs"), 0), "meta")
	require.Equal(t, jsTypeUndefined, get(t, meta, "providedCodeActionKinds").Type())
	entry := index(t, get(t, meta, "documentation"), 0)
	require.Equal(t, "refactor", str(t, get(t, entry, "kind")))
	require.Equal(t, "About refactorings", str(t, get(t, entry, "command", "title")))
	require.Equal(t, "kandev.lsp.codeAction", str(t, get(t, entry, "command", "id")))

	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	rng := jsEval(t, `({ startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 })`)
	call(t, get(t, index(t, get(t, mon, "regs"), 0), "provider"), "provideCodeActions", m, rng, jsEval(t, `({ only: 'refactor', trigger: 1 })`), jsEval(t, `({})`))
	args := get(t, entry, "command", "arguments")
	_, err := get(t, mon, "commands", "kandev.lsp.codeAction").Invoke(jsUndefined(), index(t, args, 0), index(t, args, 1), index(t, args, 2))
	require.NoError(t, err)
	calls := get(t, held, "calls")
	require.Equal(t, 2, length(t, calls))
	c := index(t, calls, 1)
	require.Equal(t, "codeActionApply", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":`+strconv.Quote(doc)+`}`, str(t, get(t, c, "json")))
	b.close()
}

// Inline completions: Monaco's trigger kinds become LSP's, the suggest
// widget's item goes along, and an accepted item's server command comes
// back to Go through the one inline command, which goes with the
// configuration.
func TestInlineCompletionProvider(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	held := jsEval(t, fakeHeldCall)
	b, _ := editingBridge(t, mon, held, jsEval(t, `({})`))
	b.Provider("c1", "go", features.InlineCompletion, "{}")
	reg := index(t, get(t, mon, "regs"), 0)
	require.Equal(t, "registerInlineCompletionsProvider", str(t, get(t, reg, "kind")))
	p := get(t, reg, "provider")
	require.True(t, isFunc(p, "disposeInlineCompletions"), "Monaco calls it for every list")

	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	position := jsEval(t, `({ lineNumber: 2, column: 5 })`)
	call(t, p, "provideInlineCompletions", m, position, jsEval(t, `({ triggerKind: 0 })`), jsEval(t, `({})`))
	promise := call(t, p, "provideInlineCompletions", m, position,
		jsEval(t, `({ triggerKind: 1, selectedSuggestionInfo: { range: { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 5 }, text: 'Print' } })`), jsEval(t, `({})`))
	calls := get(t, held, "calls")
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lineNumber":2,"column":5,"trigger":2}`, str(t, get(t, index(t, calls, 0), "json")), "automatic")
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lineNumber":2,"column":5,"trigger":1,"selected":{"range":{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":5},"text":"Print"}}`,
		str(t, get(t, index(t, calls, 1), "json")), "explicit, with the widget's item")
	run := `{"title":"count","command":"fake.accepted"}`
	call(t, held, "answer", 1, `{"items":[{"insertText":"ln()","run":`+strconv.Quote(run)+`,"title":"count"},{"insertText":{"snippet":"ln(${1:x})"}}]}`)
	items := get(t, settle(t, mon, promise, "inline"), "v", "items")
	require.JSONEq(t, `{"insertText":"ln()","command":{"id":"kandev.lsp.inlineCompletion","title":"count","arguments":["c1","kandev://s/main.go",`+strconv.Quote(run)+`]}}`, stringify(t, index(t, items, 0)))
	require.JSONEq(t, `{"insertText":{"snippet":"ln(${1:x})"}}`, stringify(t, index(t, items, 1)))

	args := get(t, index(t, items, 0), "command", "arguments")
	_, err := get(t, mon, "commands", "kandev.lsp.inlineCompletion").Invoke(jsUndefined(), index(t, args, 0), index(t, args, 1), index(t, args, 2))
	require.NoError(t, err)
	c := index(t, calls, 2)
	require.Equal(t, "inlineCompletionRun", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go","lsp":`+strconv.Quote(run)+`}`, str(t, get(t, c, "json")))
	b.close()
	require.Equal(t, jsTypeUndefined, get(t, mon, "commands", "kandev.lsp.inlineCompletion").Type())
}

// Monaco's cancellation of one call reaches Go with that call's number —
// not another's — and a call already answered leaves no listener behind.
func TestCancellationNamesTheCall(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	held := jsEval(t, fakeHeldCall)
	b, _ := editingBridge(t, mon, held, jsEval(t, `({})`))
	b.Provider("c1", "go", features.Rename, "{}")
	provider := get(t, index(t, get(t, mon, "regs"), 0), "provider")
	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	token := `(function () {
		const t = { isCancellationRequested: false, listeners: [], disposed: 0,
			onCancellationRequested(fn) { t.listeners.push(fn); return { dispose() { t.disposed++; t.listeners = t.listeners.filter((f) => f !== fn); } }; },
			cancel() { t.isCancellationRequested = true; for (const f of t.listeners) f(); } };
		return t;
	})()`
	t1, t2 := jsEval(t, token), jsEval(t, token)
	at := jsEval(t, `({ lineNumber: 1, column: 9 })`)
	first := call(t, provider, "provideRenameEdits", m, at, "x", t1)
	call(t, provider, "resolveRenameLocation", m, at, t2)
	calls := get(t, held, "calls")
	require.Equal(t, 2, length(t, calls))
	n1, n2 := mustInt(t, get(t, index(t, calls, 0), "n")), mustInt(t, get(t, index(t, calls, 1), "n"))
	require.NotEqual(t, n1, n2)
	require.Equal(t, "prepareRename", str(t, get(t, index(t, calls, 1), "name")))

	call(t, t2, "cancel")
	require.Equal(t, `[`+strconv.Itoa(n2)+`]`, stringify(t, get(t, mon, "cancelled")))

	call(t, held, "answer", 0, `{"edits":[]}`)
	settle(t, mon, first, "first")
	require.Equal(t, 1, mustInt(t, get(t, t1, "disposed")), "the answered call's listener is gone")
	call(t, t1, "cancel")
	require.Equal(t, `[`+strconv.Itoa(n2)+`]`, stringify(t, get(t, mon, "cancelled")), "a late cancel of an answered call sends nothing")

	// A token cancelled before the call: nothing reaches Go.
	t3 := jsEval(t, token)
	call(t, t3, "cancel")
	call(t, provider, "provideRenameEdits", m, at, "y", t3)
	require.Equal(t, 2, length(t, calls))
}

// pageFiles is a page with readFile over a table (null for a missing
// file), onEdit and the file operations recorded in page.log.
const pageFiles = `(function () {
	const page = { log: [], files: { 'greet/greet.go': 'package greet\n\nfunc Hello() {}\n', 'a.go': 'package a\n' } };
	page.readFile = (session, path) => Promise.resolve(path in page.files ? page.files[path] : null);
	page.onEdit = (e) => page.log.push(['edit', e.sessionId, e.path, e.model.uri.toString(), e.created, e.versionBefore]);
	page.createFile = (session, path, o) => { page.files[path] = ''; page.log.push(['create', session, path, o]); return true; };
	page.renameFile = (session, path, to, o) => { page.log.push(['rename', session, path, to]); return Promise.resolve(true); };
	page.deleteFile = (session, path) => { page.log.push(['delete', session, path]); return false; };
	return page;
})()`

func editStep(path, rng, text string) string {
	return `{"op":"edit","sessionId":"s","path":"` + path + `","model":"kandev://s/` + path + `","edits":[{"range":` + rng + `,"text":` + strconv.Quote(text) + `}]}`
}

// A planned edit runs in the editor: an open model is edited in place, a
// file without a model is read and gets one, left dirty; each file is one
// undo stop, and the page hears of every edited file.
func TestApplyEditsModelsAndReadsTheOthers(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	page := jsEval(t, pageFiles)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), page)
	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n\nfunc main() { greet.Hello() }\n")

	plan := `[{"op":"edit","sessionId":"s","path":"main.go","model":"kandev://s/main.go","edits":[
		{"range":{"startLineNumber":3,"startColumn":21,"endLineNumber":3,"endColumn":26},"text":"Greeting"},
		{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"text":"// x\n"}]},` +
		editStep("greet/greet.go", `{"startLineNumber":3,"startColumn":6,"endLineNumber":3,"endColumn":11}`, "Greeting") + `]`
	ok, reason := b.Apply(testCtx(t), plan)
	require.True(t, ok, reason)
	require.Equal(t, "// x\npackage main\n\nfunc main() { greet.Greeting() }\n", str(t, get(t, m, "text")))
	require.Equal(t, 2, mustInt(t, get(t, m, "stops")), "one undo stop: before and after the file's edits")
	require.Equal(t, 1, mustInt(t, get(t, m, "editCalls")))
	made := call(t, get(t, mon, "models"), "get", "kandev://s/greet/greet.go")
	require.Equal(t, "package greet\n\nfunc Greeting() {}\n", str(t, get(t, made, "text")))
	require.False(t, truthy(get(t, made, "disposed")), "left for the page's save")
	require.JSONEq(t, `[["edit","s","main.go","kandev://s/main.go",false,1],["edit","s","greet/greet.go","kandev://s/greet/greet.go",true,1]]`,
		stringify(t, get(t, page, "log")))
}

// A snippet edit (LSP 3.18) runs as a snippet session in the editor that
// shows its file, with the step's plain edits escaped beside it; in a file
// no editor shows, it is its text.
func TestApplySnippetEditInTheEditorShowingTheFile(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	page := jsEval(t, pageFiles)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), page)
	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	other := newFakeModel(t, mon, "kandev://s/a.go", "package a\n")
	ed := jsEval(t, `({ inserted: [], getContribution(id) { const ed = this; return id === 'snippetController2' ? { insert(edits, o) { ed.inserted.push([edits, o]); } } : null; }, hasTextFocus() { return false; } })`)
	call(t, get(t, mon, "editor"), "__show", ed, m)
	end := `{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":1}`
	plan := `[{"op":"edit","sessionId":"s","path":"main.go","model":"kandev://s/main.go","edits":[` +
		`{"range":` + end + `,"text":"func name() {}","snippet":"func ${1:name}() {$0}"},` +
		`{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"text":"// $5 }\n"}]},` +
		`{"op":"edit","sessionId":"s","path":"a.go","model":"kandev://s/a.go","edits":[{"range":` + end + `,"text":"x := 1","snippet":"x := ${1:1}"}]}]`
	ok, reason := b.Apply(testCtx(t), plan)
	require.True(t, ok, reason)
	require.JSONEq(t, `[[[{"range":`+end+`,"template":"func ${1:name}() {$0}","keepWhitespace":true},`+
		`{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"template":"// \\$5 \\}\n","keepWhitespace":true}],`+
		`{"undoStopBefore":false,"undoStopAfter":false}]]`, stringify(t, get(t, ed, "inserted")))
	require.Equal(t, "package main\n", str(t, get(t, m, "text")), "the session edits, not the plain apply")
	require.Equal(t, "package a\nx := 1", str(t, get(t, other, "text")))
	b.close()
}

// A file that cannot be read refuses the whole edit before anything
// changed, and the models made for it go again.
func TestApplyRefusesWholeWhenAFileCannotBeRead(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	page := jsEval(t, pageFiles)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), page)
	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	at := `{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1}`
	plan := `[` + editStep("main.go", at, "// x\n") + `,` + editStep("a.go", at, "// a\n") + `,` + editStep("gone.go", at, "// b\n") + `]`
	ok, reason := b.Apply(testCtx(t), plan)
	require.False(t, ok)
	require.Contains(t, reason, "cannot read gone.go")
	require.Equal(t, "package main\n", str(t, get(t, m, "text")))
	require.Equal(t, 0, mustInt(t, get(t, m, "editCalls")))
	require.Equal(t, 1, mustInt(t, get(t, mon, "models", "size")), "the model read for a.go went again")
	require.Equal(t, "[]", stringify(t, get(t, page, "log")))

	// Without readFile, a file with no model cannot be edited at all.
	b2, _ := editingBridge(t, jsEval(t, fakeEditingMonaco), jsEval(t, fakeHeldCall), jsEval(t, `({})`))
	ok, reason = b2.Apply(testCtx(t), `[`+editStep("a.go", at, "x")+`]`)
	require.False(t, ok)
	require.Contains(t, reason, "no readFile")
}

// A refused edit leaves no model behind even when a read answers after
// another failed, and never disposes a model the page opened meanwhile.
func TestApplyRefusedLeavesNoModelBehind(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	page := jsEval(t, `(function () {
		const page = { reads: 0, held: [] };
		page.readFile = (session, path) => {
			page.reads++;
			if (path === 'gone.go') return Promise.resolve(null);
			return new Promise((resolve) => page.held.push(() => resolve('package x\n')));
		};
		page.release = () => { for (const r of page.held) r(); };
		return page;
	})()`)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), page)
	at := `{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1}`
	plan := `[` + editStep("slow.go", at, "x") + `,` + editStep("opened.go", at, "x") + `,` + editStep("gone.go", at, "x") + `]`
	type result struct {
		ok     bool
		reason string
	}
	done := make(chan result, 1)
	go func() {
		ok, reason := b.Apply(testCtx(t), plan)
		done <- result{ok, reason}
	}()
	waitFor(t, "the three reads", func() bool { n, _ := get(t, page, "reads").Int(); return n == 3 })
	settle(t, mon, jsEval(t, `new Promise((r) => setTimeout(r, 0))`), "failed") // gone.go's answer has been seen
	opened := newFakeModel(t, mon, "kandev://s/opened.go", "package opened\n")  // the page opens it meanwhile
	call(t, page, "release")
	var r result
	select {
	case r = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no outcome")
	}
	require.False(t, r.ok)
	require.Contains(t, r.reason, "cannot read gone.go")
	// Every read has answered and every callback after it has run.
	settle(t, mon, jsEval(t, `new Promise((r) => setTimeout(r, 0))`), "tick")
	require.Equal(t, jsTypeNull, call(t, get(t, mon, "editor"), "getModel", "kandev://s/slow.go").Type(), "no model left for slow.go")
	require.False(t, truthy(get(t, opened, "disposed")), "the page's model stays")
	require.Equal(t, 0, mustInt(t, get(t, opened, "editCalls")))
}

// File operations go through the page's callbacks, in order; one that
// reports false stops the edit with a reason.
func TestApplyFileOperationsThroughThePage(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	page := jsEval(t, pageFiles)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), page)
	plan := `[{"op":"create","sessionId":"s","path":"n.go","model":"kandev://s/n.go","options":{"overwrite":true}},
		{"op":"rename","sessionId":"s","path":"n.go","model":"kandev://s/n.go","newPath":"m.go","newModel":"kandev://s/m.go"}]`
	ok, reason := b.Apply(testCtx(t), plan)
	require.True(t, ok, reason)
	require.JSONEq(t, `[["create","s","n.go",{"overwrite":true}],["rename","s","n.go","m.go"]]`, stringify(t, get(t, page, "log")))

	// A file the plan creates is edited after its creation, on a model of
	// its own left for the page's save: the read waits for the create.
	plan = `[{"op":"create","sessionId":"s","path":"extracted.go","model":"kandev://s/extracted.go"},` +
		editStep("extracted.go", `{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1}`, "package main\n") + `]`
	ok, reason = b.Apply(testCtx(t), plan)
	require.True(t, ok, reason)
	made := call(t, get(t, mon, "models"), "get", "kandev://s/extracted.go")
	require.Equal(t, "package main\n", str(t, get(t, made, "text")))
	require.Equal(t, `["edit","s","extracted.go","kandev://s/extracted.go",true,1]`, stringify(t, index(t, get(t, page, "log"), 3)))

	ok, reason = b.Apply(testCtx(t), `[{"op":"delete","sessionId":"s","path":"m.go","model":"kandev://s/m.go"}]`)
	require.False(t, ok)
	require.Equal(t, "Error: delete m.go failed", reason)
}

func testCtx(t *testing.T) ctxlite.Context {
	ctx, cancel := ctxlite.WithTimeout(ctxlite.Background(), 5*clock.Second)
	t.Cleanup(cancel)
	return ctx
}

// Markers reach Monaco with Uris where it wants them: related
// information's resources and the code's link.
func TestMarkersGetUris(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	b, _ := editingBridge(t, mon, jsEval(t, fakeHeldCall), jsEval(t, `({})`))
	mv := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	m := &model{v: mv, bridge: b, owner: "kandev-lsp:s:go"}
	rng := lsptypes.Range{Start: lsptypes.Position{Line: 4}, End: lsptypes.Position{Line: 4, Character: 3}}
	mk := monaco.Marker{StartLineNumber: 1, StartColumn: 1, EndLineNumber: 1, EndColumn: 5, Message: "m", Severity: monaco.SeverityError,
		Code: "UnusedImport", Href: "https://pkg.go.dev/x#UnusedImport", Tags: []int{1},
		Related: []monaco.Related{{Resource: "kandev://s/greet/greet.go", Message: "declared here", Range: rng}}}
	m.SetMarkers([]monaco.Marker{mk, mk})
	calls := get(t, mon, "markerCalls")
	require.Equal(t, 1, length(t, calls))
	c := index(t, calls, 0)
	require.Equal(t, "kandev-lsp:s:go", str(t, get(t, c, "owner")))
	mk0 := index(t, get(t, c, "markers"), 0)
	require.Equal(t, "https", str(t, get(t, mk0, "code", "target", "scheme")))
	require.Equal(t, "UnusedImport", str(t, get(t, mk0, "code", "value")))
	rel := index(t, get(t, mk0, "relatedInformation"), 0)
	require.Equal(t, "/greet/greet.go", str(t, get(t, rel, "resource", "path")))
	require.Equal(t, 5, mustInt(t, get(t, rel, "startLineNumber")))
	require.Equal(t, "[1]", stringify(t, get(t, mk0, "tags")))
	// A text the markers share is parsed once: they share its Uri.
	mk2 := index(t, get(t, c, "markers"), 1)
	require.True(t, get(t, mk2, "code", "target").Equal(get(t, mk0, "code", "target")))
	require.True(t, get(t, index(t, get(t, mk2, "relatedInformation"), 0), "resource").Equal(get(t, rel, "resource")))
}

// willSave and outline are the page's calls, answered by whichever
// connection serves the model ("" names none in particular): format on
// save asks with the model's indentation, and off (or failing) it resolves
// unformatted, so the save goes on.
func TestWillSaveAndOutline(t *testing.T) {
	mon := jsEval(t, fakeEditingMonaco)
	held := jsEval(t, fakeHeldCall)
	b, a := editingBridge(t, mon, held, jsEval(t, `({})`))
	a.bridge = b
	m := newFakeModel(t, mon, "kandev://s/main.go", "package main\n")
	calls := get(t, held, "calls")

	off := a.pageCall("willSave")(jsUndefined(), []jsValue{m}).(jsValue)
	require.Equal(t, `{"formatted":false}`, stringify(t, get(t, settle(t, mon, off, "off"), "v")))
	require.Equal(t, 0, length(t, calls), "format on save off: nothing asked")

	a.formatOnSave = true
	on := a.pageCall("willSave")(jsUndefined(), []jsValue{m}).(jsValue)
	require.Equal(t, 1, length(t, calls))
	c := index(t, calls, 0)
	require.Equal(t, "", str(t, get(t, c, "id")))
	require.Equal(t, "formatOnSave", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go","options":{"tabSize":2,"insertSpaces":true}}`, str(t, get(t, c, "json")))
	call(t, held, "answer", 0, `{"formatted":true}`)
	require.Equal(t, `{"formatted":true}`, stringify(t, get(t, settle(t, mon, on, "on"), "v")))

	failing := a.pageCall("willSave")(jsUndefined(), []jsValue{m}).(jsValue)
	_, err := index(t, calls, 1).Get("reject")
	require.NoError(t, err)
	call(t, index(t, calls, 1), "reject", "server gone")
	require.Equal(t, `{"formatted":false}`, stringify(t, get(t, settle(t, mon, failing, "failing"), "v")), "a failure never stops the save")

	outline := a.pageCall("outline")(jsUndefined(), []jsValue{m}).(jsValue)
	c = index(t, calls, 2)
	require.Equal(t, "", str(t, get(t, c, "id")))
	require.Equal(t, "documentSymbol", str(t, get(t, c, "name")))
	require.JSONEq(t, `{"uri":"kandev://s/main.go"}`, str(t, get(t, c, "json")))
	call(t, held, "answer", 2, `[{"name":"main","kind":11}]`)
	require.Equal(t, `[{"name":"main","kind":11}]`, stringify(t, get(t, settle(t, mon, outline, "outline"), "v")))

	require.Nil(t, a.pageCall("outline")(jsUndefined(), []jsValue{jsUndefined()}), "no model: null")
}
