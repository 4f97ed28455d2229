// The demo page: a Files tree, open-file tabs, one Monaco editor, an
// application status bar, the Editors settings page, and lsp.wasm giving it
// language-server intelligence through the relay.
// Everything LSP — states, texts, progress, policy, providers, document and
// save synchronization, navigation targets, where the status control goes
// and for which pair — lives in lsp.wasm; this file only renders what it is
// given and forwards the user's actions. Its texts come from lsp.wasm's
// catalogs (lsp.text), so the locale switch changes all of them.
// @ts-check

import { config, monaco, lsp } from './platform.js';
import { createStatusControl } from './status.js';
import { installersOf, installerDetails } from './installers.js';
import { createStatusBar } from './statusbar.js';
import { createSettingsPage } from './settings.js';

// Every id asked for is in index.html.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

import { mountNotices } from './notices.js';
import { mountOutline } from './outline.js';
import { mountDiskNotices } from './disknotices.js';
import { createProblemsPanel } from './problems.js';
import { createSymbolPicker } from './symbols.js';
import { createHierarchyPanel } from './hierarchy.js';
import { createSearchPanel } from './search.js';
import { loadTabs, saveTabs } from './tabstore.js';
import { registerGoModules } from './gomod.js';
import { registerComponents } from './components.js';
import { registerToml } from './toml.js';
import { pageText } from './pagetexts.js';
import { FileTree } from './filetree.js';
import { createExternalOpener } from './external.js';
import { createTabFocus } from './tabfocus.js';
import { createFileOperations } from './fileops.js';
import { tabId, fileURL, libraryURL, modelURI, tabName, isDirty, decode } from './tabs.js';

const sessions = config.sessions || [{ id: config.sessionId, lsp: true }];
const params = new URLSearchParams(location.search);
// The active session: ?session= picks one; others without LSP show
// Monaco's own intelligence for the same files.
let sessionId = sessions.some((s) => s.id === params.get('session')) ? /** @type {string} */ (params.get('session')) : config.sessionId;
const lspSession = (/** @type {string} */ id) => (sessions.find((s) => s.id === id) || { lsp: true }).lsp !== false;

async function loadSettings() {
  const res = await fetch('/api/v1/user/settings');
  return res.ok ? res.json() : {};
}
let settings = await loadSettings();

// The locale: ?locale=, else the one picked here before, else the browser's.
const LOCALE_KEY = 'kandev.demo.locale';
let locale = params.get('locale') || localStorage.getItem(LOCALE_KEY) || navigator.language;
// The Problems panel: the active session's files with diagnostics; a row
// opens its file in a tab at the problem, as go to definition does.
const problems = createProblemsPanel({
  lsp,
  monaco,
  t: (key, args) => lsp.text(key, args),
  sessionId: () => sessionId,
  open: (target) => navigateTo(target),
  panel: $('problems-panel'),
  list: $('problems'),
  empty: $('problems-empty'),
  toggle: $('toggle-problems'),
  badge: $('problems-badge'),
});

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
    // A server's window/showDocument of a web page: offered in a notice.
    openExternal: (uri, options) => openExternal(uri, options),
    // Placeholder models for targets in files without one (peek previews),
    // and the text of files a workspace edit (rename, code action) changes.
    readFile: (session, path) => fetch(fileURL(path)).then((r) => (r.ok ? r.text() : null)),
    // The workspace's files, for the Markdown server's links and checks.
    listFiles: () => fetch('/api/v1/workspace/files').then((r) => (r.ok ? r.json() : null)).then((l) => (l && (Array.isArray(l) ? l : l.files))),
    // Definitions in the Go toolchain, a dependency or a server's own
    // libraries: read-only tabs, read through the task host's library route
    // (which serves only its library roots).
    readLibraryFile: (session, path) => fetch(libraryURL(path)).then((r) => (r.ok ? r.text() : null)),
    // A workspace edit changed a file: it becomes a dirty tab to save.
    onEdit: (file) => adoptEdited(file),
    // A workspace edit's file operations (the TypeScript server's "Move to
    // a new file" creates one): made on the task host, the tree and the
    // tabs following.
    createFile: (s, path, o) => fileOps.resourceOp(s, { kind: 'create', path }, o),
    renameFile: (s, from, to, o) => fileOps.resourceOp(s, { kind: 'rename', path: from, to }, o),
    deleteFile: (s, path, o) => fileOps.resourceOp(s, { kind: 'delete', path }, o),
    // Save formats first (lsp.willSave) where the server formats.
    formatOnSave: true,
  });
  locale = lsp.setLocale(locale); // the locale in use: en, de or en-XA
  mountNotices(lsp, $('lsp-notices'));
  // Open files changed on the task host: reloaded, or a notice.
  mountDiskNotices(lsp, $('lsp-notices'), {
    tabs: () => tabs,
    t: (key, args) => lsp.text(key, args),
    changed: (t) => { if (t === current) renderSaveState(); renderTabs(); },
  });
  problems.listen();
  problems.render(); // a new configure starts with an empty list
}
configureLSP();
// tr is a text of the locale: lsp.wasm's catalog's, else the page's own
// (pagetexts.js) for the few keys the catalog does not have.
/** @type {import('./platform.js').Texts} */
const tr = (key, args) => {
  const text = lsp.text(key, args);
  return text === key ? pageText(locale, key, args) ?? text : text;
};

// openExternal shows a server's request to open a web page as a notice
// (external.js).
const openExternal = createExternalOpener({ t: tr, notices: $('lsp-notices'), focusEditor: () => { if (mountedModel()) editor.focus(); } });

