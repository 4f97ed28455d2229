// The hierarchy panel: the call hierarchy (who calls the symbol at the
// cursor, or what it calls) and the type hierarchy (its supertypes or
// subtypes), as the language server of the file answers them
// (lsp.callHierarchy, incomingCalls, outgoingCalls; lsp.typeHierarchy,
// supertypes, subtypes). The symbol is the tree's root; a level is asked
// for when it is expanded, so a deep or recursive hierarchy costs nothing
// until it is looked at. A row opens its place: for a caller the call
// site, for anything else the symbol itself.
//
// The tree follows the ARIA tree pattern: Up and Down move, Right expands
// or goes to the first child, Left collapses or goes to the parent, Home
// and End jump, Enter opens. A shown hierarchy takes the focus to its
// first row, as VS Code's does, unless the user went elsewhere while the
// server answered; Escape closes the panel and gives the editor its focus.

// @ts-check
import { kindMark, location, shownPath } from './symbols.js';

/** @typedef {import('@kandev/lsp').HierarchyItem} HierarchyItem */
/** @typedef {import('monaco-editor').IRange} IRange */
/** @typedef {'call' | 'type'} Mode */
/** @typedef {'incoming' | 'outgoing' | 'subtypes' | 'supertypes'} Direction */
/**
 * A row of the tree: an item, for a call the ranges of the call in the
 * caller's file (site, for a caller: its model), and the row's state.
 * @typedef {{ id: string, item: HierarchyItem, ranges: IRange[] | null, site?: string, parent: Node | null, level: number,
 *   children: Node[] | null, expanded: boolean, loading: boolean }} Node
 */
/** @typedef {{ item: HierarchyItem, ranges?: IRange[], site?: string }} Child */

// MODES are the two hierarchies with their directions, the first being the
// one shown first.
/** @type {Record<Mode, { title: string, none: string, directions: Direction[] }>} */
const MODES = {
  call: { title: 'hierarchy.call.title', none: 'hierarchy.none.call', directions: ['incoming', 'outgoing'] },
  type: { title: 'hierarchy.type.title', none: 'hierarchy.none.type', directions: ['subtypes', 'supertypes'] },
};

// createHierarchyPanel wires the panel; open(target) is the page's
// navigation (the same as a go-to-definition target).
/**
 * @param {{ lsp: import('@kandev/lsp').KandevLSP, monaco: import('@kandev/lsp').MonacoNamespace, t: import('./platform.js').Texts,
 *   open: (target: import('./platform.js').OpenTarget) => unknown, panel: HTMLElement, title: HTMLElement, directions: HTMLElement,
 *   tree: HTMLElement, empty: HTMLElement, closeButton: HTMLElement, onClose: () => void }} parts
 */
