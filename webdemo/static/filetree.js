// The Files tree: the workspace's folders and files, built from the task
// host's file list. A folder renders its children the first time it
// expands. It is nested lists of buttons, a folder's saying whether it is
// expanded: Tab and Enter work it, with no tree role promising the arrow
// keys of one.
//
// Its context menu (right click, Shift+F10 or the context-menu key on a
// row, or on the panel's empty space for the workspace root) creates,
// renames and deletes; F2 renames and Delete deletes the focused row. A
// name is typed in place. A new name with a slash moves: "sub/x.ts" into a
// folder below, "/lib/x.ts" from the workspace root; the folder must
// exist. What an operation does is the page's (operate): the tree changes
// once it reports success.
// @ts-check

/** @typedef {{ dirs: Map<string, SubDir>, files: Set<string> }} TreeDir */
/** @typedef {TreeDir & { path: string }} SubDir */
/**
 * @typedef {{ kind: 'create' | 'rename' | 'delete', path: string, newPath?: string, folder: boolean }} TreeOperation
 * @typedef {{
 *   t: (key: string, args?: Record<string, string | number>) => string,
 *   open: (path: string) => void,
 *   operate: (op: TreeOperation) => Promise<boolean>,
 * }} TreeOptions
 */

export class FileTree {
  /** @param {HTMLElement} ul the tree's root list @param {TreeOptions} opts */
  constructor(ul, opts) {
    this.ul = ul;
    this.opts = opts;
    /** @type {TreeDir} */
    this.root = { dirs: new Map(), files: new Set() };
    /** Folders the task host found a .git in: they say so. */
    this.repositories = new Set();
    /** @type {string | null} */
    this.active = null;
    /** Moves since the last render: [from, to]. @type {Array<[string, string]>} */
    this.moved = [];
    this.menu = new TreeMenu(opts.t);
    const panel = /** @type {HTMLElement} */ (ul.parentElement);
    panel.addEventListener('contextmenu', (e) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('#' + ul.id + ' button'));
      e.preventDefault();
      this.showMenu(row, e.clientX, e.clientY);
    });
    panel.addEventListener('keydown', (e) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('#' + ul.id + ' button'));
      if (!row) return;
      const entry = entryOf(row);
      if (e.key === 'F2') {
        e.preventDefault();
        this.rename(entry.path, entry.folder);
      } else if (e.key === 'Delete') {
        e.preventDefault();
        this.remove(entry.path, entry.folder);
      } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        e.preventDefault();
        const r = row.getBoundingClientRect();
        this.showMenu(row, r.left + 16, r.bottom);
      }
    });
  }

  /** has reports whether path is a file or folder of the tree. @param {string} path */
  has(path) {
    const parent = this.dir(dirname(path));
    const name = basename(path);
    return !!parent && (parent.files.has(path) || parent.dirs.has(name));
  }

  /** @param {string} path a file's workspace-relative path */
  addFile(path) {
    this.addDir(dirname(path)).files.add(path);
  }

  /** addDir adds a folder and its ancestors; the folder's node. @param {string} path @returns {TreeDir} */
  addDir(path) {
    let node = this.root;
    if (path === '') return node;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      if (!node.dirs.has(parts[i])) node.dirs.set(parts[i], { path: parts.slice(0, i + 1).join('/'), dirs: new Map(), files: new Set() });
      node = /** @type {SubDir} */ (node.dirs.get(parts[i])); // set above
    }
    return node;
  }

  /** delete removes a file, or a folder with everything in it. @param {string} path */
  delete(path) {
    const parent = this.dir(dirname(path));
    if (!parent) return;
    parent.files.delete(path);
    parent.dirs.delete(basename(path));
  }

  /** move renames or moves a file or folder, with everything in it; what was expanded stays so. @param {string} from @param {string} to */
  move(from, to) {
    this.moved.push([from, to]);
    const folder = this.dir(from);
    this.delete(from);
    if (!folder) {
      this.addFile(to);
      return;
    }
    const walk = (/** @type {TreeDir} */ node) => {
      for (const f of node.files) this.addFile(to + f.slice(from.length));
      for (const d of node.dirs.values()) {
        this.addDir(to + d.path.slice(from.length));
        walk(d);
      }
    };
    this.addDir(to);
    walk(folder);
  }

  /** files lists every file of the tree. @returns {string[]} */
  files() {
    /** @type {string[]} */
    const out = [];
    const walk = (/** @type {TreeDir} */ node) => {
      out.push(...node.files);
      for (const d of node.dirs.values()) walk(d);
    };
    walk(this.root);
    return out;
  }

  // sync makes the tree the task host's: listed is its file list now,
  // gone the paths it reported deleted since the last sync. Files come
  // and go as listed; a folder goes when it was reported deleted and
  // nothing listed is in it (an empty folder the list cannot show stays
  // until then). It reports whether anything changed.
  /** @param {string[]} listed @param {string[]} gone @returns {boolean} */
  sync(listed, gone) {
    const now = new Set(listed);
    let changed = false;
    for (const f of this.files()) {
      if (!now.has(f)) { this.delete(f); changed = true; }
    }
    for (const p of gone) {
      if (p && this.dir(p) && !listed.some((f) => f.startsWith(p + '/'))) { this.delete(p); changed = true; }
    }
    for (const f of listed) {
      if (!this.has(f)) { this.addFile(f); changed = true; }
    }
    return changed;
  }

  /** busy says a name field or the menu is open: no time to draw the tree again. */
  busy() {
    return !!this.ul.querySelector('input.tree-name') || !this.menu.el.hidden;
  }

  /** dir is a folder's node ('' is the root), or undefined. @param {string} path */
  dir(path) {
    /** @type {TreeDir | undefined} */
    let node = this.root;
    if (path === '') return node;
    for (const part of path.split('/')) node = node && node.dirs.get(part);
    return node;
  }

  /** render draws the tree again; expanded folders stay expanded. */
  render() {
    const open = [...this.ul.querySelectorAll('button.folder[aria-expanded="true"]')].map((b) => {
      let dir = /** @type {HTMLElement} */ (b).dataset.dir || '';
      for (const [from, to] of this.moved) if (dir === from || dir.startsWith(from + '/')) dir = to + dir.slice(from.length);
      return dir;
    });
    this.moved = [];
    this.ul.replaceChildren();
    this.renderLevel(this.ul, this.root);
    for (const dir of open.sort()) if (this.dir(dir)) this.expand(dir); // parents first
    this.markActive(this.active);
  }

  /** @param {HTMLElement} ul @param {TreeDir} node */
  renderLevel(ul, node) {
    for (const [name, dir] of [...node.dirs.entries()].sort()) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.className = 'folder';
      b.textContent = name;
      b.dataset.dir = dir.path;
      if (this.repositories.has(dir.path)) {
        const badge = document.createElement('span');
        badge.className = 'repo-badge';
        badge.dataset.t = 'page.repository';
        badge.textContent = this.opts.t('page.repository');
        b.dataset.repo = dir.path;
        b.append(' ', badge);
      }
      b.setAttribute('aria-expanded', 'false');
      b.addEventListener('click', () => this.toggle(dir.path));
      const sub = document.createElement('ul');
      sub.hidden = true;
      li.append(b, sub);
      ul.append(li);
    }
    for (const path of [...node.files].sort()) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.className = 'file';
      b.textContent = basename(path);
      b.title = path;
      b.dataset.path = path;
      b.setAttribute('aria-current', 'false');
      b.addEventListener('click', () => this.opts.open(path));
      li.append(b);
      ul.append(li);
    }
  }

  /** @param {string} path */
  folderButton(path) {
    return /** @type {HTMLElement | null} */ (this.ul.querySelector(`button.folder[data-dir="${CSS.escape(path)}"]`));
  }

  /** expand loads (renders) and opens one folder. @param {string} path */
  expand(path) {
    const b = this.folderButton(path);
    if (!b) return;
    const sub = /** @type {HTMLElement} */ (b.nextElementSibling); // a folder's list follows its button
    if (!sub.dataset.loaded) {
      this.renderLevel(sub, /** @type {TreeDir} */ (this.dir(path))); // the button was rendered from it
      sub.dataset.loaded = 'true';
    }
    sub.hidden = false;
    b.setAttribute('aria-expanded', 'true');
  }

  /** expandTo expands every folder above path. @param {string} path */
  expandTo(path) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) this.expand(parts.slice(0, i).join('/'));
  }

  /** @param {string} path */
  toggle(path) {
    const b = this.folderButton(path);
    if (b && b.getAttribute('aria-expanded') === 'true') {
      /** @type {HTMLElement} */ (b.nextElementSibling).hidden = true;
      b.setAttribute('aria-expanded', 'false');
    } else {
      this.expand(path);
    }
  }

  /** @param {string | null} path */
  markActive(path) {
    this.active = path;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (this.ul.querySelectorAll('button.file'))) {
      b.setAttribute('aria-current', String(b.dataset.path === path));
    }
  }

  /** @param {HTMLElement | null} row the row, or null for the workspace root @param {number} x @param {number} y */
  showMenu(row, x, y) {
    const entry = row ? entryOf(row) : { path: '', folder: true };
    const where = entry.folder ? entry.path : dirname(entry.path);
    /** @type {Array<[string, () => void]>} */
    const items = [
      ['page.newFile', () => this.create(where, false)],
      ['page.newFolder', () => this.create(where, true)],
    ];
    if (row) items.push(['page.rename', () => this.rename(entry.path, entry.folder)], ['page.delete', () => this.remove(entry.path, entry.folder)]);
    this.menu.show(items, x, y, row || this.ul);
  }

  /** create asks for a name in folder dir, then creates it. @param {string} dir @param {boolean} folder */
  create(dir, folder) {
    if (dir) this.expand(dir);
    const list = dir ? /** @type {HTMLElement} */ (this.folderButton(dir)?.nextElementSibling) : this.ul;
    const li = document.createElement('li');
    list.prepend(li);
    this.ask(li, '', folder ? 'page.newFolder' : 'page.newFile', async (name) => {
      const path = resolveName(dir, name);
      if (!path || this.has(path) || !this.dir(dirname(path))) return false;
      return this.opts.operate({ kind: 'create', path, folder });
    }, () => li.remove());
  }

  /** rename asks for the new name of path in place, then renames or moves it. @param {string} path @param {boolean} folder */
  rename(path, folder) {
    const row = folder ? this.folderButton(path) : /** @type {HTMLElement | null} */ (this.ul.querySelector(`button.file[data-path="${CSS.escape(path)}"]`));
    if (!row) return;
    const li = /** @type {HTMLElement} */ (row.parentElement);
    row.hidden = true;
    this.ask(li, basename(path), 'page.rename', async (name) => {
      const to = resolveName(dirname(path), name);
      if (!to || to === path) return to === path;
      if (this.has(to) || !this.dir(dirname(to)) || (folder && to.startsWith(path + '/'))) return false;
      return this.opts.operate({ kind: 'rename', path, newPath: to, folder });
    }, () => { row.hidden = false; row.focus(); });
  }

  /** remove deletes path once the user confirms. @param {string} path @param {boolean} folder */
  async remove(path, folder) {
    if (!confirm(this.opts.t(folder ? 'page.deleteFolder.confirm' : 'page.deleteFile.confirm', { path }))) return;
    await this.opts.operate({ kind: 'delete', path, folder });
  }

  // ask puts a name field into li: Enter tries done(name) — false keeps
  // the field, marked invalid; Escape or leaving it ends it (end).
  /**
   * @param {HTMLElement} li @param {string} value @param {string} label
   * @param {(name: string) => Promise<boolean>} done @param {() => void} end
   */
  ask(li, value, label, done, end) {
    const input = document.createElement('input');
    input.className = 'tree-name';
    input.value = value;
    input.setAttribute('aria-label', this.opts.t(label));
    input.title = this.opts.t('page.treeName.title');
    li.append(input);
    let busy = false;
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      input.remove();
      end();
    };
    input.addEventListener('keydown', async (e) => {
      e.stopPropagation(); // F2 and Delete are the field's here
      if (e.key === 'Escape') finish();
      if (e.key !== 'Enter' || busy) return;
      e.preventDefault();
      busy = true;
      const ok = await done(input.value.trim()).catch(() => false);
      busy = false;
      if (ok) finish();
      else input.setAttribute('aria-invalid', 'true');
    });
    input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
    input.addEventListener('blur', () => { if (!busy) finish(); });
    input.focus();
    const dot = value.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : value.length); // the name, not its extension
  }
}

