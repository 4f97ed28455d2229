// @ts-check
// The benchmark page: one Monaco editor on a file of the demo session, its
// language-server intelligence from lsp.wasm (?client=wasm) or from
// Monaco's own LSP client, monaco.lsp (?client=monaco), both through the
// same relay route and agent to the same language server. The baseline is
// given what lsp.wasm gets from the agent: the status frames are dropped
// (the client starts at `ready`) and initialize carries the same root.
//
// The page only loads and exposes; e2e/bench drives it and reads the
// probe's timestamps (bench-probe.js). Each client loads as a page would
// load it: lsp.wasm fetched, compiled and started while Monaco loads, then
// configured with a promise of Monaco and its pair prepared, so its
// connection is initialized by the time Monaco is there; monaco.lsp, part
// of Monaco, once Monaco has loaded.

import { install } from './driver.js';

const probe = window.benchProbe;
const params = new URLSearchParams(location.search);
const client = params.get('client') === 'monaco' ? 'monaco' : 'wasm';
const sessionId = params.get('session') || 'demo';
const path = params.get('path') || 'main.go';
const language = 'go';

// The baseline's variants (?baseline=early,caps,worker), off by default:
// early opens its socket and waits for the ready frame while Monaco loads
// (all a page can do for monaco.lsp before Monaco exists); caps asks the
// server for completion items as lsp.wasm does (snippets, insert/replace
// ranges, label details, documentation format, resolve), so the server
// does the same work for both clients; worker also loads and starts
// lsp.wasm in a dedicated Worker (bench-worker.js), unused: what fetching,
// compiling and starting it costs a page when none of it runs on the
// page's own thread.
const baseline = new Set((params.get('baseline') || '').split(',').filter(Boolean));
// ?wasm=late configures lsp.wasm as a page that waits for Monaco would:
// with the namespace, once Monaco has loaded, its connection dialled when
// the document opens. For telling start-up costs apart (comma-separated):
// low fetches lsp.wasm at low priority; after fetches and starts it only
// once Monaco has loaded; runafter compiles it as it arrives but
// instantiates and starts it once Monaco has loaded.
const wasmMode = new Set((params.get('wasm') || '').split(',').filter(Boolean));
const wasmLate = wasmMode.has('late');

