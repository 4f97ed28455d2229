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
  new Worker('/bench-worker.js').onmessage = (e) => { probe.marks.lsp = e.data - performance.timeOrigin; };
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
  const root = ready.workspaceUri;
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

// --- what the driver calls ---------------------------------------------------

// frameAfter returns the first frame at or after t that matches.
/** @param {number} t @param {(f: BenchProbe['frames'][number]) => boolean} match */
function frameAfter(t, match) {
  return probe.frames.find((f) => f.t >= t && match(f)) || null;
}

const isMethod = (/** @type {string} */ method) => (/** @type {BenchProbe['frames'][number]} */ f) => f.out && typeof f.data === 'string' && f.data.includes(`"method":"${method}"`);

// answerTo finds the response to the request in frame req.
function answerTo(/** @type {BenchProbe['frames'][number]} */ req) {
  const id = JSON.parse(req.data).id;
  return frameAfter(req.t, (f) => {
    if (f.out || !f.data.includes('"id":')) return false;
    const m = JSON.parse(f.data);
    return m.id === id && m.method === undefined;
  });
}

// waitFor resolves with performance.now() at the first DOM mutation after
// which cond holds (checked at once too).
/** @param {() => boolean} cond @returns {Promise<number>} */
function waitFor(cond, timeoutMs = 30000) {
  return new Promise((resolve, reject) => {
    if (cond()) {
      resolve(performance.now());
      return;
    }
    const obs = new MutationObserver(() => {
      if (!cond()) return;
      const t = performance.now();
      obs.disconnect();
      clearTimeout(timer);
      resolve(t);
    });
    const timer = setTimeout(() => {
      obs.disconnect();
      reject(new Error('timed out waiting for the editor'));
    }, timeoutMs);
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

const visible = (/** @type {HTMLElement | null} */ el) => !!el && el.offsetHeight > 0 && !el.closest('.hidden');

// The driver's handles (e2e/bench): any, no type of the page's declares them.
/** @type {any} */ (window).bench = {
  client,
  monaco,
  editor,
  model,
  probe,

  // quiet resolves once no frame has crossed the socket for ms and the
  // editor holds no pending work: the state between two user actions.
  quiet(ms = 400) {
    return new Promise((/** @type {(v?: unknown) => void} */ resolve) => {
      const check = () => {
        const last = probe.frames.length ? probe.frames[probe.frames.length - 1].t : 0;
        const idle = performance.now() - last;
        if (idle >= ms) resolve();
        else setTimeout(check, ms - idle + 5);
      };
      check();
    });
  },

  // edit replaces the model's text range and places the cursor at its end.
  /** @param {import('monaco-editor').IRange} range @param {string} text */
  edit(range, text) {
    editor.executeEdits('bench', [{ range, text, forceMoveMarkers: true }]);
    editor.focus();
  },

  // rows resolves when the suggest widget shows a row containing label.
  rows(/** @type {string} */ label) {
    return waitFor(() => {
      const w = /** @type {HTMLElement | null} */ (document.querySelector('.suggest-widget'));
      return visible(w) && [.../** @type {HTMLElement} */ (w).querySelectorAll('.monaco-list-row')].some((r) => (r.textContent || '').includes(label));
    });
  },

  // hover resolves when a hover showing text is on screen.
  hover(/** @type {string} */ text) {
    return waitFor(() => [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.monaco-hover'))].some((h) => visible(h) && (h.textContent || '').includes(text)));
  },

  // split times a request of method triggered at t0 and shown at shown:
  // trigger → request sent → answer received → shown, and when a pending
  // didChange went out.
  // The provider call is the one Monaco made for this trigger whose answer
  // came last before shown (Monaco may call a provider again as the word
  // grows; those answers are not what is shown first).
  /** @param {string} method @param {number} t0 @param {number} shown @param {number} [editedAt] */
  split(method, t0, shown, editedAt) {
    const req = frameAfter(t0, isMethod(method));
    const ans = req && answerTo(req);
    const change = frameAfter(t0, isMethod('textDocument/didChange'));
    const prefix = editedAt === undefined ? null : frameAfter(editedAt, isMethod('textDocument/didChange'));
    const calls = (probe.calls || []).filter((c) => c.called >= t0 && c.resolved !== null && c.resolved <= shown
      && c.method === (method === 'textDocument/hover' ? 'provideHover' : 'provideCompletionItems'));
    const call = calls.length ? calls[calls.length - 1] : null;
    return {
      total: shown - t0,
      toProvider: call ? call.called - t0 : null,
      toRequest: req ? req.t - (call ? call.called : t0) : null,
      toAnswer: ans && req ? ans.t - req.t : null,
      // call.resolved is set: calls keeps only resolved ones.
      toResolved: ans && call ? /** @type {number} */ (call.resolved) - ans.t : null,
      toShown: call ? shown - /** @type {number} */ (call.resolved) : ans ? shown - ans.t : null,
      // A didChange sent after the trigger, before the request: ms after
      // the trigger.
      change: change && (!req || change.t <= req.t) ? change.t - t0 : null,
      // The change made before the trigger (editedAt): ms until it went
      // out, and whether it was still held when the trigger came.
      prefixChange: prefix ? prefix.t - /** @type {number} */ (editedAt) : null, // prefix needs editedAt
      prefixHeld: prefix ? prefix.t >= t0 : null,
      answerBytes: ans ? ans.data.length : null,
    };
  },

  // cold is the load of this page, from navigation start to the first
  // error marker, with the moments between.
  cold() {
    const m = probe.marks;
    const at = (/** @type {BenchProbe['frames'][number] | null} */ f) => (f ? f.t : null);
    const readyFrame = frameAfter(0, (f) => !f.out && f.data.includes('"status":"ready"'));
    const init = frameAfter(0, isMethod('initialize'));
    const diag = frameAfter(0, (f) => !f.out && f.data.includes('"textDocument/publishDiagnostics"') && !f.data.includes('"diagnostics":[]'));
    const wasm = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).find((e) => /\/lsp(\.[0-9a-f]+)?\.wasm$/.test(new URL(e.name).pathname));
    // ms of long tasks between two moments.
    const busy = (/** @type {number | null} */ from, /** @type {number | null} */ to) => (from === null || to === null ? null : /** @type {NonNullable<BenchProbe['longTasks']>} */ (probe.longTasks)
      .reduce((sum, lt) => sum + Math.max(0, Math.min(lt.end, to) - Math.max(lt.start, from)), 0));
    return {
      total: m.firstError,
      monaco: m.monaco,
      lsp: m.lsp ?? null,
      client: m.client,
      socket: m.socket,
      ready: at(readyFrame),
      initializeSent: at(init),
      initializeAnswered: init ? at(answerTo(init)) : null,
      initialized: at(frameAfter(0, isMethod('initialized'))),
      // What the client asked the server between its didOpen and the first
      // diagnostics: requests the server works on before it publishes.
      askedBeforeDiagnostics: (() => {
        const open = frameAfter(0, isMethod('textDocument/didOpen'));
        if (!open || !diag) return null;
        return probe.frames.filter((f) => f.out && f.t >= open.t && f.t <= diag.t && typeof f.data === 'string')
          .map((f) => { try { return JSON.parse(f.data).method; } catch { return '?'; } }).filter(Boolean);
      })(),
      didOpen: at(frameAfter(0, isMethod('textDocument/didOpen'))),
      diagnostics: at(diag),
      busyBeforeReady: busy(m.socket ?? null, at(readyFrame)),
      busyTotal: busy(0, m.firstError ?? null),
      wasm: wasm ? { transferSize: wasm.transferSize, encodedBodySize: wasm.encodedBodySize, decodedBodySize: wasm.decodedBodySize } : null,
    };
  },
};
probe.marks.ready = performance.now();
