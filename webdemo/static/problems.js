// The Problems panel: every file of the active session with diagnostics,
// open in a tab or not — what lsp.wasm collects from the language servers
// (lsp.problems: pushed diagnostics for files nobody opened, related
// documents of pulls, workspace diagnostics). Rows are grouped by file; a
// click opens the file and selects the problem's range. A toolbar toggle
// shows or hides the panel and counts the errors and warnings.
//
// Like the Problems view of desktop editors, it lists errors, warnings and
// information, not hints (unused code and the like, faded in the editor).
//
// The keyboard: the toggle opened with Enter or Space moves the focus into
// the panel (it comes after the editor in the page); Up and Down (Home,
// End) move between the files and their problems, Enter opens a problem or
// folds a file, and Escape closes the panel and goes back to the toggle.
// @ts-check

/** @typedef {import('@kandev/lsp').ProblemFile} ProblemFile */
/** @typedef {ProblemFile['markers'][number]} Marker */
/** A file the panel lists: lsp.wasm's, or one only Monaco's own checkers mark. @typedef {{ path: string, markers: Marker[] }} PanelFile */

/** @type {Record<number, string | undefined>} */
const SEVERITY = { 8: 'error', 4: 'warning', 2: 'info' }; // Monaco's MarkerSeverity
const OPEN_KEY = 'kandev.demo.problemsOpen';
const LSP_OWNER = 'kandev-lsp'; // lsp.wasm's marker owners start so

// createProblemsPanel wires the panel. sessionId() is the active session;
// open(target) opens a file in a tab at a selection (the page's navigateTo,
// the same as a go-to-definition target). listen() subscribes to lsp's
// changes and returns off(); call it again after a configure.
/**
 * @param {{ lsp: import('@kandev/lsp').KandevLSP, monaco: import('@kandev/lsp').MonacoNamespace, t: import('./platform.js').Texts, sessionId: () => string,
 *   open: (target: import('./platform.js').OpenTarget) => void, panel: HTMLElement, list: HTMLElement,
 *   empty: HTMLElement, toggle: HTMLElement, badge: HTMLElement }} parts
 */
