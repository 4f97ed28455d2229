// The demo page: a Files tree, open-file tabs, one Monaco editor, and
// lsp.wasm giving it language-server intelligence through the relay.
// Everything LSP — states, texts, progress, policy, providers, document and
// save synchronization, navigation targets — lives in lsp.wasm; this file
// only renders what it is given and forwards the user's actions.

import { mountNotices } from './notices.js';

const config = await (await fetch('/config.json')).json();
const sessions = config.sessions || [{ id: config.sessionId, lsp: true }];
const params = new URLSearchParams(location.search);
// The active session: ?session= picks one; others without LSP show
// Monaco's own intelligence for the same files.
let sessionId = sessions.some((s) => s.id === params.get('session')) ? params.get('session') : config.sessionId;
const lspSession = (id) => (sessions.find((s) => s.id === id) || {}).lsp !== false;

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
const locale = params.get('locale') || navigator.language;
// configureLSP hands lsp.wasm the page: Monaco, the relay, the settings and
// the page's navigation; reconfigure (below) calls it again after dispose.
function configureLSP() {
  lsp.configure({
    monaco,
    relayURL: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/lsp`,
    locale,
    settings,
    // Go to definition, references and Monaco's own targets open here.
    openFile: (target) => navigateTo(target),
    openTabs: () => [...tabs.values()].filter((t) => t.sessionId === sessionId).map((t) => ({ id: t.id, path: t.path })),
    // Placeholder models for targets in files without one (peek previews).
    readFile: (session, path) => fetch(`/api/v1/workspace/file?path=${encodeURIComponent(path)}`).then((r) => (r.ok ? r.text() : null)),
  });
  mountNotices(lsp, document.getElementById('lsp-notices'));
}
configureLSP();

// Semantic tokens get their own colours, so they are visible (and testable)
// next to Monaco's syntax colouring.
monaco.editor.defineTheme('kandev', {
  base: 'vs',
  inherit: true,
  semanticHighlighting: true,
  rules: [
    { token: 'function', foreground: 'b5179e' },
    { token: 'method', foreground: 'b5179e' },
    { token: 'namespace', foreground: '0f7b8a' },
    { token: 'class', foreground: '7a3e9d' },
    { token: 'type', foreground: '7a3e9d' },
    { token: 'parameter', foreground: '8a5a00' },
  ],
  colors: {},
});

const editor = monaco.editor.create(document.getElementById('editor'), {
  model: null,
  automaticLayout: true,
  fontSize: 14,
  minimap: { enabled: false },
  theme: 'kandev',
  'semanticHighlighting.enabled': true,
  // Suggestions come from language servers (or Monaco's language workers),
  // not from words found in open documents.
  wordBasedSuggestions: 'off',
});

// Open files: one tab per (session, path); a tab keeps its model.
const tabs = new Map(); // id -> { id, sessionId, path, model, doc, language, savedVersion, state }
let current = null; // the active tab
const tabId = (session, path) => `${session}:${path}`;

// --- sessions ---------------------------------------------------------------

const sessionSelect = document.getElementById('session');
for (const s of sessions) {
  const o = document.createElement('option');
  o.value = s.id;
  o.textContent = s.lsp ? s.id : `${s.id} (no LSP)`;
  sessionSelect.append(o);
}
sessionSelect.value = sessionId;
sessionSelect.addEventListener('change', () => switchSession(sessionSelect.value));

function switchSession(id) {
  sessionId = id;
  sessionSelect.value = id;
  document.getElementById('session-note').textContent = lspSession(id) ? '' : 'Monaco only, no language server';
  const first = [...tabs.values()].find((t) => t.sessionId === id);
  if (first) activate(first); else showNothing();
  renderTabs();
}

// --- status control -------------------------------------------------------

const statusEl = document.getElementById('lsp-status');
const popover = document.getElementById('lsp-popover');
const actionEl = document.getElementById('lsp-action');

function currentView() {
  const lang = current && current.language;
  if (!lang) return null;
  if (typeof lsp.view === 'function') return lsp.view(current.sessionId, lang);
  const s = lsp.status(current.sessionId, lang); // older builds: state only
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

// reconfigure tears lsp.wasm down (dispose) and sets it up again, reopening
// the open tabs' documents: Monaco is left with exactly one set of providers.
function reconfigure() {
  lsp.dispose();
  configureLSP();
  lsp.onStatus(() => renderStatus());
  for (const t of tabs.values()) {
    t.doc = lspSession(t.sessionId) ? lsp.openDocument({ sessionId: t.sessionId, path: t.path, model: t.model }) : null;
  }
  renderStatus();
}

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
  if (typeof fn === 'function') fn(current.sessionId, current.language);
});

// --- files tree -------------------------------------------------------------

// The tree is built from the workspace's file list; a folder renders its
// children the first time it expands.
const treeRoot = { dirs: new Map(), files: [] };
function addToTree(path) {
  const parts = path.split('/');
  let node = treeRoot;
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = parts.slice(0, i + 1).join('/');
    if (!node.dirs.has(parts[i])) node.dirs.set(parts[i], { path: dir, dirs: new Map(), files: [] });
    node = node.dirs.get(parts[i]);
  }
  node.files.push(path);
}

function renderLevel(ul, node) {
  for (const [name, dir] of [...node.dirs.entries()].sort()) {
    const li = document.createElement('li');
    li.setAttribute('role', 'none');
    const b = document.createElement('button');
    b.className = 'folder';
    b.textContent = name;
    b.dataset.dir = dir.path;
    b.setAttribute('aria-expanded', 'false');
    b.addEventListener('click', () => toggleFolder(dir.path));
    const sub = document.createElement('ul');
    sub.setAttribute('role', 'group');
    sub.hidden = true;
    li.append(b, sub);
    ul.append(li);
  }
  for (const path of node.files.sort()) {
    const li = document.createElement('li');
    li.setAttribute('role', 'none');
    const b = document.createElement('button');
    b.className = 'file';
    b.textContent = path.split('/').pop();
    b.title = path;
    b.dataset.path = path;
    b.setAttribute('aria-current', 'false');
    b.addEventListener('click', () => openFile(path));
    li.append(b);
    ul.append(li);
  }
}

function findDir(path) {
  let node = treeRoot;
  for (const part of path.split('/')) {
    node = node && node.dirs.get(part);
  }
  return node;
}

// expandFolder loads (renders) and opens one folder.
function expandFolder(path) {
  const b = document.querySelector(`#files button.folder[data-dir="${CSS.escape(path)}"]`);
  if (!b) return;
  const sub = b.nextElementSibling;
  if (!sub.dataset.loaded) {
    renderLevel(sub, findDir(path));
    sub.dataset.loaded = 'true';
  }
  sub.hidden = false;
  b.setAttribute('aria-expanded', 'true');
}

function toggleFolder(path) {
  const b = document.querySelector(`#files button.folder[data-dir="${CSS.escape(path)}"]`);
  if (b && b.getAttribute('aria-expanded') === 'true') {
    b.nextElementSibling.hidden = true;
    b.setAttribute('aria-expanded', 'false');
  } else {
    expandFolder(path);
  }
}

function markActiveFile(path) {
  for (const b of document.querySelectorAll('#files button.file')) {
    b.setAttribute('aria-current', String(b.dataset.path === path));
  }
}

// --- tabs -------------------------------------------------------------------

function renderTabs() {
  const bar = document.getElementById('tabs');
  bar.replaceChildren(...[...tabs.values()].map((t) => {
    const b = document.createElement('button');
    b.setAttribute('role', 'tab');
    b.className = 'tab';
    b.dataset.id = t.id;
    b.dataset.path = t.path;
    b.dataset.session = t.sessionId;
    b.setAttribute('aria-selected', String(t === current));
    b.textContent = (t.sessionId === config.sessionId ? '' : `${t.sessionId}: `) + t.path + (isDirty(t) ? ' ●' : '');
    b.addEventListener('click', () => { if (t.sessionId !== sessionId) switchSession(t.sessionId); activate(t); });
    return b;
  }));
}

function modelURI(session, path) {
  // Session-scoped model identity: two sessions may hold the same path.
  return monaco.Uri.from({ scheme: 'kandev', authority: session, path: '/' + path });
}

const isDirty = (t) => t.state === 'failed' || t.model.getVersionId() !== t.savedVersion;

// openFile opens path in the active session, or activates its tab.
async function openFile(path, session = sessionId) {
  let t = tabs.get(tabId(session, path));
  if (!t) {
    const res = await fetch(`/api/v1/workspace/file?path=${encodeURIComponent(path)}`);
    if (!res.ok) throw new Error(`open ${path}: HTTP ${res.status}`);
    const text = await res.text();
    t = tabs.get(tabId(session, path)); // opened meanwhile
    if (!t) {
      const model = monaco.editor.getModel(modelURI(session, path)) ||
        monaco.editor.createModel(text, undefined, modelURI(session, path));
      const doc = lspSession(session) ? lsp.openDocument({ sessionId: session, path, model }) : null;
      t = { id: tabId(session, path), sessionId: session, path, model, doc, language: doc ? doc.language : null, savedVersion: model.getVersionId(), state: 'saved' };
      model.onDidChangeContent(() => { if (t === current) renderSaveState(); renderTabs(); });
      tabs.set(t.id, t);
    }
  }
  activate(t);
  return t;
}

function activate(t) {
  current = t;
  editor.setModel(t.model);
  document.getElementById('current-file').textContent = t.path;
  document.getElementById('close-file').hidden = false;
  markActiveFile(t.path);
  renderTabs();
  renderSaveState();
  renderStatus();
  editor.focus();
}

function showNothing() {
  current = null;
  editor.setModel(null);
  markActiveFile(null);
  document.getElementById('current-file').textContent = 'No file open';
  document.getElementById('close-file').hidden = true;
  popover.hidden = true;
  renderSaveState();
  renderStatus();
}

// closeFile closes the active tab: a later open remounts it.
function closeFile() {
  if (!current) return;
  const t = current;
  tabs.delete(t.id);
  editor.setModel(null);
  if (t.doc) t.doc.close();
  t.model.dispose();
  const next = [...tabs.values()].find((x) => x.sessionId === sessionId);
  if (next) activate(next); else showNothing();
  renderTabs();
}
document.getElementById('close-file').addEventListener('click', closeFile);

// navigateTo is lsp.wasm's openFile: a definition or reference target in
// the workspace. The tree loads and expands every ancestor and marks the
// target; an open tab (target.tabId) is activated, never opened twice; the
// selection is revealed in the centre.
async function navigateTo(target) {
  if (target.sessionId && target.sessionId.toLowerCase() !== sessionId.toLowerCase()) {
    const s = sessions.find((x) => x.id.toLowerCase() === target.sessionId.toLowerCase());
    if (!s) return false;
    switchSession(s.id);
  }
  for (const dir of target.ancestors || []) expandFolder(dir);
  const t = (target.tabId && tabs.get(target.tabId)) || await openFile(target.path);
  activate(t);
  if (target.selection) {
    editor.setSelection(target.selection);
    editor.revealRangeInCenter(target.selection);
  }
  return true;
}

// --- saving -----------------------------------------------------------------

function renderSaveState() {
  const el = document.getElementById('save-state');
  if (!current) {
    el.textContent = '';
    el.dataset.state = '';
    return;
  }
  let state = current.state;
  if (state !== 'saving' && state !== 'failed') state = isDirty(current) ? 'dirty' : 'saved';
  el.dataset.state = state;
  el.textContent = { saving: 'Saving…', failed: 'Save failed', dirty: 'Unsaved changes', saved: 'Saved' }[state];
}

// save writes the active tab through the agent's workspace file route and
// reports the outcome to lsp.wasm, which synchronizes the language servers:
// the final didChange, then didSave (with text only when the buffer still
// is what was written).
async function save() {
  const t = current;
  if (!t) return;
  const persistedVersion = t.model.getVersionId();
  const text = t.model.getValue();
  t.state = 'saving';
  renderSaveState();
  let ok = false;
  try {
    const res = await fetch(`/api/v1/workspace/file?path=${encodeURIComponent(t.path)}`, { method: 'PUT', body: text });
    ok = res.ok;
  } catch (e) {
    console.error(e);
  }
  const outcome = lsp.saved({ model: t.model, ok, persistedVersion, liveVersion: t.model.getVersionId(), text });
  if (ok) t.savedVersion = persistedVersion;
  t.state = ok ? (outcome && outcome.dirty ? 'dirty' : 'saved') : 'failed';
  if (t === current) renderSaveState();
  renderTabs();
}
editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);

// --- settings ---------------------------------------------------------------

const dialog = document.getElementById('settings');
const runtime = await (await fetch('/api/v1/lsp/runtime')).json().catch(() => ({ languages: [] }));
// checkboxes fills box with one checkbox per language id, checked for those in on.
function checkboxes(box, name, ids, on) {
  box.replaceChildren(...ids.map((id) => {
    const label = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.name = name;
    cb.value = id;
    cb.checked = on.has(id);
    label.append(cb, ` ${id}`);
    return label;
  }));
}
document.getElementById('open-settings').addEventListener('click', () => {
  const ids = (runtime.languages || []).map((l) => l.id || l.language);
  checkboxes(document.getElementById('auto-start'), 'auto-start', ids, new Set(settings.lsp_auto_start_languages || []));
  // Only the languages the runtime says may be saved as auto-install (never Kotlin).
  checkboxes(document.getElementById('auto-install'), 'auto-install', runtime.autoInstallable || [],
    new Set(settings.lsp_auto_install_languages || []));
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
    lsp_auto_install_languages: [...document.querySelectorAll('#auto-install input:checked')].map((c) => c.value),
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
for (const path of (Array.isArray(list) ? list : list.files)) addToTree(path);
renderLevel(document.getElementById('files'), treeRoot);
switchSession(sessionId);

// For tests and the curious: the page's handles.
window.demo = {
  monaco, editor, lsp, openFile, closeFile, navigateTo, switchSession, save, tabs, reconfigure,
  get sessionId() { return sessionId; },
};
document.body.dataset.ready = 'true';