// The layout the page is in. Phone: files open in a read-only viewer
// without Monaco (and so without language servers); below 900 px the Files
// tree becomes a panel that opens on demand.
const phoneMQ = matchMedia('(max-width: 599px)');
const coarseMQ = matchMedia('(pointer: coarse)');
const narrowMQ = matchMedia('(max-width: 899px)');
const SHOW_BAR_KEY = 'kandev.demo.showStatusBar';
let showStatusBar = localStorage.getItem(SHOW_BAR_KEY) !== '0';
const layout = () => ({ phone: phoneMQ.matches, coarse: coarseMQ.matches, statusBar: showStatusBar });

// Semantic tokens get their own colours, so they are visible (and testable)
// next to Monaco's syntax colouring.
// Monaco's theme service reads semanticHighlighting; its IStandaloneThemeData type lacks it.
registerGoModules(monaco);
registerComponents(monaco);
registerToml(monaco);
monaco.editor.defineTheme('kandev', /** @type {import('monaco-editor').editor.IStandaloneThemeData & { semanticHighlighting: boolean }} */ ({
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
  // Inlay hints (parameter names, types) in a colour that reads on white:
  // the base theme's grey is fainter than text may be.
  colors: { 'editorInlayHint.foreground': '#57606a', 'editorInlayHint.background': '#f0f2f4' },
}));

const editor = monaco.editor.create($('editor'), {
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
mountOutline(lsp, editor, $('outline'));

// --- the Tab key: indenting, or moving the focus -----------------------------

// Tab-focus mode (tabfocus.js): Tab moves the focus instead of indenting.
const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
/** @type {import('monaco-editor').editor.IStandaloneDiffEditor | null} */
let diffEditor = null; // made on first use (renderDiff)
const tabFocus = createTabFocus({
  monaco, t: tr, isMac, button: $('toggle-tab-focus'), announce: $('page-announce'),
  editors: () => (diffEditor ? [editor, diffEditor] : [editor]),
});

// --- workspace symbols and hierarchies ----------------------------------------

// kandevLsp: the file on screen has a language-server document, so the
// actions below have a server to ask.
const lspKey = editor.createContextKey('kandevLsp', /** @type {boolean} */ (false));

// symbolModel is the model whose server Go to Symbol in Workspace asks:
// the active file's, else another open file's of the session (on a phone
// the files on screen have none).
function symbolModel() {
  const served = (/** @type {Tab | null} */ t) => t && t.sessionId === sessionId && t.view === 'monaco' && t.doc ? t.model : null;
  return served(current) || [...tabs.values()].map(served).find(Boolean) || null;
}

const symbolPicker = createSymbolPicker({
  lsp,
  monaco,
  t: tr,
  model: symbolModel,
  open: (target) => navigateTo(target),
  restore: () => (mountedModel() ? editor.focus() : $('open-symbols').focus()),
  root: $('symbol-picker'),
  input: /** @type {HTMLInputElement} */ ($('symbol-query')),
  status: $('symbol-status'),
  list: $('symbol-results'),
  opener: $('open-symbols'),
});

const hierarchy = createHierarchyPanel({
  lsp,
  monaco,
  t: tr,
  open: (target) => navigateTo(target),
  panel: $('hierarchy-panel'),
  title: $('hierarchy-title'),
  directions: $('hierarchy-directions'),
  tree: $('hierarchy-tree'),
  empty: $('hierarchy-empty'),
  closeButton: $('hierarchy-close'),
  onClose: () => { if (mountedModel()) editor.focus(); },
});

// The content search over the active session's workspace; a hit opens in
// the session it was found for.
const search = createSearchPanel({
  t: tr,
  sessionId: () => sessionId,
  open: (target) => navigateTo(target),
  panel: $('search-panel'),
  form: /** @type {HTMLFormElement} */ ($('search-form')),
  input: /** @type {HTMLInputElement} */ ($('search-query')),
  status: $('search-status'),
  list: $('search-results'),
  toggle: $('toggle-search'),
  closeButton: $('search-close'),
  onClose: () => { if (mountedModel()) editor.focus(); },
});

// The editor's actions, in its context menu and its command palette (F1)
// with VS Code's keys; registered again when the locale changes their
// labels. Go to Symbol in Workspace is Ctrl+O (⌘O on a Mac), as in
// Eclipse Theia in a browser: a browser keeps VS Code's Ctrl+T for a new
// tab and never lets the page have it, while Ctrl+O (open a local file)
// is the page's to take, and Monaco binds nothing to it. Ctrl+T stays as
// a second key for an installed app's window, where the page gets it.
const symbolsBinding = monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyO;
const symbolsKey = isMac ? '⌘O' : 'Ctrl+O';
// Outside the editor too (a panel, the toolbar, the picker itself), the
// key opens the picker rather than the browser's file dialog, wherever
// the Symbols button is shown; in the editor its action has it first.
document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.key.toLowerCase() !== 'o' || e.altKey || e.shiftKey) return;
  if (!(isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey) || $('open-symbols').hidden) return;
  e.preventDefault();
  symbolPicker.open();
});
/** @type {import('monaco-editor').IDisposable[]} */
let actions = [];
function registerActions() {
  for (const a of actions) a.dispose();
  const { KeyMod, KeyCode } = monaco;
  actions = [
    editor.addAction({
      id: 'kandev.toggleTabFocus',
      label: tr('page.tabFocus.action'),
      keybindings: [tabFocus.binding],
      run: () => tabFocus.toggle(),
    }),
    editor.addAction({
      id: 'kandev.workspaceSymbols',
      label: tr('symbols.title'),
      keybindings: [symbolsBinding, KeyMod.CtrlCmd | KeyCode.KeyT],
      precondition: 'kandevLsp',
      run: () => symbolPicker.open(),
    }),
    editor.addAction({
      id: 'kandev.callHierarchy',
      label: tr('hierarchy.call.action'),
      keybindings: [KeyMod.Shift | KeyMod.Alt | KeyCode.KeyH],
      precondition: 'kandevLsp',
      contextMenuGroupId: 'navigation',
      contextMenuOrder: 1.5,
      run: (ed) => hierarchy.show('call', ed.getModel(), /** @type {import('monaco-editor').IPosition} */ (ed.getPosition())), // with a model
    }),
    editor.addAction({
      id: 'kandev.typeHierarchy',
      label: tr('hierarchy.type.action'),
      precondition: 'kandevLsp',
      contextMenuGroupId: 'navigation',
      contextMenuOrder: 1.6,
      run: (ed) => hierarchy.show('type', ed.getModel(), /** @type {import('monaco-editor').IPosition} */ (ed.getPosition())), // with a model
    }),
  ];
}
registerActions();