export function createProblemsPanel({ lsp, monaco, t, sessionId, open, panel, list, empty, toggle, badge }) {
  /** @type {Set<string>} */
  const collapsed = new Set(); // paths whose markers are folded away
  let shown = localStorage.getItem(OPEN_KEY) === '1';
  let pending = 0;

  // plural picks KEY.one or KEY.other, the one/other rule of the page's
  // locales (English, German and en-XA); lsp.text fills {n}.
  const plural = (/** @type {string} */ key, /** @type {number} */ n) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n });

  function files() {
    /** @type {Map<string, PanelFile>} */
    const byPath = new Map(lsp.problems(sessionId()).map((f) => [f.path, { path: f.path, markers: [...f.markers] }]));
    // Monaco's own checkers (its CSS, JSON and HTML workers, and its
    // TypeScript worker where no server owns the file) mark the same
    // editor: their markers are problems too. lsp.wasm's own owners are
    // in lsp.problems already.
    const session = sessionId().toLowerCase();
    for (const m of monaco.editor.getModelMarkers({})) {
      const u = m.resource;
      if (m.owner.startsWith(LSP_OWNER) || u.scheme !== 'kandev' || u.authority !== session || u.path.length < 2) continue;
      const path = u.path.slice(1);
      let f = byPath.get(path);
      if (!f) byPath.set(path, f = { path, markers: [] });
      f.markers.push(/** @type {Marker} */ (/** @type {unknown} */ (m)));
    }
    return [...byPath.values()]
      .map((f) => ({ ...f, markers: f.markers.filter((m) => SEVERITY[m.severity]).sort(byRank) }))
      .filter((f) => f.markers.length);
  }

  function render() {
    pending = 0;
    const all = files();
    let errors = 0, warnings = 0;
    for (const f of all) {
      for (const m of f.markers) {
        if (m.severity === 8) errors++;
        else if (m.severity === 4) warnings++;
      }
    }
    renderToggle(errors, warnings);
    panel.hidden = !shown;
    if (!shown) return; // the rows are built when the panel opens
    empty.hidden = all.length > 0;
    empty.textContent = t('problems.empty');
    // A row with keyboard focus keeps it across the redraw while it is listed.
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const had = active && list.contains(active) ? active.dataset.key : null;
    list.replaceChildren(...all.map(fileGroup));
    if (had) /** @type {HTMLElement | null} */ (list.querySelector(`.problem[data-key="${CSS.escape(had)}"]`))?.focus();
  }

  /** @param {number} errors @param {number} warnings */
  function renderToggle(errors, warnings) {
    toggle.setAttribute('aria-expanded', String(shown));
    const label = /** @type {HTMLElement} */ (toggle.querySelector('.label')); // in index.html
    label.textContent = t('problems.title');
    // The icons and numbers are for the eye; the button's name is the
    // sentence with the words, its hidden text (not an aria-label, which
    // would hide the visible text from the name).
    const name = t('problems.toggle', { errors: plural('problems.errors', errors), warnings: plural('problems.warnings', warnings) });
    toggle.title = name;
    /** @type {HTMLElement} */ (toggle.querySelector('#problems-name')).textContent = name; // in index.html
    badge.dataset.errors = String(errors);
    badge.dataset.warnings = String(warnings);
    const count = (/** @type {string} */ kind, /** @type {number} */ n) => {
      const s = document.createElement('span');
      s.className = 'count';
      s.dataset.severity = kind;
      s.dataset.count = String(n);
      s.setAttribute('aria-hidden', 'true');
      s.append(icon(kind), String(n));
      return s;
    };
    badge.replaceChildren(count('error', errors), count('warning', warnings));
  }

  /** @param {PanelFile} f */
  function fileGroup(f) {
    const li = document.createElement('li');
    li.className = 'problem-file';
    li.dataset.path = f.path;
    const details = document.createElement('details');
    details.open = !collapsed.has(f.path);
    details.addEventListener('toggle', () => {
      if (details.open) collapsed.delete(f.path); else collapsed.add(f.path);
    });
    const summary = document.createElement('summary');
    const name = document.createElement('span');
    name.className = 'problem-path';
    name.textContent = f.path;
    const n = document.createElement('span');
    n.className = 'problem-count';
    n.textContent = String(f.markers.length);
    n.title = plural('problems.count', f.markers.length);
    summary.append(name, ' ', n);
    const ul = document.createElement('ul');
    ul.append(...f.markers.map((m) => row(f, m)));
    details.append(summary, ul);
    li.append(details);
    return li;
  }

  /** @param {PanelFile} f @param {Marker} m */
  function row(f, m) {
    const kind = /** @type {string} */ (SEVERITY[m.severity]); // files() keeps only these
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'problem';
    b.dataset.severity = kind;
    b.dataset.path = f.path;
    b.dataset.line = String(m.startLineNumber);
    b.dataset.column = String(m.startColumn);
    b.dataset.key = `${f.path}:${m.startLineNumber}:${m.startColumn}:${kind}`;
    const sev = icon(kind);
    sev.title = t(`problems.severity.${kind}`);
    sev.setAttribute('role', 'img');
    sev.setAttribute('aria-label', sev.title);
    const message = document.createElement('span');
    message.className = 'problem-message';
    message.textContent = m.message;
    const where = document.createElement('span');
    where.className = 'problem-where';
    const src = source(m);
    if (src) {
      const s = document.createElement('span');
      s.className = 'problem-source';
      s.textContent = src;
      where.append(s, ' ');
    }
    const pos = document.createElement('span');
    pos.className = 'problem-position';
    pos.textContent = t('problems.position', { line: m.startLineNumber, column: m.startColumn });
    where.append(pos);
    b.append(sev, message, where);
    b.addEventListener('click', () => open({
      sessionId: sessionId(),
      path: f.path,
      ancestors: ancestors(f.path),
      selection: {
        startLineNumber: m.startLineNumber, startColumn: m.startColumn,
        endLineNumber: m.endLineNumber, endColumn: m.endColumn,
      },
    }));
    li.append(b);
    return li;
  }

  // later coalesces the changes of one burst (a server reports file after
  // file) into one redraw.
  function later() {
    if (!pending) pending = requestAnimationFrame(render);
  }

  function setShown(/** @type {boolean} */ on) {
    shown = on;
    localStorage.setItem(OPEN_KEY, shown ? '1' : '0');
    render();
  }

  // The panel's rows on screen, files and problems, top to bottom.
  const rows = () => [...panel.querySelectorAll('summary, .problem')]
    .map((el) => /** @type {HTMLElement} */ (el)).filter((el) => el.getClientRects().length > 0);

  toggle.addEventListener('click', (e) => {
    setShown(!shown);
    // From the keyboard (a click without a pointer), into the panel.
    if (shown && e.detail === 0) (rows()[0] || panel).focus();
  });
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      setShown(false);
      toggle.focus();
      return;
    }
    const all = rows();
    const i = all.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: all.length - 1 }[e.key];
    if (to === undefined || !all.length) return;
    e.preventDefault();
    all[Math.max(0, Math.min(to, all.length - 1))].focus();
  });

  // Monaco's own checkers' markers change apart from lsp.wasm's: one
  // listener for the page's life, which redraws for models that hold (or
  // held) such markers. lsp.wasm's own changes come through onProblems —
  // and none come after dispose(), when the catalog's texts are gone.
  /** @type {Set<string>} */
  const ownMarked = new Set();
  monaco.editor.onDidChangeMarkers((uris) => {
    let changed = false;
    for (const u of uris) {
      if (u.scheme !== 'kandev') continue;
      const key = u.toString();
      const has = monaco.editor.getModelMarkers({ resource: u }).some((m) => !m.owner.startsWith(LSP_OWNER));
      if (has || ownMarked.has(key)) changed = true;
      if (has) ownMarked.add(key); else ownMarked.delete(key);
    }
    if (changed) later();
  });

  return {
    render,
    listen: () => lsp.onProblems(({ sessionId: id }) => { if (id === sessionId()) later(); }),
    get shown() { return shown; },
  };
}

// icon is a severity's mark, drawn by the style sheet (the same in every
// font).
/** @param {string} kind */
function icon(kind) {
  const i = document.createElement('span');
  i.className = 'severity-icon';
  i.dataset.severity = kind;
  return i;
}

// byRank orders a file's problems as the editor's Problems view does:
// errors first, then by position.
/** @param {Marker} a @param {Marker} b */
function byRank(a, b) {
  return b.severity - a.severity || a.startLineNumber - b.startLineNumber || a.startColumn - b.startColumn;
}

// source is "source(code)" as servers name their checks, e.g.
// compiler(IncompatibleAssign) or ts(2322).
/** @param {Marker} m */
function source(m) {
  const code = m.code == null ? '' : typeof m.code === 'object' ? m.code.value : String(m.code);
  if (m.source && code) return `${m.source}(${code})`;
  return m.source || code;
}

// ancestors are the folders of path, outermost first, for the Files tree.
/** @param {string} path */
function ancestors(path) {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