const relay = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`;
const text = fetch(`/api/v1/workspace/file?path=${encodeURIComponent(path)}`).then((r) => r.text());
/** @type {(() => void) | undefined} */
let monacoReadyForLSP; // resolves monacoLoadedForLSP, when Monaco has loaded
/** @type {Promise<void>} */
const monacoLoadedForLSP = new Promise((r) => { monacoReadyForLSP = r; });
const lspLoaded = client === 'wasm' ? (wasmMode.has('after') ? monacoLoadedForLSP.then(loadLSP) : loadLSP()) : null;
const userSettings = client === 'wasm' ? fetch('/api/v1/user/settings').then((r) => r.json()) : null;
const early = client === 'monaco' && baseline.has('early') ? openSocket() : null;
if (client === 'monaco' && baseline.has('worker')) {
  // The cold split's lsp column: when the Worker's lsp.wasm was running.
  new Worker('/bench/bench-worker.js').onmessage = (e) => { probe.marks.lsp = e.data - performance.timeOrigin; };
}
early?.catch(() => {}); // awaited below, after Monaco
// Monaco as the clients get it: loaded, and its provider registrations
// probed before either client registers anything.
const monacoReady = /** @type {Promise<import('@kandev/lsp').MonacoNamespace>} */ (new Promise((resolve, reject) => {
  window.require.config({ paths: { vs: '/monaco/vs' } });
  window.require(['vs/editor/editor.main'], () => resolve(window.monaco), reject);
})).then((monaco) => {
  probe.marks.monaco = performance.now();
  probeProviders(monaco);
  monacoReadyForLSP?.();
  return monaco;
});

// lsp.wasm does not wait for Monaco: configured with the promise of it, it
// dials now, and gopls initializes and loads the workspace while Monaco
// loads; the providers are registered once Monaco is there.
const lsp = client === 'wasm' ? await lspLoaded : null;
if (lsp && !wasmLate) {
  lsp.configure({ monaco: monacoReady, relayURL: relay, locale: 'en', settings: await userSettings });
  probe.marks.client = performance.now();
  lsp.prepare(sessionId, language);
}
const monaco = await monacoReady;

// ?wasm=hops (with gctrace, which keeps the console's lines on the page):
// when a big JSON text is parsed, when markers are set and when Monaco
// says they changed, for setting a big diagnostics frame's hops side by
// side with lsp.wasm's own prints.
if (wasmMode.has('hops')) {
  const set = monaco.editor.setModelMarkers;
  // @ts-ignore
  monaco.editor.setModelMarkers = function (m, o, ms) { const t = performance.now(); const r = set.call(this, m, o, ms); if (ms.length > 100) console.log(`setModelMarkers ${ms.length} from @${t.toFixed(1)}`); return r; };
  const parse = JSON.parse;
  JSON.parse = function (/** @type {any} */ x, /** @type {any} */ r) { const t = performance.now(); const v = parse(x, r); if (typeof x === 'string' && x.length > 100000) console.log(`JSON.parse ${x.length} from @${t.toFixed(1)}`); return v; };
  monaco.editor.onDidChangeMarkers(() => console.log(`markers event`));
}

// Both clients register their providers through monaco.languages; each
// completion and hover provider is wrapped to stamp when Monaco calls it
// and when its answer resolves, which splits a client's own time from
// Monaco's before and after it.
/** @param {import('@kandev/lsp').MonacoNamespace} monaco */
function probeProviders(monaco) {
  /** @type {NonNullable<BenchProbe['calls']>} */
  const calls = probe.calls = [];
  for (const [register, method] of [['registerCompletionItemProvider', 'provideCompletionItems'], ['registerHoverProvider', 'provideHover']]) {
    // Patched by name, whichever register function it is: any.
    const languages = /** @type {any} */ (monaco.languages);
    const original = languages[register];
    /** @this {unknown} @param {unknown} selector @param {object} provider @param {unknown[]} rest */
    languages[register] = function (selector, provider, ...rest) {
      const probed = new Proxy(provider, {
        get(target, prop) {
          const v = Reflect.get(target, prop, target);
          if (typeof v !== 'function') return v;
          if (prop !== method) return v.bind(target);
          return (/** @type {unknown[]} */ ...args) => {
            /** @type {NonNullable<BenchProbe['calls']>[number]} */
            const call = { method, called: performance.now(), resolved: null };
            calls.push(call);
            const answer = v.apply(target, args);
            Promise.resolve(answer).then(() => { call.resolved = performance.now(); }, () => {});
            return answer;
          };
        },
      });
      return original.call(this, selector, probed, ...rest);
    };
  }
}

const editor = monaco.editor.create(/** @type {HTMLElement} */ (document.getElementById('editor')), { // in bench.html
  model: null,
  automaticLayout: true,
  minimap: { enabled: false },
  // As the demo: suggestions come from the language server only.
  wordBasedSuggestions: 'off',
});

/** @type {import('monaco-editor').editor.ITextModel | null} */
let model = null;
/** @type {string} */
let root = ''; // monaco.lsp's workspace root, from the ready frame
monaco.editor.onDidChangeMarkers(() => {
  if (probe.marks.firstError || !model) return;
  const markers = monaco.editor.getModelMarkers({ resource: model.uri });
  if (markers.some((m) => m.severity === monaco.MarkerSeverity.Error)) probe.marks.firstError = performance.now();
});

// loadLSP starts lsp.wasm as the demo's entry does: by its content-hashed
// name, compressed, compiled as it arrives and run before Monaco is there
// (kandevLSP exists before configure, which takes monaco).
async function loadLSP() {
  const config = await (await fetch('/config.json')).json();
  const go = new Go();
  // ?wasm=gogc<N> runs lsp.wasm's Go runtime with GOGC=N; gctrace prints
  // each of its collections on the console (GODEBUG=gctrace=1).
  for (const m of wasmMode) {
    const gogc = /^gogc(\d+|off)$/.exec(m);
    if (gogc) go.env.GOGC = gogc[1];
  }
  if (wasmMode.has('gctrace')) {
    go.env.GODEBUG = 'gctrace=1';
    // Stamped with the page's clock, to be set beside the steps' windows.
    // Kept on the page, not printed: printing through the debugger
    // protocol takes milliseconds a line.
    /** @type {[number, string][]} */
    const kept = /** @type {any} */ (window).benchLog = [];
    console.log = (/** @type {unknown[]} */ ...args) => { kept.push([performance.now(), args.join(' ')]); };
  }
  let instance;
  if (wasmMode.has('runafter')) {
    const module = WebAssembly.compileStreaming(fetch(config.wasm));
    await monacoLoadedForLSP;
    instance = await WebAssembly.instantiate(await module, go.importObject);
  } else {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(config.wasm, wasmMode.has('low') ? { priority: 'low' } : {}), go.importObject));
  }
  go.run(instance);
  probe.marks.lsp = performance.now();
  return globalThis.kandevLSP;
}

if (lsp) {
  if (wasmLate) {
    lsp.configure({ monaco, relayURL: relay, locale: 'en', settings: await userSettings });
    probe.marks.client = performance.now();
  }
  model = monaco.editor.createModel(await text, undefined,
    monaco.Uri.from({ scheme: 'kandev', authority: sessionId, path: '/' + path }));
  // As the demo's app.js: the document opens (joining the prepared
  // connection) before the editor shows the model.
  lsp.openDocument({ sessionId, path, model });
  editor.setModel(model);
} else {
  const { socket, ready } = await (early || openSocket());
  root = ready.workspaceUri;
  // monaco.lsp lower-cases document URIs (ManagedModel); a root that is
  // not lower case already would name other files than the server has.
  if (root !== root.toLowerCase()) throw new Error(`monaco.lsp cannot serve the root ${root}: not lower case`);
  model = monaco.editor.createModel(await text, language, monaco.Uri.parse(`${root}/${path}`));
  editor.setModel(model);
  const transport = monaco.lsp.WebSocketTransport.fromWebSocket(socket);
  const send = transport.send.bind(transport);
  // A JSON-RPC message whose params are edited by hand: any.
  transport.send = (/** @type {any} */ message) => {
    if (message.method === 'initialize') {
      // monaco.lsp sends rootUri null; the server gets lsp.wasm's root.
      message.params.rootUri = root;
      message.params.workspaceFolders = [{ uri: root, name: root.slice(root.lastIndexOf('/') + 1) }];
      if (baseline.has('caps')) {
        const item = message.params.capabilities.textDocument.completion.completionItem;
        Object.assign(item, {
          snippetSupport: true,
          insertReplaceSupport: true,
          labelDetailsSupport: true,
          documentationFormat: ['markdown', 'plaintext'],
          resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
        });
      }
    }
    return send(message);
  };
  new monaco.lsp.MonacoLspClient(transport);
  probe.marks.client = performance.now();
}

// openSocket dials the relay for the baseline. The agent's status frames
// come before JSON-RPC: it resolves at the ready frame (whose root
// initialize carries), with the socket.
async function openSocket() {
  const socket = new WebSocket(`${relay}/${encodeURIComponent(sessionId)}?language=${language}`);
  const ready = await new Promise((resolve, reject) => {
    const onMessage = (/** @type {MessageEvent} */ e) => {
      const frame = JSON.parse(e.data);
      if (frame.status === 'ready') {
        socket.removeEventListener('message', onMessage);
        resolve(frame);
      } else if (frame.status === 'install_failed') {
        reject(new Error(frame.error));
      }
    };
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', (e) => reject(new Error(`stream closed with ${e.code}`)), { once: true });
  });
  return { socket, ready };
}

// openFile opens one more file of the session as the demo's tabs do: a
// model of its text that the client synchronises (monaco.lsp opens every
// model Monaco has).
/** @param {string} p @param {string} text */
function openFile(p, text) {
  if (lsp) {
    const m = monaco.editor.createModel(text, undefined, monaco.Uri.from({ scheme: 'kandev', authority: sessionId, path: '/' + p }));
    const handle = lsp.openDocument({ sessionId, path: p, model: m });
    return () => { handle?.close(); m.dispose(); };
  }
  const m = monaco.editor.createModel(text, language, monaco.Uri.parse(`${root}/${p}`));
  return () => m.dispose();
}

install({ client, monaco, editor, model, openFile });
probe.marks.ready = performance.now();
