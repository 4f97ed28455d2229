// The benchmark page of monaco-languageclient: one editor on main.go of the
// demo session, as an integrator following its README builds it in classic
// mode (monaco-vscode-api's editor services, Monarch rather than TextMate,
// no workbench), connected through the same relay route and agent as
// lsp.wasm and monaco.lsp on webdemo/static/bench.html. Like that page's
// baseline, the client is given what lsp.wasm gets from the agent: the
// status frames are read off the socket first (the client starts at
// `ready`) and initialize carries the same root.
//
// The page only loads and exposes; e2e/bench drives it. window.bench below
// is the same API as bench.js's, so one driver measures every client.

import * as vscode from 'vscode';
import * as monaco from '@codingame/monaco-vscode-editor-api';
import { MonacoVscodeApiWrapper } from 'monaco-languageclient/vscodeApiWrapper';
import { LanguageClientWrapper } from 'monaco-languageclient/lcwrapper';
import { EditorApp } from 'monaco-languageclient/editorApp';
import { configureDefaultWorkerFactory } from 'monaco-languageclient/workerFactory';
import { toSocket, WebSocketMessageReader, WebSocketMessageWriter } from 'vscode-ws-jsonrpc';

const probe = window.benchProbe;
const params = new URLSearchParams(location.search);
const sessionId = params.get('session') || 'demo';
const path = params.get('path') || 'main.go';
const language = 'go';

