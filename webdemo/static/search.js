// The content search: the task host finds the lines that hold a text in
// the session's workspace (GET /api/v1/workspace/search, confined to the
// workspace and bounded by the agent); a hit opens its file in the session
// the search ran in, at the match, as go to definition does. A hit belongs
// to that session: with the same file open in two sessions, only its own
// session's editor takes the cursor.
// @ts-check

const SEARCH_URL = '/api/v1/workspace/search';

// createSearchPanel wires the panel. sessionId() is the active session;
// open(target) is the page's navigateTo; onClose() gives the focus back.
/**
 * The agent's answer: the matching lines, columns one-based in UTF-16 units.
 * @typedef {{ matches: { path: string, line: number, column: number, endColumn: number, text: string }[], truncated?: boolean }} SearchResult
 */
/**
 * @param {{ t: import('./platform.js').Texts, sessionId: () => string, open: (target: import('./platform.js').OpenTarget) => void,
 *   panel: HTMLElement, form: HTMLFormElement, input: HTMLInputElement, status: HTMLElement, list: HTMLElement,
 *   toggle: HTMLElement, closeButton: HTMLElement, onClose: () => void }} parts
 */
export function createSearchPanel({ t, sessionId, open, panel, form, input, status, list, toggle, closeButton, onClose }) {
  let seq = 0; // the latest search: an older answer arriving late is dropped
  /** @type {{ session: string, query: string, result: SearchResult | null } | null} */
  let last = null; // { session, query, result } of the rows on screen
  const plural = (/** @type {string} */ key, /** @type {number} */ n) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n });

  function setOpen(/** @type {HTMLElement['hidden']} */ on) {
    panel.hidden = !on;
    toggle.setAttribute('aria-expanded', String(on));
    if (on) {
      input.focus();
      input.select();
    } else {
      onClose();
    }
  }
  toggle.addEventListener('click', () => setOpen(panel.hidden));
  closeButton.addEventListener('click', () => setOpen(false));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      setOpen(false);
      toggle.focus();
    }
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(input.value);
  });

  async function run(/** @type {string} */ query) {
    const my = ++seq;
    const session = sessionId();
    if (!query) {
      last = null;
      return render();
    }
    status.textContent = t('search.searching');
    list.replaceChildren();
    /** @type {SearchResult | null} */
    let result = null;
    try {
      const res = await fetch(`${SEARCH_URL}?q=${encodeURIComponent(query)}`);
      if (res.ok) result = await res.json();
    } catch (e) {
      console.error('search:', e);
    }
    if (my !== seq) return;
    last = { session, query, result };
    render();
  }

  function render() {
    retitle();
    if (!last) {
      status.textContent = t('search.hint');
      list.replaceChildren();
      return;
    }
    const { session, query, result } = last;
    if (!result) {
      status.textContent = t('search.failed');
      list.replaceChildren();
      return;
    }
    const n = result.matches.length;
    status.textContent = !n ? t('search.none', { query })
      : result.truncated ? t('search.truncated', { n }) : plural('search.count', n);
    list.replaceChildren(...result.matches.map((m) => hit(session, m)));
  }

  // hit is one row: the file and line, then the line with the match marked.
  /** @param {string} session @param {SearchResult['matches'][number]} m */
  function hit(session, m) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'search-hit';
    Object.assign(b.dataset, { session, path: m.path, line: String(m.line) });
    const where = document.createElement('span');
    where.className = 'search-where';
    where.textContent = t('search.position', { path: m.path, line: m.line });
    const text = document.createElement('span');
    text.className = 'search-text';
    const [before, match, after] = split(m.text, m.column, m.endColumn);
    const mark = document.createElement('mark');
    mark.textContent = match;
    text.append(before, mark, after);
    b.append(where, text);
    b.addEventListener('click', () => open({
      sessionId: session,
      path: m.path,
      ancestors: ancestors(m.path),
      selection: { startLineNumber: m.line, startColumn: m.column, endLineNumber: m.line, endColumn: m.endColumn },
    }));
    li.append(b);
    return li;
  }

  function retitle() {
    /** @type {HTMLElement} */ (panel.querySelector('h2')).textContent = t('search.title');
    toggle.textContent = t('search.button');
    input.placeholder = t('search.placeholder');
    input.setAttribute('aria-label', t('search.title'));
    closeButton.setAttribute('aria-label', t('search.close'));
    closeButton.title = t('search.close');
  }

  render();
  return { run, rerender: render, get isOpen() { return !panel.hidden; } };
}

// split cuts a line at one-based UTF-16 columns, the units the agent and
// JavaScript strings share.
/** @param {string} text @param {number} start @param {number} end */
function split(text, start, end) {
  const a = Math.max(0, start - 1), b = Math.max(a, end - 1);
  return [text.slice(0, a), text.slice(a, b), text.slice(b)];
}

// ancestors are the Files-tree folders of a path, outermost first.
/** @param {string} path */
function ancestors(path) {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