// Open files: one tab per (session, path) (tabs.js).
/** @typedef {import('./tabs.js').Tab} Tab */
/** @typedef {import('./tabs.js').ITextModel} ITextModel */
/** @type {Map<string, Tab>} */
const tabs = new Map(); // id -> { id, sessionId, path, view, model, doc, language, text, size, savedVersion, state, loaded }
/** @type {Tab | null} */
let current = null; // the active tab
/** @type {Tab | null} */
let scrolledTo = null; // the active tab the tab strip last scrolled to
/** @type {Tab | null} */
let shown = null; // the tab whose model the editor holds
// tabsUnder are session s's workspace tabs of path, and of everything in
// it when it is a folder.
/** @param {string} s @param {string} path @param {boolean} folder @returns {Tab[]} */
const tabsUnder = (s, path, folder) => [...tabs.values()]
  .filter((t) => t.sessionId === s && !t.library && (t.path === path || (folder && t.path.startsWith(path + '/'))));

// --- status bar and status control ------------------------------------------

const sessionItem = document.createElement('span');
sessionItem.id = 'status-bar-session';
const cursorItem = document.createElement('span');
cursorItem.id = 'status-bar-cursor';
const lspItem = document.createElement('button');
lspItem.id = 'status-bar-lsp';
lspItem.type = 'button';
lspItem.className = 'lsp-status';
lspItem.hidden = true;
const statusBar = createStatusBar({ items: { session: sessionItem, lsp: lspItem, cursor: cursorItem }, t: tr });
// Install, for a server the task host is missing but can install: what
// it runs there (the installers answer, asked once per session until an
// install), then auto-install on for the language, saved like a Settings
// change, and the pair tried again — the task host installs and starts it.
/** @type {Map<string, import('./installers.js').InstallersAnswer | null>} */
const installerAnswers = new Map();
const control = createStatusControl({
  lsp, t: tr, barItem: lspItem,
  install: {
    details(v, suffix) {
      if (!installerAnswers.has(v.sessionId)) {
        installerAnswers.set(v.sessionId, null);
        installersOf(v.sessionId).then((a) => {
          installerAnswers.set(v.sessionId, a);
          control.repaint();
        });
      }
      const answer = installerAnswers.get(v.sessionId);
      const chosen = (settings.lsp_language_servers || {})[v.language] || [];
      return answer ? installerDetails(tr, answer, v.language, v.server || chosen[v.slot] || '', suffix) : [];
    },
    async run(v) {
      const langs = settings.lsp_auto_install_languages || [];
      if (!langs.includes(v.language)) await saveSettings({ lsp_auto_install_languages: [...langs, v.language] });
      installersOf(v.sessionId, true); // found, once installed
      installerAnswers.delete(v.sessionId);
      lsp.retry(v.sessionId, v.language, v.slot);
    },
  },
});
lsp.onStatus(() => control.repaint());

// mountedModel is the model of the active Monaco text editor, or null when
// the active panel is anything else.
function mountedModel() {
  return current && current.view === 'monaco' && !current.diff && !phoneMQ.matches && !settingsPage.isOpen ? current.model : null;
}

// renderStatus asks lsp.wasm where the control goes now and redraws it.
function renderStatus() {
  statusBar.setShown(showStatusBar);
  control.update(lsp.surface({ model: mountedModel(), ...layout() }));
}

function renderCursor() {
  const model = mountedModel();
  cursorItem.hidden = !model;
  if (model) {
    const p = editor.getPosition() || { lineNumber: 1, column: 1 };
    cursorItem.textContent = tr('page.cursor', { line: p.lineNumber, column: p.column });
  }
}
editor.onDidChangeCursorPosition(renderCursor);

// --- sessions ---------------------------------------------------------------

const sessionSelect = /** @type {HTMLSelectElement} */ ($('session'));
function renderSessionOptions() {
  sessionSelect.replaceChildren(...sessions.map((s) => {
    const o = document.createElement('option');
    o.value = s.id;
    o.textContent = !s.lsp ? tr('page.sessionPlain', { session: s.id })
      : s.executor === 'local_docker' ? tr('page.sessionDocker', { session: s.id })
        : s.executor === 'ssh' ? tr('page.sessionSSH', { session: s.id }) : s.id;
    return o;
  }));
  sessionSelect.value = sessionId;
}
renderSessionOptions();
sessionSelect.addEventListener('change', () => switchSession(sessionSelect.value));

function switchSession(/** @type {string} */ id) {
  sessionId = id;
  sessionSelect.value = id;
  $('session-note').textContent = lspSession(id) ? '' : tr('page.sessionNote');
  sessionItem.textContent = id;
  const first = [...tabs.values()].find((t) => t.sessionId === id);
  if (first) activate(first); else showNothing();
  renderTabs();
  problems.render();
}

