// The demo page: a Files list, one Monaco editor, and lsp.wasm giving it
// language-server intelligence through the relay. Everything LSP lives in
// lsp.wasm; this file only wires the page to it.

const config = await (await fetch('/config.json')).json();
const sessionId = config.sessionId;
document.getElementById('session-id').textContent = sessionId;

const monaco = await new Promise((resolve, reject) => {
  window.require.config({ paths: { vs: '/monaco/vs' } });
  window.require(['vs/editor/editor.main'], () => resolve(window.monaco), reject);
});

const go = new Go();
const { instance } = await WebAssembly.instantiateStreaming(fetch('/lsp.wasm'), go.importObject);
go.run(instance); // registers globalThis.kandevLSP before it returns
const lsp = globalThis.kandevLSP;
lsp.configure({
  monaco,
  relayURL: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`,
});

const editor = monaco.editor.create(document.getElementById('editor'), {
  model: null,
  automaticLayout: true,
  fontSize: 14,
  minimap: { enabled: false },
});

const statusEl = document.getElementById('lsp-status');
let current = null; // { path, model, language }
const docs = new Map(); // path -> { model, doc }

function renderStatus() {
  const lang = current && current.language;
  const s = lang ? lsp.status(sessionId, lang) : null;
  const state = s ? s.state : 'off';
  statusEl.dataset.state = state;
  statusEl.dataset.closeCode = s && s.closeCode ? String(s.closeCode) : '';
  statusEl.textContent = lang ? `${lang}: ${state}${s && s.closeCode ? ` (${s.closeCode})` : ''}` : 'LSP off';
}
lsp.onStatus(() => renderStatus());

function modelURI(path) {
  // Session-scoped model identity: two sessions may hold the same path.
  return monaco.Uri.from({ scheme: 'kandev', authority: sessionId, path: '/' + path });
}

async function openFile(path) {
  let entry = docs.get(path);
  if (!entry) {
    const res = await fetch(`/api/v1/workspace/file?path=${encodeURIComponent(path)}`);
    if (!res.ok) throw new Error(`open ${path}: HTTP ${res.status}`);
    const model = monaco.editor.createModel(await res.text(), undefined, modelURI(path));
    const doc = lsp.openDocument({ sessionId, path, model });
    entry = { model, doc };
    docs.set(path, entry);
  }
  current = { path, model: entry.model, language: entry.doc ? entry.doc.language : null };
  editor.setModel(entry.model);
  document.getElementById('current-file').textContent = path;
  for (const b of document.querySelectorAll('#files button')) {
    b.setAttribute('aria-current', String(b.dataset.path === path));
  }
  renderStatus();
  editor.focus();
}

async function save() {
  if (!current) return;
  const el = document.getElementById('save-state');
  const text = current.model.getValue();
  el.textContent = 'Saving…';
  const res = await fetch(`/api/v1/workspace/file?path=${encodeURIComponent(current.path)}`, { method: 'PUT', body: text });
  el.textContent = res.ok ? 'Saved' : `Save failed (HTTP ${res.status})`;
}
editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);

const list = await (await fetch('/api/v1/workspace/files')).json();
const files = Array.isArray(list) ? list : list.files;
const ul = document.getElementById('files');
for (const path of files) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.textContent = path;
  b.dataset.path = path;
  b.addEventListener('click', () => openFile(path));
  li.append(b);
  ul.append(li);
}

// For tests and the curious: the page's handles.
window.demo = { monaco, editor, lsp, openFile, sessionId };
document.body.dataset.ready = 'true';