export function createHierarchyPanel({ lsp, monaco, t, open, panel, title, directions, tree, empty, closeButton, onClose }) {
  /** @type {Mode} */
  let mode = 'call';
  /** @type {Record<Mode, Direction>} */
  const direction = { call: 'incoming', type: 'subtypes' }; // the last one chosen, per mode
  /** @type {Node[]} */
  let roots = []; // nodes: { id, item, ranges, site, parent, level, children, expanded, loading }
  let generation = 0; // a new symbol or direction drops older answers
  let nextId = 0;
  /** @type {string | null} */
  let focused = null; // the id of the row with the tree's focus (roving tabindex)
  let state = 'idle'; // idle | loading | none | shown

  const plural = (/** @type {string} */ key, /** @type {number} */ n) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n });

  // show opens the panel on the hierarchy (mode: 'call' | 'type') of the
  // symbol at position in model.
  /**
   * @param {Mode} m @param {import('monaco-editor').editor.ITextModel | null} model
   * @param {import('monaco-editor').IPosition} position
   */
  async function show(m, model, position) {
    mode = m;
    const g = ++generation;
    roots = [];
    focused = null;
    state = 'loading';
    panel.hidden = false;
    render();
    const from = document.activeElement;
    /** @type {HierarchyItem[]} */
    let items = [];
    try {
      items = model ? await (mode === 'call' ? lsp.callHierarchy(model, position) : lsp.typeHierarchy(model, position)) : [];
    } catch (e) {
      console.error('hierarchy:', e);
    }
    if (g !== generation) return;
    roots = items.map((item) => node(item, null));
    state = roots.length ? 'shown' : 'none';
    focused = roots.length ? roots[0].id : null;
    render();
    const active = document.activeElement;
    if (roots.length && (active === from || !active || active === document.body || panel.contains(active))) focusNode(roots[0]);
    for (const r of roots) expand(r);
  }

  /** @param {HierarchyItem} item @param {Node | null} parent @param {IRange[] | null} [ranges] @returns {Node} */
  function node(item, parent, ranges = null) {
    return { id: `h${++nextId}`, item, ranges, parent, level: parent ? parent.level + 1 : 1, children: null, expanded: false, loading: false };
  }

  // children asks the server for a node's next level in the current
  // direction.
  /** @param {Node} n @returns {Promise<Child[]>} */
  async function children(n) {
    const item = n.item;
    switch (direction[mode]) {
      case 'incoming':
        return (await lsp.incomingCalls(item)).map((c) => ({ item: c.from, ranges: c.fromRanges, site: c.from.model }));
      case 'outgoing':
        return (await lsp.outgoingCalls(item)).map((c) => ({ item: c.to, ranges: c.fromRanges }));
      case 'supertypes':
        return (await lsp.supertypes(item)).map((i) => ({ item: i }));
      default:
        return (await lsp.subtypes(item)).map((i) => ({ item: i }));
    }
  }

  /** @param {Node} n */
  async function expand(n) {
    n.expanded = true;
    if (n.children || n.loading) {
      render();
      return;
    }
    n.loading = true;
    render();
    const g = generation;
    /** @type {Child[]} */
    let found = [];
    try {
      found = await children(n);
    } catch (e) {
      console.error('hierarchy:', e);
    }
    if (g !== generation) return;
    n.loading = false;
    n.children = found.map((c) => Object.assign(node(c.item, n, c.ranges), { site: c.site }));
    render();
  }

  /** @param {Node} n */
  function collapse(n) {
    n.expanded = false;
    render();
  }

  /** @param {Node} n */
  function toggle(n) {
    if (n.expanded) collapse(n); else expand(n);
  }

  // place is where a row leads: a caller's call site (the first range of
  // the call in the caller's file), otherwise the symbol's name.
  /** @param {Node} n */
  function place(n) {
    if (n.site && n.ranges && n.ranges.length) return location(monaco, n.site, n.ranges[0]);
    return location(monaco, n.item.model, n.item.selectionRange);
  }

  /** @param {Node} n */
  function go(n) {
    const target = place(n);
    if (target) open(target);
  }

  /** @param {Direction} d */
  function setDirection(d) {
    if (direction[mode] === d) return;
    direction[mode] = d;
    // The same symbols, asked again in the other direction.
    generation++;
    roots = roots.map((r) => node(r.item, null));
    focused = roots.length ? roots[0].id : null;
    render();
    for (const r of roots) expand(r);
  }

  function close() {
    generation++;
    roots = [];
    state = 'idle';
    panel.hidden = true;
    onClose();
  }

  // --- rendering ---------------------------------------------------------------

  function render() {
    const m = MODES[mode];
    title.textContent = t(m.title);
    directions.setAttribute('aria-label', t('hierarchy.directions'));
    directions.replaceChildren(...m.directions.map((d) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'hierarchy-direction';
      b.dataset.direction = d;
      b.textContent = t(`hierarchy.${d}`);
      b.setAttribute('aria-pressed', String(direction[mode] === d));
      b.addEventListener('click', () => setDirection(d));
      return b;
    }));
    closeButton.title = t('hierarchy.close');
    closeButton.setAttribute('aria-label', t('hierarchy.close'));
    panel.dataset.mode = mode;
    panel.dataset.direction = direction[mode];
    empty.hidden = state !== 'none' && state !== 'loading';
    empty.textContent = state === 'loading' ? t('hierarchy.loading') : t(m.none);
    const hadFocus = tree.contains(document.activeElement);
    if (focused && !find(focused)) focused = roots.length ? roots[0].id : null;
    tree.replaceChildren(...roots.map(row));
    if (hadFocus && focused) /** @type {HTMLElement | null} */ (tree.querySelector(`[data-id="${focused}"]`))?.focus();
  }

  /** @param {Node} n @returns {HTMLLIElement} */
  function row(n) {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.className = 'hierarchy-item';
    li.dataset.id = n.id;
    li.dataset.name = n.item.name;
    li.dataset.path = shownPath(monaco, n.item.model);
    li.setAttribute('aria-level', String(n.level));
    li.setAttribute('aria-expanded', String(n.expanded));
    li.tabIndex = n.id === focused ? 0 : -1;

    const line = document.createElement('div');
    line.className = 'hierarchy-row';
    line.style.setProperty('--level', String(n.level - 1));
    const twisty = document.createElement('span');
    twisty.className = 'twisty';
    twisty.setAttribute('aria-hidden', 'true');
    twisty.addEventListener('click', (e) => {
      e.stopPropagation();
      focused = n.id;
      toggle(n);
    });
    const name = document.createElement('span');
    name.className = 'hierarchy-name';
    name.textContent = n.item.name;
    const detail = document.createElement('span');
    detail.className = 'hierarchy-detail';
    detail.textContent = n.item.detail || shownPath(monaco, n.item.model);
    line.append(twisty, kindMark(n.item.kind, t), name, detail);
    if (n.site && n.ranges && n.ranges.length > 1) {
      const count = document.createElement('span');
      count.className = 'hierarchy-count';
      count.textContent = plural('hierarchy.calls', n.ranges.length);
      line.append(count);
    }
    const where = place(n);
    if (!where) {
      li.dataset.outside = 'true';
      line.title = t('hierarchy.outside');
    } else if (where.library) {
      li.dataset.library = 'true'; // opens read-only
    }
    line.addEventListener('click', () => {
      focused = n.id;
      go(n);
    });
    li.append(line);

    if (n.expanded) {
      const group = document.createElement('ul');
      group.setAttribute('role', 'group');
      if (n.loading) group.append(note(t('hierarchy.loading'), n.level + 1));
      else if (n.children && !n.children.length) group.append(note(t('hierarchy.empty'), n.level + 1));
      else group.append(...(n.children || []).map(row));
      li.append(group);
    }
    return li;
  }

  /** @param {string} text @param {number} level */
  function note(text, level) {
    const li = document.createElement('li');
    li.setAttribute('role', 'none');
    li.className = 'hierarchy-note';
    li.style.setProperty('--level', String(level - 1));
    li.textContent = text;
    return li;
  }

  /** @param {string} id @param {Node[]} [list] @returns {Node | null} */
  function find(id, list = roots) {
    for (const n of list) {
      if (n.id === id) return n;
      const c = n.expanded && n.children ? find(id, n.children) : null;
      if (c) return c;
    }
    return null;
  }

  // visible lists the rows on screen, top to bottom.
  /** @param {Node[]} [list] @param {Node[]} [out] */
  function visible(list = roots, out = []) {
    for (const n of list) {
      out.push(n);
      if (n.expanded && n.children) visible(n.children, out);
    }
    return out;
  }

  /** @param {Node | null | undefined} n */
  function focusNode(n) {
    if (!n) return;
    focused = n.id;
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (tree.querySelectorAll('[role="treeitem"]'))) el.tabIndex = el.dataset.id === n.id ? 0 : -1;
    /** @type {HTMLElement | null} */ (tree.querySelector(`[data-id="${n.id}"]`))?.focus();
  }

  // The tree's events: their targets are elements of its rows.
  const rowOf = (/** @type {Event} */ e) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[role="treeitem"]'));
  tree.addEventListener('focusin', (e) => {
    const li = rowOf(e);
    if (li) focused = /** @type {string} */ (li.dataset.id); // every row has one
  });
  tree.addEventListener('keydown', (e) => {
    const li = rowOf(e);
    const n = li && find(/** @type {string} */ (li.dataset.id));
    if (!n) return;
    const rows = visible();
    const i = rows.indexOf(n);
    switch (e.key) {
      case 'ArrowDown': focusNode(rows[i + 1]); break;
      case 'ArrowUp': focusNode(rows[i - 1]); break;
      case 'Home': focusNode(rows[0]); break;
      case 'End': focusNode(rows[rows.length - 1]); break;
      case 'ArrowRight':
        if (!n.expanded) expand(n);
        else if (n.children && n.children.length) focusNode(n.children[0]);
        break;
      case 'ArrowLeft':
        if (n.expanded) collapse(n);
        else focusNode(n.parent);
        break;
      case 'Enter': case ' ': go(n); break;
      default: return;
    }
    e.preventDefault();
  });
  closeButton.addEventListener('click', close);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });

  return {
    show,
    close,
    get shown() { return !panel.hidden; },
    retitle() { if (!panel.hidden) render(); },
  };
}