// reconfigure tears lsp.wasm down (dispose) and sets it up again, reopening
// the open Monaco tabs' documents: Monaco is left with exactly one set of
// providers.
function reconfigure() {
  lsp.dispose();
  configureLSP();
  lsp.onStatus(() => control.repaint());
  for (const t of tabs.values()) {
    if (t.view !== 'monaco') continue;
    // persistedVersion: a tab with unsaved changes is not taken for the
    // file's text, so a change on disk never reloads over them.
    t.doc = lspSession(t.sessionId)
      ? lsp.openDocument({ sessionId: t.sessionId, path: t.path, model: /** @type {ITextModel} */ (t.model), persistedVersion: t.savedVersion }) // a Monaco tab has one
      : null;
  }
  renderStatus();
}

// --- files tree -------------------------------------------------------------

const tree = new FileTree($('files'), {
  t: tr,
  open: (path) => {
    if (narrowMQ.matches) setFilesOpen(false);
    openFile(path);
  },
  operate: (op) => fileOps.operate(op),
});
const markActiveFile = (/** @type {string | null} */ path) => tree.markActive(path);

// The tree follows the task host: what a build, a generator or a terminal
// creates or deletes there (lsp.wasm's onWorkspaceFiles, from the agent's
// watcher) appears and goes without a reload. A batch is a hint to list
// again, a moment later and never under the user's hands: not while the
// tree's own operation runs, a name field or its menu is open.
/** @type {string[]} */
let treeGone = [];
let treeSync = 0;
lsp.onWorkspaceFiles(({ sessionId: s, changes }) => {
  if (s !== config.sessionId || changes.every((c) => c.change === 'changed')) return;
  treeGone.push(...changes.filter((c) => c.change === 'deleted').map((c) => c.path));
  clearTimeout(treeSync);
  treeSync = setTimeout(syncTree, 150);
});
async function syncTree() {
  const later = () => { treeSync = setTimeout(syncTree, 300); };
  if (fileOps.busy() || tree.busy()) return later();
  const list = await fetch('/api/v1/workspace/files').then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (!list) return;
  if (fileOps.busy() || tree.busy()) return later();
  const gone = treeGone;
  treeGone = [];
  if (tree.sync(Array.isArray(list) ? list : list.files, gone)) tree.render();
}

// On narrow screens the tree is a panel over the page, opened on demand.
const toggleFiles = $('toggle-files');
function setFilesOpen(/** @type {boolean} */ open) {
  document.body.classList.toggle('files-open', open);
  toggleFiles.setAttribute('aria-expanded', String(open));
  $('files-backdrop').hidden = !(open && narrowMQ.matches);
  if (open) /** @type {HTMLElement | null} */ (document.querySelector('#files button[aria-current="true"]') || document.querySelector('#files button'))?.focus();
}
toggleFiles.addEventListener('click', () => setFilesOpen(!document.body.classList.contains('files-open')));
$('files-backdrop').addEventListener('click', () => setFilesOpen(false));
$('files-panel').addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && narrowMQ.matches) {
    setFilesOpen(false);
    toggleFiles.focus();
  }
});

// --- tabs -------------------------------------------------------------------

