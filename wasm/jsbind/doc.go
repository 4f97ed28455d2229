//go:build js && wasm

// Package jsbind is lsp.wasm's only contact with JavaScript: the browser
// WebSocket, the Monaco model and marker calls, and the kandevLSP object the
// page uses. Everything else lives in pure Go packages (client, jsonrpc,
// monaco, protocol) that are tested natively; no other package may import
// syscall/js or safejs.
//
// # JavaScript API
//
// main sets globalThis.kandevLSP synchronously before it blocks:
//
//	const go = new Go(); // from wasm_exec.js
//	const { instance } = await WebAssembly.instantiateStreaming(fetch('/lsp.wasm'), go.importObject);
//	go.run(instance);
//	const lsp = globalThis.kandevLSP;
//
//	lsp.configure({ monaco, relayURL: 'ws://' + location.host + '/lsp' });
//	// → true, or false (with a console.error) for bad options.
//	// Connection URL: relayURL + '/' + encodeURIComponent(sessionId) + '?language=' + language.
//	// Configuring again stops the previous configuration's connections.
//
//	const doc = lsp.openDocument({ sessionId: 'demo', path: 'main.go', model });
//	// path is workspace-relative and slash-separated; the language comes from
//	// its extension. Returns null if no language serves the file, if
//	// configure was not called, or for bad options (with a console.error).
//	// doc = { path, language, close() }.
//	// Markers go to monaco.editor.setModelMarkers(model, 'kandev-lsp', markers)
//	// whenever diagnostics arrive; they are cleared when the document closes or
//	// its connection ends.
//
//	doc.close(); // didClose, markers cleared, listeners disposed; idempotent.
//	// Disposing the model closes the document too.
//
//	const off = lsp.onStatus((e) => {});
//	// e = { sessionId, language, state, closeCode, message? }
//	// state: 'connecting'|'installing'|'starting'|'ready'|'stopping'|'off'|'error'
//	// closeCode: the WebSocket close code that ended the connection (4001–4008,
//	// 1000, 1001, 1006), else null. message: install_failed detail or the
//	// server's initialize error message, when the state is 'error'.
//	// off() unsubscribes (call it once).
//
//	lsp.status(sessionId, language); // → the latest such object, or null
//	lsp.version;                     // a string
//
// # Crossing costs
//
// Each JS↔Go crossing costs microseconds, so the binding moves one string
// per message: WebSocket frames are strings, markers are encoded in Go as one
// JSON array and parsed once with JSON.parse, status events likewise. A
// content change only marks the document dirty; the debounced sender reads
// model.getValue() once.
//
// # Callbacks
//
// Every js.Func belongs to a funcSet that is released from a goroutine
// waiting for its owner (a socket, a document) to end, so callbacks never
// outlive what they serve. JavaScript exceptions come back from safejs as Go
// errors and are logged to the console, never rethrown.
package jsbind
