// Go to Symbol in Workspace: a picker over the workspace's symbols as the
// language server of the file on screen finds them (lsp.workspaceSymbols,
// the server's workspace/symbol). As the user types, the latest query is
// asked a moment later; a pick opens the file at the symbol through the
// page's navigation, the same as a go-to-definition target. Up and Down
// move through the rows, Enter or a click picks, Escape closes.
// @ts-check

/** @typedef {import('@kandev/lsp').WorkspaceSymbolItem} WorkspaceSymbolItem */
/** @typedef {import('@kandev/lsp').MonacoNamespace} MonacoNamespace */
/** @typedef {import('monaco-editor').IRange} IRange */

// KINDS are Monaco's SymbolKind values (0-25) by their catalog names;
// MARKS draw each as a short mark beside the name (the name is the mark's
// accessible label).
export const KINDS = ['file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor',
  'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key',
  'null', 'enumMember', 'struct', 'event', 'operator', 'typeParameter'];
const MARKS = ['F', 'M', 'N', 'P', 'C', 'm', 'p', 'f', 'c', 'E', 'I', 'ƒ', 'v', 'K', 's', '#', 'b', '[]', '{}', 'k',
  '∅', 'e', 'S', '⚡', '±', 'T'];

// kindMark is the mark of a SymbolKind, labelled with its name.
/** @param {number} kind @param {import('./platform.js').Texts} t */
export function kindMark(kind, t) {
  const span = document.createElement('span');
  span.className = 'symbol-kind';
  span.dataset.kind = String(kind);
  span.textContent = MARKS[kind] || '?';
  const name = KINDS[kind] ? t(`symbol.kind.${KINDS[kind]}`) : '';
  if (name) {
    span.title = name;
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', name);
  }
  return span;
}

// location reads a model URI of an item (kandev://<session>/<path>) as a
// navigation target at range; a library file (kandev-lib://<session><path>:
// the toolchain, a dependency) as a read-only one; null for anything else.
/**
 * @param {MonacoNamespace} monaco @param {string} model @param {IRange} [range]
 * @returns {import('./platform.js').OpenTarget | null}
 */