function renderTabs() {
  $('tabs').replaceChildren(...[...tabs.values()].map((t) => {
    const b = document.createElement('button');
    b.setAttribute('role', 'tab');
    b.className = 'tab';
    b.dataset.id = t.id;
    b.dataset.path = t.path;
    b.dataset.session = t.sessionId;
    b.dataset.view = t.view;
    b.setAttribute('aria-selected', String(t === current));
    b.textContent = (t.sessionId === config.sessionId ? '' : `${t.sessionId}: `) + tabName(t) + (isDirty(t) ? ' ●' : '');
    if (t.library) {
      b.dataset.library = 'true';
      b.title = `${t.path} (${tr('page.library')})`;
    }
    b.addEventListener('click', () => { if (t.sessionId !== sessionId) switchSession(t.sessionId); activate(t); });
    return b;
  }));
  // The strip scrolls to a tab that became active (opened, chosen in the
  // tree, reached by a definition), never on other repaints: a strip the
  // user scrolled stays put while they type.
  if (current !== scrolledTo) {
    scrolledTo = current;
    $('tabs').querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

// openFile opens path in the active session, or activates its tab. The tab
// shows its loading view at once; the promise resolves once its content is
// shown.
/** @param {string} path @param {string} [session] @param {boolean} [library] @returns {Promise<Tab>} */
async function openFile(path, session = sessionId, library = false) {
  const t = tabFor(path, session, library);
  activate(t);
  await t.loaded;
  return t;
}

// tabFor returns path's tab in session, opening one (which starts loading)
// when there is none.
/**
 * @param {string} path @param {string} session @param {boolean} [library] a read-only file outside the workspace
 * @param {Response} [res] the file's answer, when already fetched
 * @returns {Tab}
 */
function tabFor(path, session, library = false, res = undefined) {
  let t = tabs.get(tabId(session, path));
  if (!t) {
    t = /** @type {Tab} */ ({ id: tabId(session, path), sessionId: session, path, view: 'loading', model: null, doc: null, language: null, state: 'saved', library });
    tabs.set(t.id, t);
    t.loaded = load(t, res);
  }
  return t;
}

// openLibrary opens a library file (absolute path) in a read-only tab, or
// activates its tab; null, with no tab, when the task host refuses it (a
// path under none of its library roots).
/** @param {string} path @returns {Promise<Tab | null>} */
async function openLibrary(path) {
  let t = tabs.get(tabId(sessionId, path));
  if (!t) {
    const res = await fetch(libraryURL(path)).catch(() => null);
    if (!res || !res.ok) return null;
    t = tabFor(path, sessionId, true, res);
  }
  activate(t);
  await t.loaded;
  return t;
}

// openContent opens a document a language server provides (its URI) in a
// read-only tab, or activates its tab; null, with no tab, when no server
// of the session gives its text.
/** @param {string} path @returns {Promise<Tab | null>} */
async function openContent(path) {
  let t = tabs.get(tabId(sessionId, path));
  if (!t) {
    const text = await Promise.resolve(lsp.documentContent(modelURI(sessionId, path, true, true).toString())).catch(() => null);
    if (typeof text !== 'string') return null;
    t = /** @type {Tab} */ ({ id: tabId(sessionId, path), sessionId, path, view: 'loading', model: null, doc: null, language: null, state: 'saved', library: true, content: true });
    tabs.set(t.id, t);
    mount(t, text);
    t.loaded = Promise.resolve();
  }
  activate(t);
  return t;
}

async function load(/** @type {Tab} */ t, /** @type {Response | undefined} */ fetched) {
  /** @type {Uint8Array | undefined} */
  let bytes;
  try {
    const res = fetched || await fetch(t.library ? libraryURL(t.path) : fileURL(t.path));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    console.error(`open ${t.path}:`, e);
    t.view = 'failed';
  }
  if (tabs.get(t.id) !== t) return; // closed while loading
  if (bytes) {
    const text = decode(bytes);
    if (text === null) {
      t.view = 'binary';
      t.size = bytes.length;
    } else if (/** @type {import('@kandev/lsp').Surface} */ (lsp.surface(layout())).connect) { // configured: an answer
      mount(t, text);
    } else {
      t.view = 'phone'; // no Monaco, no language server
      t.text = text;
    }
  }
  if (t === current) renderAll();
  renderTabs();
}

// mount gives a tab its Monaco model and, in a session with language
// servers, its lsp.wasm document.
/** @param {Tab} t @param {string} text */
function mount(t, text) {
  const uri = modelURI(t.sessionId, t.path, t.library, t.content);
  const model = monaco.editor.getModel(uri) || monaco.editor.createModel(text, undefined, uri);
  const doc = lspSession(t.sessionId) && !t.content ? lsp.openDocument({ sessionId: t.sessionId, path: t.path, model, library: t.library }) : null;
  Object.assign(t, { view: 'monaco', model, doc, language: doc ? doc.language : null, savedVersion: model.getVersionId(), savedAlt: model.getAlternativeVersionId(), savedText: text });
  model.onDidChangeContent(() => { if (t === current) renderSaveState(); renderTabs(); });
}

// adoptEdited gives a file that a workspace edit changed a tab, unless it
// has one: its model holds the edit, unsaved; savedVersion is the version
// the model had before the edit, when it held the file's text.
function adoptEdited(/** @type {import('@kandev/lsp').EditedFile} */ file) {
  const id = tabId(file.sessionId, file.path);
  fileOps.noteEdited(id, !tabs.has(id));
  if (tabs.has(id)) {
    renderTabs();
    if (current && current.id === id) renderSaveState();
    return;
  }
  /** @type {Tab} */
  const t = { id, sessionId: file.sessionId, path: file.path, view: 'monaco', model: file.model, doc: null, language: null, state: 'saved', savedVersion: file.versionBefore };
  // The model's text on disk is the one before the edit: a change on disk
  // must not reload over the edit (the TypeScript server writes the empty
  // file its "Move to a new file" edit then fills).
  t.doc = lspSession(t.sessionId)
    ? lsp.openDocument({ sessionId: t.sessionId, path: t.path, model: file.model, persistedVersion: file.versionBefore, persistedText: file.textBefore })
    : null;
  t.language = t.doc ? t.doc.language : null;
  t.loaded = Promise.resolve();
  tabs.set(id, t);
  file.model.onDidChangeContent(() => { if (t === current) renderSaveState(); renderTabs(); });
  renderTabs();
}

function activate(/** @type {Tab} */ t) {
  if (settingsPage.isOpen) settingsPage.close();
  current = t;
  markActiveFile(t.path);
  renderAll();
  if (t.view === 'monaco') editor.focus();
  rememberTabs();
}

// rememberTabs keeps the open tabs, the active one and the shown one's
// cursor for the next load of the page (tabstore.js).
let restoring = false;
function rememberTabs() {
  if (restoring) return;
  if (shown && shown.model && shown.model === editor.getModel()) shown.viewState = editor.saveViewState();
  saveTabs({
    tabs: [...tabs.values()].filter((t) => !t.content).map((t) => ({ session: t.sessionId, path: t.path, viewState: t.viewState || null, ...(t.library ? { library: true } : {}) })),
    active: current ? { session: current.sessionId, path: current.path } : null,
  });
}
/** @type {ReturnType<typeof setTimeout> | undefined} */
let rememberLater;
editor.onDidChangeCursorPosition(() => {
  clearTimeout(rememberLater);
  rememberLater = setTimeout(rememberTabs, 300);
});
addEventListener('pagehide', rememberTabs);

function showNothing() {
  current = null;
  markActiveFile(null);
  renderAll();
}

// readOnlyShown is the editor's read-only option as last set.
const readOnlyShown = { readOnly: false, text: '' };

// renderPanel shows the active tab's view; only a mounted Monaco editor
// holds a model.
function renderPanel() {
  const t = current;
  if (t && t.view === 'phone' && !phoneMQ.matches) mount(t, /** @type {string} */ (t.text)); // the screen grew
  const kind = !t ? 'none' : t.view === 'monaco' && phoneMQ.matches ? 'phone' : t.view === 'monaco' && t.diff ? 'diff' : t.view;
  $('editor').hidden = !(kind === 'monaco' || kind === 'none');
  renderDiff(kind === 'diff' ? t : null);
  const tab = /** @type {Tab} */ (t); // every kind but 'none' has its tab
  const model = kind === 'monaco' ? tab.model : null;
  if (editor.getModel() !== model) {
    // Each tab keeps its own cursor and scroll: a selection made in one
    // session's model stays there when another session's tab of the same
    // file is shown.
    if (shown && shown.model === editor.getModel()) shown.viewState = editor.saveViewState();
    editor.setModel(model);
    if (model && tab.viewState) editor.restoreViewState(tab.viewState);
  }
  // A library file is read-only: typing shows why instead of editing it.
  // Only a change is applied: every updateOptions re-renders the editor's
  // widgets, an open context menu among them.
  const readOnly = !!(model && tab.library);
  const readOnlyText = tr('page.library.message'); // follows the locale
  if (readOnlyShown.readOnly !== readOnly || readOnlyShown.text !== readOnlyText) {
    editor.updateOptions({ readOnly, readOnlyMessage: { value: readOnlyText } });
    Object.assign(readOnlyShown, { readOnly, text: readOnlyText });
  }
  shown = model ? t : null;
  $('loading-view').hidden = kind !== 'loading';
  $('binary-view').hidden = kind !== 'binary';
  $('load-error').hidden = kind !== 'failed';
  $('phone-view').hidden = kind !== 'phone';
  if (kind === 'loading') $('loading-view').textContent = tr('page.loading', { path: tab.path });
  if (kind === 'binary') $('binary-view').textContent = tr('page.binary', { path: tab.path, size: /** @type {number} */ (tab.size) });
  if (kind === 'failed') $('load-error').textContent = tr('page.loadFailed', { path: tab.path });
  if (kind === 'phone') $('phone-viewer').textContent = tab.model ? tab.model.getValue() : /** @type {string} */ (tab.text);
}

function renderToolbar() {
  $('current-file').textContent = current ? current.path + (current.library ? ` (${tr('page.library')})` : '') : tr('page.noFile');
  $('close-file').hidden = !current;
  const diff = $('toggle-diff');
  diff.hidden = !(current && current.view === 'monaco' && current.savedText !== undefined && !phoneMQ.matches);
  diff.setAttribute('aria-pressed', String(!!(current && current.diff)));
  diff.title = tr('diff.buttonTitle');
  // Tab's toggle: wherever a Monaco editor (or the diff editor) is on screen.
  tabFocus.button.hidden = !(current && current.view === 'monaco' && !phoneMQ.matches && !settingsPage.isOpen);
  tabFocus.render();
  const symbols = $('open-symbols');
  symbols.hidden = !symbolModel();
  symbols.title = tr('symbols.buttonTitle', { key: symbolsKey });
  symbols.setAttribute('aria-keyshortcuts', isMac ? 'Meta+O' : 'Control+O');
  lspKey.set(!!(mountedModel() && current?.doc)); // a mounted model is the current tab's
}

// renderAll redraws everything that depends on the active panel, the layout
// or the locale.
function renderAll() {
  $('workspace').hidden = settingsPage.isOpen;
  renderPanel();
  renderToolbar();
  renderTabs();
  renderSaveState();
  renderStatus();
  renderCursor();
  settingsPage.refreshPlacement();
}

// closeFile closes the active tab: a later open remounts it.
function closeFile() {
  if (!current) return;
  closeTab(current);
  rememberTabs();
}

// closeTab closes one tab, discarding its model; when it was the active
// one, the session's next tab (or nothing) is shown.
function closeTab(/** @type {Tab} */ t) {
  tabs.delete(t.id);
  if (editor.getModel() === t.model) editor.setModel(null);
  if (t.doc) t.doc.close();
  if (t === diffShown) renderDiff(null);
  if (t.diffOriginal) t.diffOriginal.dispose();
  if (t.model) t.model.dispose();
  if (t !== current) return renderTabs();
  const next = [...tabs.values()].find((x) => x.sessionId === sessionId);
  if (next) activate(next); else showNothing();
}
$('close-file').addEventListener('click', closeFile);

// navigateTo is lsp.wasm's openFile: a definition or reference target in
// the workspace. The tree loads and expands every ancestor and marks the
// target; an open tab (target.tabId) is activated, never opened twice; the
// selection is revealed in the centre.
/**
 * @param {{ sessionId: string, path: string, ancestors?: string[], selection?: import('monaco-editor').IRange, tabId?: string, library?: boolean, content?: boolean }} target
 *   a NavigationTarget, or a panel's OpenTarget
 */
async function navigateTo(target) {
  if (target.sessionId && target.sessionId.toLowerCase() !== sessionId.toLowerCase()) {
    const s = sessions.find((x) => x.id.toLowerCase() === target.sessionId.toLowerCase());
    if (!s) return false;
    switchSession(s.id);
  }
  for (const dir of target.ancestors || []) tree.expand(dir);
  const t = (target.tabId && tabs.get(target.tabId)) || await (target.content ? openContent(target.path)
    : target.library ? openLibrary(target.path) : openFile(target.path));
  if (!t) return false; // a library file the task host refused, a server document no server gives
  activate(t);
  if (target.selection && t.view === 'monaco') {
    editor.setSelection(target.selection);
    editor.revealRangeInCenter(target.selection);
  }
  if (target.selection && !$('phone-view').hidden) selectInViewer(target.selection);
  return true;
}

// selectInViewer selects a range (one-based lines, UTF-16 columns, as
// Monaco's) in the phone's read-only viewer and scrolls it into view.
function selectInViewer(/** @type {import('monaco-editor').IRange} */ sel) {
  const node = $('phone-viewer').firstChild;
  if (!node) return;
  const text = /** @type {string} */ (node.textContent); // a text node's
  const offset = (/** @type {number} */ line, /** @type {number} */ column) => {
    let at = 0;
    for (let l = 1; l < line && at >= 0; l++) at = text.indexOf('\n', at) + 1 || -1;
    return at < 0 ? text.length : Math.min(at + column - 1, text.length);
  };
  const range = document.createRange();
  range.setStart(node, offset(sel.startLineNumber, sel.startColumn));
  range.setEnd(node, offset(sel.endLineNumber, sel.endColumn));
  const s = /** @type {Selection} */ (getSelection()); // the document has one
  s.removeAllRanges();
  s.addRange(range);
  const view = $('phone-view');
  const box = range.getBoundingClientRect();
  view.scrollTop += box.top - view.getBoundingClientRect().top - view.clientHeight / 3;
}

// --- diff view ------------------------------------------------------------------

// The diff view shows a Monaco tab's model against the text it was loaded
// or last saved with, in Monaco's diff editor (created on first use). It is
// not the file's editor: mountedModel() is null meanwhile, so no
// language-server control or status-bar item is shown for it.
/** @type {Tab | null} */
let diffShown = null; // the tab in the diff view
function renderDiff(/** @type {Tab | null} */ t) {
  $('diff-view').hidden = !t;
  if (t) $('diff-title').textContent = tr('diff.title', { path: t.path }); // the locale may have changed
  if (t === diffShown) return;
  diffShown = t;
  if (!t) {
    if (diffEditor) diffEditor.setModel(null);
    return;
  }
  if (!diffEditor) {
    diffEditor = monaco.editor.createDiffEditor($('diff-editor'), {
      automaticLayout: true, fontSize: 14, minimap: { enabled: false }, originalEditable: false, theme: 'kandev', tabFocusMode: tabFocus.on,
    });
    for (const side of [diffEditor.getOriginalEditor(), diffEditor.getModifiedEditor()]) side.addCommand(tabFocus.binding, () => tabFocus.toggle());
  }
  const model = /** @type {ITextModel} */ (t.model); // the diff view shows Monaco tabs
  if (!t.diffOriginal) t.diffOriginal = monaco.editor.createModel(/** @type {string} */ (t.savedText), model.getLanguageId());
  diffEditor.setModel({ original: t.diffOriginal, modified: model });
}
$('toggle-diff').addEventListener('click', () => {
  if (!current || current.view !== 'monaco') return;
  current.diff = !current.diff;
  if (!current.diff && diffShown === current) renderDiff(null);
  renderAll();
  if (!current.diff) editor.focus();
});

// --- saving -----------------------------------------------------------------

function renderSaveState() {
  const el = $('save-state');
  if (!current || current.view !== 'monaco' || current.library) { // a library file is never saved
    el.textContent = '';
    el.dataset.state = '';
    return;
  }
  let state = current.state;
  if (state !== 'saving' && state !== 'failed') state = isDirty(current) ? 'dirty' : 'saved';
  el.dataset.state = state;
  el.textContent = tr(/** @type {Record<string, string>} */ ({ saving: 'page.saving', failed: 'page.saveFailed', dirty: 'page.dirty', saved: 'page.saved' })[state]);
}

// save writes the active tab (saveTab any tab) through the agent's
// workspace file route and reports the outcome to lsp.wasm, which synchronizes the language servers:
// the final didChange, then didSave (with text only when the buffer still
// is what was written).
function save() { return saveTab(current); }
async function saveTab(/** @type {Tab | null} */ t) {
  if (!t || t.view !== 'monaco' || t.library) return false;
  const model = /** @type {ITextModel} */ (t.model); // a Monaco tab's
  await lsp.willSave(model); // formats first (formatOnSave)
  const persistedVersion = model.getVersionId();
  const text = model.getValue();
  t.state = 'saving';
  renderSaveState();
  let ok = false;
  try {
    const res = await fetch(fileURL(t.path), { method: 'PUT', body: text });
    ok = res.ok;
  } catch (e) {
    console.error(e);
  }
  const outcome = lsp.saved({ model, ok, persistedVersion, liveVersion: model.getVersionId(), text });
  if (ok) {
    t.savedVersion = persistedVersion;
    // The alternative id of the text written: the model may have moved on
    // while the write was under way.
    t.savedAlt = persistedVersion === model.getVersionId() ? model.getAlternativeVersionId() : undefined;
    t.savedText = text;
    if (t.diffOriginal) t.diffOriginal.setValue(text);
  }
  t.state = ok ? (outcome && outcome.dirty ? 'dirty' : 'saved') : 'failed';
  if (t === current) renderSaveState();
  renderTabs();
  return ok;
}
editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, save);

// --- file operations ----------------------------------------------------------

// The tree's operations and a server's workspace-edit file operations on
// the task host (fileops.js); the tabs follow through retab and closeTab.
const fileOps = createFileOperations({
  lsp, tree, tabs, t: tr, notices: $('lsp-notices'),
  sessionId: () => sessionId, lspSession, tabsUnder, saveTab, closeTab, openFile, rememberTabs, retab,
});

// retab moves tabs under a renamed path to the new one: each closes (its
// document closes on the servers) and opens at the new path, in the same
// place of the strip, with the same text — unsaved changes stay unsaved.
/** @param {Tab[]} moved @param {string} from @param {string} to */
function retab(moved, from, to) {
  const wasCurrent = moved.find((t) => t === current);
  const order = [...tabs.values()];
  for (const old of moved) {
    const path = to + old.path.slice(from.length);
    const t = /** @type {Tab} */ ({ id: tabId(old.sessionId, path), sessionId: old.sessionId, path, view: 'loading', model: null, doc: null, language: null, state: 'saved' });
    if (old.view === 'monaco') {
      const text = /** @type {ITextModel} */ (old.model).getValue();
      const dirty = isDirty(old);
      const view = old.model === editor.getModel() ? editor.saveViewState() : old.viewState;
      mount(t, old.savedText ?? text);
      if (dirty) /** @type {ITextModel} */ (t.model).setValue(text);
      t.viewState = view;
      t.loaded = Promise.resolve();
    } else {
      t.loaded = load(t, undefined);
    }
    order[order.indexOf(old)] = t;
    tabs.delete(old.id);
    if (old === current) current = null;
    closeTab(old);
  }
  tabs.clear();
  for (const t of order) tabs.set(t.id, t);
  const next = wasCurrent && tabs.get(tabId(wasCurrent.sessionId, to + wasCurrent.path.slice(from.length)));
  if (next) activate(next); else renderTabs();
}

// --- Editors settings ---------------------------------------------------------

const runtime = await (await fetch('/api/v1/lsp/runtime')).json().catch(() => ({ languages: [] }));

// saveSettings sends a partial update; the relay answers with everything
// stored, which lsp.wasm then applies (configuration changes reach live
// servers without a restart).
async function saveSettings(/** @type {import('@kandev/lsp').Settings} */ patch) {
  const res = await fetch('/api/v1/user/settings', {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(patch),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  settings = body;
  lsp.setSettings(settings);
  renderStatus();
  return settings;
}

const settingsPage = createSettingsPage({
  lsp,
  t: tr,
  runtime,
  getSettings: () => settings,
  saveSettings,
  // The installer details are those of the active session's task host, or
  // of the default session's when the active one has no language servers.
  installersSession: () => (lspSession(sessionId) ? { id: sessionId, lsp: true } : { id: config.sessionId, lsp: lspSession(config.sessionId) }),
  statusBar: {
    get shown() { return showStatusBar; },
    set(on) {
      showStatusBar = on;
      localStorage.setItem(SHOW_BAR_KEY, on ? '1' : '0');
    },
  },
  placement: () => /** @type {import('@kandev/lsp').Surface} */ (lsp.surface({ model: null, ...layout() })), // configured: an answer
  onChange: (how) => {
    renderAll();
    if (how && how.closed) $('open-settings').focus();
  },
});
$('open-settings').addEventListener('click', () => {
  control.close();
  settingsPage.open();
  renderAll();
});

// --- locale -----------------------------------------------------------------

const localeSelect = /** @type {HTMLSelectElement} */ ($('locale'));
localeSelect.value = locale;
localeSelect.addEventListener('change', () => {
  locale = lsp.setLocale(localeSelect.value); // re-delivers every view
  localStorage.setItem(LOCALE_KEY, locale);
  const url = new URL(location.href);
  url.searchParams.set('locale', locale);
  history.replaceState(null, '', url);
  applyTexts();
});

// applyTexts puts the current locale's texts on the page.
function applyTexts() {
  document.documentElement.lang = locale === 'en-XA' ? 'en-XA' : locale;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-t]'))) el.textContent = tr(/** @type {string} */ (el.dataset.t));
  renderSessionOptions();
  $('session-note').textContent = lspSession(sessionId) ? '' : tr('page.sessionNote');
  statusBar.retitle();
  editor.updateOptions({ ariaLabel: tr('page.editorLabel', { key: tabFocus.key }) });
  settingsPage.rerender();
  problems.render();
  registerActions();
  symbolPicker.retitle();
  hierarchy.retitle();
  search.rerender();
  renderAll();
}

// --- layout changes -----------------------------------------------------------

for (const mq of [phoneMQ, coarseMQ]) mq.addEventListener('change', () => renderAll());
narrowMQ.addEventListener('change', () => setFilesOpen(false));

// --- start-up ---------------------------------------------------------------

// restoreTabs opens the tabs the last load of the page had, in their
// order, where their session and file still exist, each with its cursor
// and scroll; it returns the tab that was active, if it is in the session
// shown now.
/** @param {Set<string>} files the workspace's files @returns {Tab | undefined} */
function restoreTabs(files) {
  const saved = loadTabs();
  restoring = true;
  try {
    for (const s of saved.tabs) {
      if (!sessions.some((x) => x.id === s.session) || !(s.library || files.has(s.path))) continue;
      const t = tabFor(s.path, s.session, !!s.library);
      if (s.viewState) t.viewState = s.viewState;
    }
  } finally {
    restoring = false;
  }
  const active = saved.active ? tabs.get(tabId(saved.active.session, saved.active.path)) : undefined;
  return active && active.sessionId === sessionId ? active : undefined;
}

const list = await (await fetch('/api/v1/workspace/files')).json();
/** @type {string[]} */
const workspaceFiles = Array.isArray(list) ? list : list.files;
for (const path of workspaceFiles) tree.addFile(path);
tree.repositories = new Set(await fetch('/api/v1/workspace/repositories').then((r) => (r.ok ? r.json() : [])).catch(() => []));
tree.render();
applyTexts();
const restored = restoreTabs(new Set(workspaceFiles));
switchSession(sessionId);
if (restored) activate(restored);

// For tests and the curious: the page's handles (any: no type of the page's declares them).
/** @type {any} */ (window).demo = {
  monaco, editor, lsp, openFile, closeFile, navigateTo, switchSession, save, tabs, statusBar, control, settingsPage, reconfigure, problems,
  symbolPicker, hierarchy, search,
  get sessionId() { return sessionId; },
  get current() { return current; },
};
document.body.dataset.ready = 'true';
