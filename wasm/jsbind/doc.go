//go:build js && wasm

// Package jsbind is lsp.wasm's only contact with JavaScript: the browser
// WebSocket, the Monaco model and marker calls, localStorage, and the
// kandevLSP object the page uses. Everything else lives in pure Go packages
// (app, client, status, i18n, progress, settings, jsonrpc, monaco, lsptypes)
// that are tested natively; no other package may import syscall/js.
//
// # JavaScript API
//
// The full reference, with the view-model's fields, is wasm/API.md; its
// TypeScript declarations are wasm/js/index.d.ts, which a test here keeps
// complete. main sets kandevLSP on the global object synchronously before
// it blocks: globalThis for a classic page, the scope of its own that the
// @kandev/lsp module (wasm/js) gives wasm_exec.js:
//
//	lsp.configure({ monaco, relayURL, locale?, settings?, openFile?, openTabs?, readFile?, listFiles? }); // → true, or false (console.error); monaco may be a promise of it
//	lsp.setSettings(userSettings);   // the /api/v1/user/settings object → boolean
//	lsp.setLocale('de');             // → the locale in use ('en', 'de', 'en-XA')
//	const doc = lsp.openDocument({ sessionId, path, model, persistedVersion? }); // → { sessionId, path, language, close(), reload() } or null
//	lsp.start(sessionId, language);  // explicit Start, remembered in localStorage → boolean
//	lsp.stop(sessionId, language);   // explicit Stop, suppresses auto-start in this runtime → boolean
//	lsp.retry(sessionId, language);  // new connection generation after a failure → boolean
//	lsp.prepare(sessionId, language); // connect now, before any document, if one would → boolean
//	lsp.view(sessionId, language);   // the status view-model object (null: unknown language)
//	lsp.status(sessionId, language); // the same, null for a pair never seen
//	const off = lsp.onStatus((view) => {}); // every view change, incl. a 1 s tick while time elapses
//	lsp.surface({ model, coarse, phone, statusBar }); // where the status control goes, for which pair
//	lsp.text(key, args);             // a catalog text of the current locale for the page's surfaces
//	lsp.saved({ model, ok, persistedVersion, liveVersion, text? }); // after a write → { dirty }
//	const off2 = lsp.onMessage((message) => {}); // server messages for people
//	lsp.respond(message.id, 'Reload');  // a showMessageRequest's choice (null dismisses) → boolean
//	const off3 = lsp.onDiskChange((change) => {}); // open files changed on the task host (disk.go)
//	const off4 = lsp.onWorkspaceFiles((files) => {}); // any workspace path changed there (disk.go)
//	lsp.dispose();                   // teardown; configure may follow → true
//	lsp.version;
//
// configure also wraps Monaco's TypeScript/JavaScript built-in providers
// (suppress.WrapperJS, once per namespace), evaluates the provider shim
// (shim.js) and registers an editor opener that calls openFile(target).
// Each initialized connection gets Monaco providers for what its server
// advertises (editor.go); each provider call is one JSON string to Go and
// one back. Given a promise of Monaco, configure runs the connections at
// once and keeps their editor calls in a client.LateEditor until it
// resolves (api.go's await), so a prepared server initializes while Monaco
// loads.
//
// A view is { sessionId, language, state, summary, label, details[], action,
// actionLabel, progress, initializing, finished, closeCode, message?,
// experimental, documents }: localized texts, the one available action
// ('start', 'stop', 'retry' or null) with its localized label, and
// structured progress, built by package status.
//
// localStorage is reached only here (storage.go), behind settings.Store.
//
// # Crossing costs
//
// Each JS↔Go crossing costs microseconds, so the binding moves one string
// per message: WebSocket frames are strings, markers are encoded in Go as one
// JSON array and parsed once with JSON.parse, status events likewise. A
// content change crosses as one string (Monaco's event, stringified in
// JavaScript); provider requests and answers are one string each way.
// Views cross as one JSON string each, delivered from one Go goroutine that
// holds no lock, so a listener may call back into the API.
//
// # Callbacks
//
// Every js.Func belongs to a funcSet that is released from a goroutine
// waiting for its owner (a socket, a document) to end, so callbacks never
// outlive what they serve. JavaScript exceptions come back from the wrapper
// in safe.go (safejs's API, without its fmt) as Go errors and are logged to
// the console, never rethrown.
package jsbind
