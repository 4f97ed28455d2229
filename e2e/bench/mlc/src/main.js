// The benchmark page of monaco-languageclient: one editor on main.go of the
// demo session, as an integrator following its README builds it in classic
// mode (monaco-vscode-api's editor services, Monarch rather than TextMate,
// no workbench), connected through the same relay route and agent as
// lsp.wasm and monaco.lsp on e2e/bench/page/bench.html. Like that page's
// baseline, the client is given what lsp.wasm gets from the agent: the
// status frames are read off the socket first (the client starts at
// `ready`) and initialize carries the same root.
//
// The page only loads and exposes; e2e/bench drives it through the same
// window.bench as bench.html's (../../page/driver.js), so one driver
// measures every client.

import * as vscode from 'vscode';
import * as monaco from '@codingame/monaco-vscode-editor-api';
import { MonacoVscodeApiWrapper } from 'monaco-languageclient/vscodeApiWrapper';
import { LanguageClientWrapper } from 'monaco-languageclient/lcwrapper';
import { EditorApp } from 'monaco-languageclient/editorApp';
import { configureDefaultWorkerFactory } from 'monaco-languageclient/workerFactory';
import { toSocket, WebSocketMessageReader, WebSocketMessageWriter } from 'vscode-ws-jsonrpc';
import { install } from '../../page/driver.js';

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

// openFile opens one more file of the session as an editor tab would: a
// model of its text, which the client opens as a document of its selector.
function openFile(p, text) {
  const m = monaco.editor.createModel(text, language, monaco.Uri.parse(`${root}/${p}`));
  return () => m.dispose();
}

install({ client: 'mlc', monaco, editor, model, openFile });
probe.marks.ready = performance.now();
