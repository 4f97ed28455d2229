// @ts-check
// What e2e/bench calls on a benchmark page (window.bench), shared by every
// page it measures: bench.html's lsp.wasm and monaco.lsp, and
// monaco-languageclient's (e2e/bench/mlc). Each page loads its client,
// then calls install with its editor; the probe (bench-probe.js) has the
// timestamps every measure reads.

const probe = window.benchProbe;

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
// With later, only a mutation after the call counts: cond may hold
// already, and what is awaited is its holding after the next change.
/** @param {() => boolean} cond @returns {Promise<number>} */
function waitFor(cond, timeoutMs = 30000, later = false) {
  return new Promise((resolve, reject) => {
    if (!later && cond()) {
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

// install puts the driver's handles on the page (window.bench, for
// e2e/bench: any, no type of the page's declares them).
// openFile is the page's way of opening one more file of the session as
// an editor tab does (a model of its text, synchronised by the client); it
// returns the function that closes it again.
/**
 * @param {{ client: string, monaco: unknown, editor: import('monaco-editor').editor.IStandaloneCodeEditor,
 *   model: import('monaco-editor').editor.ITextModel,
 *   openFile: (path: string, text: string) => () => void }} page
 */
export function install({ client, monaco, editor, model, openFile }) {
  /** @type {(() => void)[]} */
  let opened = [];
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

    // firstRow resolves when, after a change on the page from now on, the
    // suggest widget's first row contains label: the list filtered to
    // what is typed next.
    firstRow(/** @type {string} */ label) {
      return waitFor(() => {
        const w = /** @type {HTMLElement | null} */ (document.querySelector('.suggest-widget'));
        const row = w && visible(w) ? w.querySelector('.monaco-list-row[data-index="0"]') : null;
        return !!row && (row.textContent || '').includes(label);
      }, 30000, true);
    },

    // openFiles opens the session's files at paths, as many tabs would,
    // and resolves once the client has sent a didOpen for each.
    async openFiles(/** @type {string[]} */ paths) {
      const from = performance.now();
      const texts = await Promise.all(paths.map((p) => fetch(`/api/v1/workspace/file?path=${encodeURIComponent(p)}`).then((r) => r.text())));
      opened = paths.map((p, i) => openFile(p, texts[i]));
      const sent = () => probe.frames.filter((f) => f.out && f.t >= from && f.data.includes('"method":"textDocument/didOpen"'));
      await new Promise((resolve, reject) => {
        const deadline = performance.now() + 60000;
        const check = () => {
          const open = sent();
          if (paths.every((p) => open.some((f) => f.data.includes(`/${p}"`)))) resolve(undefined);
          else if (performance.now() > deadline) reject(new Error(`${open.length} of ${paths.length} files opened after a minute`));
          else setTimeout(check, 20);
        };
        check();
      });
    },

    // closeFiles closes what openFiles opened.
    closeFiles() {
      for (const close of opened) close();
      opened = [];
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
        // Whether the server said the list is incomplete (more letters ask again).
        incomplete: ans ? ans.data.includes('"isIncomplete":true') : null,
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
}