export function location(monaco, model, range) {
  const uri = monaco.Uri.parse(model);
  if (uri.scheme === 'kandev-lib' && uri.path.length > 1) {
    return { sessionId: uri.authority, path: uri.path, library: true, ...(range ? { selection: range } : {}) };
  }
  if (uri.scheme !== 'kandev' || !uri.path || uri.path === '/') return null;
  const path = uri.path.replace(/^\//, '');
  const parts = path.split('/');
  return {
    sessionId: uri.authority,
    path,
    ancestors: parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/')),
    ...(range ? { selection: range } : {}),
  };
}

// shownPath is how a row names an item's file: the workspace path, or the
// file path of anything outside it.
/** @param {MonacoNamespace} monaco @param {string} model */
export function shownPath(monaco, model) {
  const uri = monaco.Uri.parse(model);
  return uri.scheme === 'kandev' ? uri.path.replace(/^\//, '') : uri.scheme === 'file' || uri.scheme === 'kandev-lib' ? uri.path : model;
}

// atSymbol is where a pick puts the cursor: the symbol's name when the
// server gave just that (one line), else the start of its declaration.
/** @param {IRange} r @returns {IRange} */
export function atSymbol(r) {
  if (r.startLineNumber === r.endLineNumber) return r;
  return { startLineNumber: r.startLineNumber, startColumn: r.startColumn, endLineNumber: r.startLineNumber, endColumn: r.startColumn };
}

const DEBOUNCE_MS = 150;

// createSymbolPicker wires the picker. model() is the model whose server
// is asked (null: none), open(target) the page's navigation, restore()
// gives the focus back when the picker closes without a pick; opener, a
// button that toggles it, is left to its own click.
/**
 * @param {{ lsp: import('@kandev/lsp').KandevLSP, monaco: MonacoNamespace, t: import('./platform.js').Texts,
 *   model: () => import('monaco-editor').editor.ITextModel | null, open: (target: import('./platform.js').OpenTarget) => unknown,
 *   restore: () => void, root: HTMLElement, input: HTMLInputElement, status: HTMLElement, list: HTMLElement,
 *   opener?: HTMLElement | null }} parts
 */
export function createSymbolPicker({ lsp, monaco, t, model, open, restore, root, input, status, list, opener }) {
  /** @type {WorkspaceSymbolItem[]} */
  let items = [];
  let active = -1;
  let asked = 0; // the latest query's number: older answers are dropped
  let timer = 0;
  /** @type {'hint' | 'searching' | 'results' | 'none' | 'noServer' | 'unresolved'} */
  let state = 'hint'; // hint | searching | results | none | noServer | unresolved
  let unresolved = '';
  let dirty = false; // the query changed since it was last asked
  let pickOnArrival = false; // Enter came before the latest query's answer

  const plural = (/** @type {string} */ key, /** @type {number} */ n) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n });

  function openPicker() {
    if (!root.hidden) {
      input.select();
      return;
    }
    root.hidden = false;
    opener?.setAttribute('aria-expanded', 'true');
    input.value = '';
    items = [];
    active = -1;
    dirty = pickOnArrival = false;
    state = model() ? 'hint' : 'noServer';
    render();
    input.focus();
  }

  function close(refocus = true) {
    if (root.hidden) return;
    clearTimeout(timer);
    asked++;
    root.hidden = true;
    opener?.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-expanded', 'false');
    if (refocus) restore();
  }

  function schedule() {
    dirty = true;
    pickOnArrival = false;
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  }

  async function search() {
    clearTimeout(timer);
    dirty = false;
    const query = input.value.trim();
    const n = ++asked;
    const m = model();
    if (!m) {
      state = 'noServer';
      items = [];
      render();
      return;
    }
    if (!query) {
      state = 'hint';
      items = [];
      render();
      return;
    }
    state = 'searching';
    renderStatus();
    /** @type {WorkspaceSymbolItem[]} */
    let found = [];
    try {
      found = await lsp.workspaceSymbols(m, query);
    } catch (e) {
      console.error('workspace symbols:', e);
    }
    if (n !== asked || root.hidden) return; // a newer query, or closed
    items = found;
    active = items.length ? 0 : -1;
    state = items.length ? 'results' : 'none';
    render();
    if (pickOnArrival) {
      pickOnArrival = false;
      pick(active);
    }
  }

  async function pick(/** @type {number} */ i) {
    const item = items[i];
    if (!item) return;
    const where = location(monaco, item.model);
    if (!where) return; // outside the workspace and every library: the row says so
    let range = item.range;
    if (!range) {
      const n = asked;
      const full = await lsp.resolveWorkspaceSymbol(item).catch(() => null);
      if (n !== asked || root.hidden) return;
      range = full?.range;
      if (!range) {
        state = 'unresolved';
        unresolved = item.name;
        renderStatus();
        return;
      }
    }
    close(false);
    await open({ ...where, selection: atSymbol(range) });
  }

  function renderStatus() {
    const q = input.value.trim();
    status.textContent = {
      hint: t('symbols.hint'),
      searching: t('symbols.searching'),
      results: plural('symbols.count', items.length),
      none: t('symbols.none', { query: q }),
      noServer: t('symbols.noServer'),
      unresolved: t('symbols.unresolved', { name: unresolved }),
    }[state];
    status.dataset.state = state;
  }

  function render() {
    /** @type {HTMLElement} */ (root.querySelector('.quick-pick-title')).textContent = t('symbols.title'); // in index.html
    input.placeholder = t('symbols.placeholder');
    input.setAttribute('aria-label', t('symbols.title'));
    renderStatus();
    list.replaceChildren(...items.map(row));
    input.setAttribute('aria-expanded', String(items.length > 0));
    markActive();
  }

  /** @param {WorkspaceSymbolItem} item @param {number} i */
  function row(item, i) {
    const li = document.createElement('li');
    li.id = `symbol-option-${i}`;
    li.className = 'symbol-option';
    li.setAttribute('role', 'option');
    li.dataset.name = item.name;
    const path = shownPath(monaco, item.model);
    li.dataset.path = path;
    const where = location(monaco, item.model);
    if (!where) {
      li.setAttribute('aria-disabled', 'true');
      li.title = t('symbols.outside');
    } else if (where.library) {
      li.dataset.library = 'true'; // opens read-only
    }
    const name = document.createElement('span');
    name.className = 'symbol-name';
    name.textContent = item.name;
    const container = document.createElement('span');
    container.className = 'symbol-container';
    container.textContent = item.containerName || '';
    const file = document.createElement('span');
    file.className = 'symbol-path';
    file.textContent = path;
    li.append(kindMark(item.kind, t), name, container, file);
    li.addEventListener('click', () => pick(i));
    return li;
  }

  function markActive() {
    const rows = list.children;
    for (let i = 0; i < rows.length; i++) rows[i].setAttribute('aria-selected', String(i === active));
    if (active >= 0 && rows[active]) {
      input.setAttribute('aria-activedescendant', rows[active].id);
      rows[active].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function move(/** @type {number} */ to) {
    if (!items.length) return;
    active = (to + items.length) % items.length;
    markActive();
  }

  input.addEventListener('input', schedule);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') move(active + 1);
    else if (e.key === 'ArrowUp') move(active - 1);
    else if (e.key === 'PageDown') move(Math.min(active + 10, items.length - 1));
    else if (e.key === 'PageUp') move(Math.max(active - 10, 0));
    else if (e.key === 'Enter') {
      // Enter on a query still unanswered picks its first row once it is
      // (a query typed faster than the debounce is asked now).
      if (dirty) {
        pickOnArrival = true;
        search();
      } else if (state === 'searching') pickOnArrival = true;
      else pick(active);
    } else if (e.key === 'Escape') close();
    else if (e.key === 'Tab') { /* the query box keeps the focus */ } else return;
    e.preventDefault();
  });
  // A click on a row must not take the focus from the query box first.
  list.addEventListener('pointerdown', (e) => e.preventDefault());
  // A click anywhere else closes the picker, as a menu closes.
  document.addEventListener('pointerdown', (e) => {
    const target = /** @type {Node} */ (e.target); // pointer events hit nodes
    if (!root.hidden && !root.contains(target) && !(opener && opener.contains(target))) close(false);
  }, true);

  if (opener) opener.addEventListener('click', () => (root.hidden ? openPicker() : close()));

  return {
    open: openPicker,
    close,
    get shown() { return !root.hidden; },
    retitle() { if (!root.hidden) render(); },
  };
}