// TreeMenu is the tree's context menu: a list of actions at a point,
// closed by Escape, a click elsewhere or choosing.
class TreeMenu {
  /** @param {(key: string) => string} t */
  constructor(t) {
    this.t = t;
    this.el = document.createElement('div');
    this.el.className = 'tree-menu';
    this.el.setAttribute('role', 'menu');
    this.el.hidden = true;
    document.body.append(this.el);
    /** @type {HTMLElement | null} */
    this.returnTo = null;
    this.el.addEventListener('keydown', (e) => {
      const items = /** @type {HTMLElement[]} */ ([...this.el.querySelectorAll('button')]);
      const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (e.key === 'Escape') {
        e.preventDefault();
        this.hide();
        this.returnTo?.focus();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length].focus();
      }
    });
    document.addEventListener('pointerdown', (e) => { if (!this.el.contains(/** @type {Node} */ (e.target))) this.hide(); });
  }

  /** @param {Array<[string, () => void]>} items text keys and actions @param {number} x @param {number} y @param {HTMLElement} returnTo */
  show(items, x, y, returnTo) {
    this.returnTo = returnTo;
    this.el.replaceChildren(...items.map(([key, act]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'menuitem');
      b.dataset.action = key.slice('page.'.length);
      b.textContent = this.t(key);
      b.addEventListener('click', () => { this.hide(); act(); });
      return b;
    }));
    this.el.hidden = false;
    const r = this.el.getBoundingClientRect();
    this.el.style.left = `${Math.max(0, Math.min(x, innerWidth - r.width))}px`;
    this.el.style.top = `${Math.max(0, Math.min(y, innerHeight - r.height))}px`;
    /** @type {HTMLElement} */ (this.el.querySelector('button')).focus();
  }

  hide() {
    this.el.hidden = true;
  }
}

/** @param {HTMLElement} row */
function entryOf(row) {
  return row.classList.contains('folder') ? { path: row.dataset.dir || '', folder: true } : { path: row.dataset.path || '', folder: false };
}

/** @param {string} path */
const dirname = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
/** @param {string} path */
const basename = (path) => path.slice(path.lastIndexOf('/') + 1);

// resolveName is the workspace path a typed name means in folder dir: a
// plain name or a relative path below dir, or a path from the workspace
// root when it starts with a slash; null for an empty one or one with
// "." or ".." segments.
/** @param {string} dir @param {string} name @returns {string | null} */
export function resolveName(dir, name) {
  const fromRoot = name.startsWith('/');
  const parts = name.split('/').filter((p, i) => !(fromRoot && i === 0));
  if (parts.length === 0 || parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  const rel = parts.join('/');
  return fromRoot || !dir ? rel : `${dir}/${rel}`;
}