const relay = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`;
const text = fetch(`/api/v1/workspace/file?path=${encodeURIComponent(path)}`).then((r) => r.text());

// monaco-vscode-api first (its services must exist before anything else),
// as the README does; that is when Monaco is there.
await new MonacoVscodeApiWrapper({
  $type: 'classic',
  viewsConfig: { $type: 'EditorService' },
  userConfiguration: { json: JSON.stringify({ 'editor.wordBasedSuggestions': 'off' }) },
  monacoWorkerFactory: configureDefaultWorkerFactory,
}).start();
probe.marks.monaco = performance.now();
probeProviders();

// The client's socket, dialled once Monaco is there as the monaco.lsp
// baseline's; the agent's status frames are consumed before the JSON-RPC
// reader is attached, which would take them for malformed messages.
const { socket, ready } = await openSocket();
const root = ready.workspaceUri;
const iSocket = toSocket(socket);
const client = new LanguageClientWrapper({
  languageId: language,
  connection: {
    options: { $type: 'WebSocketDirect', webSocket: socket },
    messageTransports: { reader: new WebSocketMessageReader(iSocket), writer: new WebSocketMessageWriter(iSocket) },
  },
  clientOptions: {
    documentSelector: [language],
    workspaceFolder: { index: 0, name: root.slice(root.lastIndexOf('/') + 1), uri: vscode.Uri.parse(root) },
  },
});
const app = new EditorApp({
  codeResources: { modified: { text: await text, uri: `${root}/${path}` } },
  languageDef: { languageExtensionConfig: { id: language, extensions: ['.go'], aliases: ['Go'] } },
  editorOptions: { automaticLayout: true, minimap: { enabled: false }, wordBasedSuggestions: 'off' },
});
// The client's start (initialize and its answer) and the editor's model
// at once: the document opens whichever is first.
const started = client.start();
probe.marks.client = performance.now();
let model = null;
monaco.editor.onDidChangeMarkers(() => {
  if (probe.marks.firstError || !model) return;
  const markers = monaco.editor.getModelMarkers({ resource: model.uri });
  if (markers.some((m) => m.severity === monaco.MarkerSeverity.Error)) probe.marks.firstError = performance.now();
});
await app.start(document.getElementById('editor'));
const editor = app.getEditor();
model = editor.getModel();
await started;

// probeProviders wraps the completion and hover providers that the client
// registers through the VS Code API (vscode-languageclient does not use
// monaco.languages) to stamp when they are called and when they answer, as
// bench.js does for the other two clients.
function probeProviders() {
  probe.calls = [];
  for (const [register, method] of [['registerCompletionItemProvider', 'provideCompletionItems'], ['registerHoverProvider', 'provideHover']]) {
    const original = vscode.languages[register];
    vscode.languages[register] = function (selector, provider, ...rest) {
      const probed = new Proxy(provider, {
        get(target, prop) {
          const v = Reflect.get(target, prop, target);
          if (typeof v !== 'function') return v;
          if (prop !== method) return v.bind(target);
          return (...args) => {
            const call = { method, called: performance.now(), resolved: null };
            probe.calls.push(call);
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

// openSocket dials the relay. The agent's status frames come before
// JSON-RPC: it resolves at the ready frame (whose root initialize
// carries), with the socket.
async function openSocket() {
  const socket = new WebSocket(`${relay}/${encodeURIComponent(sessionId)}?language=${language}`);
  const ready = await new Promise((resolve, reject) => {
    const onMessage = (e) => {
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

// --- what the driver calls: a copy of webdemo/static/bench.js's, keep in step ---

function frameAfter(t, match) {
  return probe.frames.find((f) => f.t >= t && match(f)) || null;
}

const isMethod = (method) => (f) => f.out && typeof f.data === 'string' && f.data.includes(`"method":"${method}"`);

function answerTo(req) {
  const id = JSON.parse(req.data).id;
  return frameAfter(req.t, (f) => {
    if (f.out || !f.data.includes('"id":')) return false;
    const m = JSON.parse(f.data);
    return m.id === id && m.method === undefined;
  });
}

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

const visible = (el) => el && el.offsetHeight > 0 && !el.closest('.hidden');

window.bench = {
  client: 'mlc',
  monaco,
  editor,
  model,
  probe,

  quiet(ms = 400) {
    return new Promise((resolve) => {
      const check = () => {
        const last = probe.frames.length ? probe.frames[probe.frames.length - 1].t : 0;
        const idle = performance.now() - last;
        if (idle >= ms) resolve();
        else setTimeout(check, ms - idle + 5);
      };
      check();
    });
  },

  edit(range, text) {
    editor.executeEdits('bench', [{ range, text, forceMoveMarkers: true }]);
    editor.focus();
  },

  rows(label) {
    return waitFor(() => {
      const w = document.querySelector('.suggest-widget');
      return visible(w) && [...w.querySelectorAll('.monaco-list-row')].some((r) => r.textContent.includes(label));
    });
  },

  hover(text) {
    return waitFor(() => [...document.querySelectorAll('.monaco-hover')].some((h) => visible(h) && h.textContent.includes(text)));
  },

  split(method, t0, shown, editedAt) {
    const req = frameAfter(t0, isMethod(method));
    const ans = req && answerTo(req);
    const change = frameAfter(t0, isMethod('textDocument/didChange'));
    const prefix = editedAt === undefined ? null : frameAfter(editedAt, isMethod('textDocument/didChange'));
    const calls = probe.calls.filter((c) => c.called >= t0 && c.resolved !== null && c.resolved <= shown
      && c.method === (method === 'textDocument/hover' ? 'provideHover' : 'provideCompletionItems'));
    const call = calls.length ? calls[calls.length - 1] : null;
    return {
      total: shown - t0,
      toProvider: call ? call.called - t0 : null,
      toRequest: req ? req.t - (call ? call.called : t0) : null,
      toAnswer: ans ? ans.t - req.t : null,
      toResolved: ans && call ? call.resolved - ans.t : null,
      toShown: call ? shown - call.resolved : ans ? shown - ans.t : null,
      change: change && (!req || change.t <= req.t) ? change.t - t0 : null,
      prefixChange: prefix ? prefix.t - editedAt : null,
      prefixHeld: prefix ? prefix.t >= t0 : null,
      answerBytes: ans ? ans.data.length : null,
    };
  },

  cold() {
    const m = probe.marks;
    const at = (f) => (f ? f.t : null);
    const readyFrame = frameAfter(0, (f) => !f.out && f.data.includes('"status":"ready"'));
    const init = frameAfter(0, isMethod('initialize'));
    const diag = frameAfter(0, (f) => !f.out && f.data.includes('"textDocument/publishDiagnostics"') && !f.data.includes('"diagnostics":[]'));
    const busy = (from, to) => (from === null || to === null ? null : probe.longTasks
      .reduce((sum, lt) => sum + Math.max(0, Math.min(lt.end, to) - Math.max(lt.start, from)), 0));
    return {
      total: m.firstError,
      monaco: m.monaco,
      lsp: null,
      client: m.client,
      socket: m.socket,
      ready: at(readyFrame),
      initializeSent: at(init),
      initializeAnswered: init ? at(answerTo(init)) : null,
      initialized: at(frameAfter(0, isMethod('initialized'))),
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
      wasm: null,
    };
  },
};
probe.marks.ready = performance.now();
