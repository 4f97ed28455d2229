// The demo page: a Files list, one Monaco editor, and lsp.wasm giving it
// language-server intelligence through the relay. Everything LSP — states,
// texts, progress, policy — lives in lsp.wasm; this file only renders what
// it is given and forwards the user's clicks.

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

async function loadSettings() {
  const res = await fetch('/api/v1/user/settings');
  return res.ok ? res.json() : {};
}
let settings = await loadSettings();
const locale = new URLSearchParams(location.search).get('locale') || navigator.language;
lsp.configure({
  monaco,
  relayURL: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`,
  locale,
  settings,
});

const editor = monaco.editor.create(document.getElementById('editor'), {
  model: null,
  automaticLayout: true,
  fontSize: 14,
  minimap: { enabled: false },
  'semanticHighlighting.enabled': true,
});

let current = null; // { path, model, language }
const docs = new Map(); // path -> { model, doc }

// --- status control -------------------------------------------------------

const statusEl = document.getElementById('lsp-status');
const popover = document.getElementById('lsp-popover');
const actionEl = document.getElementById('lsp-action');

function currentView() {
  const lang = current && current.language;
  if (!lang) return null;
  if (typeof lsp.view === 'function') return lsp.view(sessionId, lang);
  const s = lsp.status(sessionId, lang); // older builds: state only
  return s && { state: s.state, summary: `${lang}: ${s.state}`, details: [], action: null, closeCode: s.closeCode };
}

function renderStatus() {
  const lang = current && current.language;
  const v = currentView();
  statusEl.hidden = !lang;
  statusEl.dataset.state = v ? v.state : 'off';
  statusEl.dataset.closeCode = v && v.closeCode ? String(v.closeCode) : '';
  statusEl.textContent = v ? v.summary : (lang ? `${lang}: off` : 'LSP off');
  document.getElementById('lsp-summary').textContent = v ? v.summary : '';
  const details = document.getElementById('lsp-details');
  details.replaceChildren(...((v && v.details) || []).map((line) => {
    const li = document.createElement('li');
    li.textContent = line;
    return li;
  }));
  renderProgress(v && v.progress);
  actionEl.hidden = !(v && v.action);
  if (v && v.action) {
    actionEl.dataset.action = v.action;
    actionEl.textContent = v.actionLabel || v.action[0].toUpperCase() + v.action.slice(1);
  }
}

// The progress bar only: the texts (title, message, percentage, elapsed
// time, other items) come ready-made in the view's details.
function renderProgress(p) {
  const el = document.getElementById('lsp-progress');
  el.hidden = !p;
  if (!p) return;
  const bar = el.querySelector('.bar');
  const known = typeof p.percentage === 'number';
  bar.classList.toggle('indeterminate', !known);
  bar.querySelector('span').style.width = known ? `${p.percentage}%` : '';
  if (known) bar.setAttribute('aria-valuenow', String(p.percentage)); else bar.removeAttribute('aria-valuenow');
  bar.setAttribute('aria-label', p.title || 'Server-reported work');
}

lsp.onStatus(() => renderStatus());

statusEl.addEventListener('click', () => {
  const open = popover.hidden;
  popover.hidden = !open;
  statusEl.setAttribute('aria-expanded', String(open));
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !popover.hidden) {
    popover.hidden = true;
    statusEl.setAttribute('aria-expanded', 'false');
    statusEl.focus();
  }
});
actionEl.addEventListener('click', () => {
  if (!current || !current.language) return;
  const fn = lsp[actionEl.dataset.action];
  if (typeof fn === 'function') fn(sessionId, current.language);
});

// --- files ------------------------------------------------------------------

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
  document.getElementById('close-file').hidden = false;
  for (const b of document.querySelectorAll('#files button')) {
    b.setAttribute('aria-current', String(b.dataset.path === path));
  }
  renderStatus();
  editor.focus();
}

// closeFile unmounts the editor's document: a later open remounts it.
function closeFile() {
  if (!current) return;
  const entry = docs.get(current.path);
  docs.delete(current.path);
  editor.setModel(null);
  if (entry) {
    if (entry.doc) entry.doc.close();
    entry.model.dispose();
  }
  for (const b of document.querySelectorAll('#files button')) b.setAttribute('aria-current', 'false');
  current = null;
  document.getElementById('current-file').textContent = 'No file open';
  document.getElementById('close-file').hidden = true;
  popover.hidden = true;
  renderStatus();
}
document.getElementById('close-file').addEventListener('click', closeFile);

async function save() {
  if (!current) return;
  const el = document.getElementById('save-state');
  const text = current.model.getValue();
  el.textContent = 'Saving…';
  const res = await fetch(`/api/v1/workspace/file?path=${encodeURIComponent(current.path)}`, { method: 'PUT', body: text });
  el.textContent = res.ok ? 'Saved' : `Save failed (HTTP ${res.status})`;
}
editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);

// --- settings ---------------------------------------------------------------

const dialog = document.getElementById('settings');
const runtime = await (await fetch('/api/v1/lsp/runtime')).json().catch(() => ({ languages: [] }));
document.getElementById('open-settings').addEventListener('click', () => {
  const box = document.getElementById('auto-start');
  const on = new Set(settings.lsp_auto_start_languages || []);
  box.replaceChildren(...(runtime.languages || []).map((l) => {
    const id = l.id || l.language;
    const label = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.name = 'auto-start';
    cb.value = id;
    cb.checked = on.has(id);
    label.append(cb, ` ${id}`);
    return label;
  }));
  document.getElementById('server-configs').value = JSON.stringify(settings.lsp_server_configs || {}, null, 2);
  document.getElementById('settings-error').textContent = '';
  dialog.showModal();
});
document.getElementById('save-settings').addEventListener('click', async (e) => {
  e.preventDefault();
  const err = document.getElementById('settings-error');
  let configs;
  try {
    configs = JSON.parse(document.getElementById('server-configs').value || '{}');
  } catch (x) {
    err.textContent = `Configuration is not valid JSON: ${x.message}`;
    return;
  }
  const next = {
    ...settings,
    lsp_auto_start_languages: [...document.querySelectorAll('#auto-start input:checked')].map((c) => c.value),
    lsp_server_configs: configs,
  };
  const res = await fetch('/api/v1/user/settings', {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(next),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    err.textContent = body.error || `Saving failed (HTTP ${res.status})`;
    return;
  }
  settings = await res.json().catch(() => next);
  if (typeof lsp.setSettings === 'function') lsp.setSettings(settings);
  dialog.close();
});

// --- start-up ---------------------------------------------------------------

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
window.demo = { monaco, editor, lsp, openFile, closeFile, sessionId };
document.body.dataset.ready = 'true';
