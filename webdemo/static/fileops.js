// @ts-check
// File operations on the task host: the Files tree's own creates, renames
// (moves) and deletes, framed for the language servers, and the file
// operations of a server's workspace edit, with LSP's options. The page
// keeps the tabs; this module tells it what moved or went.

import { noticeElement } from './notices.js';
import { fileURL, entryURL, moveURL } from './tabs.js';

/** @typedef {import('./tabs.js').Tab} Tab */

/**
 * @typedef {{
 *   lsp: import('@kandev/lsp').KandevLSP,
 *   tree: import('./filetree.js').FileTree,
 *   tabs: Map<string, Tab>,
 *   t: import('./platform.js').Texts,
 *   notices: HTMLElement,
 *   sessionId: () => string,
 *   lspSession: (session: string) => boolean,
 *   tabsUnder: (session: string, path: string, folder: boolean) => Tab[],
 *   saveTab: (t: Tab) => Promise<boolean>,
 *   closeTab: (t: Tab) => void,
 *   openFile: (path: string) => Promise<Tab>,
 *   rememberTabs: () => void,
 *   retab: (moved: Tab[], from: string, to: string) => void,
 * }} Page
 */

/**
 * createFileOperations returns the page's file operations:
 * operate (the tree's), resourceOp (a workspace edit's), busy (one runs:
 * the tree is not listed again under it) and noteEdited (a workspace edit
 * changed a tab's file while a will… request's edits were applied).
 * @param {Page} page
 */
export function createFileOperations(page) {
  const { lsp, tree, tabs, t } = page;
  let operating = 0;
  // editedDuring collects, while a will… request's edits are applied, the
  // tabs they changed (by id), and whether each was opened for the edit.
  /** @type {Map<string, boolean> | null} */
  let editedDuring = null;

  // failed says that the task host refused an operation: the name is
  // taken, the folder is gone, or the path is not the workspace's.
  /** @param {import('./filetree.js').TreeOperation} op @param {number} status */
  const failed = (op, status) => {
    const el = noticeElement({
      type: 'error',
      title: t('page.fileOp.failed', { path: op.path }),
      message: t(status === 409 ? 'page.fileOp.exists' : status === 404 ? 'page.fileOp.missing' : 'page.fileOp.refused', { path: op.newPath || op.path, status }),
      actions: [],
      dismissLabel: t('message.dismiss'),
      close: () => {},
    });
    el.classList.add('fileop-notice');
    page.notices.append(el);
  };

  // operateNow makes one create, rename (or move) or delete of the tree on
  // the task host, framed for the language servers: first their will…
  // request, whose edits lsp.wasm applies (the TypeScript server's updated
  // imports of a moved module); the files those edits changed are saved,
  // as an IDE saves a refactoring's files, and those that were not open
  // close again; then the operation itself, the did… notification, and the
  // tabs following it. A refusal by the task host leaves the tree and the
  // tabs as they were and says so in a notice.
  /** @param {import('./filetree.js').TreeOperation} op @returns {Promise<boolean>} */
  const operateNow = async (op) => {
    const s = page.sessionId();
    const useLSP = page.lspSession(s);
    const to = op.newPath || '';
    const renames = [{ oldPath: op.path, newPath: to, folder: op.folder }];
    const entries = [{ path: op.path, folder: op.folder }];
    if (useLSP) {
      editedDuring = new Map();
      try {
        const r = await (op.kind === 'create' ? lsp.willCreateFiles(s, entries) : op.kind === 'rename' ? lsp.willRenameFiles(s, renames) : lsp.willDeleteFiles(s, entries));
        if (r.failed.length) console.warn(`${op.kind} ${op.path}:`, r.failed.join('; '));
      } finally {
        const edited = editedDuring;
        editedDuring = null;
        for (const [id, adopted] of edited) {
          const tab = tabs.get(id);
          if (!tab || op.kind === 'delete' && page.tabsUnder(s, op.path, !!op.folder).includes(tab)) continue; // going anyway
          if (await page.saveTab(tab) && adopted) page.closeTab(tab);
        }
      }
    }
    const url = op.kind === 'rename' ? moveURL(op.path, to)
      : entryURL(op.path) + (op.kind === 'create' ? `&kind=${op.folder ? 'dir' : 'file'}` : '');
    const res = await fetch(url, { method: op.kind === 'delete' ? 'DELETE' : 'POST' }).catch(() => null);
    if (!res || !res.ok) {
      failed(op, res ? res.status : 0);
      return false;
    }
    if (op.kind === 'create') {
      if (op.folder) tree.addDir(op.path); else tree.addFile(op.path);
    } else if (op.kind === 'rename') {
      tree.move(op.path, to);
    } else {
      tree.delete(op.path);
    }
    // The servers hear of it before documents open at the new paths.
    if (useLSP) await (op.kind === 'create' ? lsp.didCreateFiles(s, entries) : op.kind === 'rename' ? lsp.didRenameFiles(s, renames) : lsp.didDeleteFiles(s, entries));
    const moved = page.tabsUnder(s, op.path, !!op.folder);
    if (op.kind === 'rename') page.retab(moved, op.path, to); else for (const tab of moved) page.closeTab(tab);
    tree.render();
    if (op.kind === 'create' || op.kind === 'rename') tree.expandTo(op.kind === 'create' ? op.path : to);
    if (op.kind === 'create' && !op.folder) await page.openFile(op.path);
    page.rememberTabs();
    return true;
  };

  return {
    /** @param {import('./filetree.js').TreeOperation} op @returns {Promise<boolean>} */
    async operate(op) {
      operating++;
      try {
        return await operateNow(op);
      } finally {
        operating--;
      }
    },

    // resourceOp makes one file operation of a server's workspace edit on
    // the task host, with LSP's options: an existing target is kept
    // (ignoreIfExists) or replaced (overwrite), else the edit fails; a
    // missing one is no failure with ignoreIfNotExists; a folder with
    // entries is deleted only with recursive. Unlike the tree's own
    // operations, nothing is framed by will…/did…: the server that sent
    // the edit knows.
    /**
     * @param {string} s @param {{ kind: 'create' | 'rename' | 'delete', path: string, to?: string }} op
     * @param {import('@kandev/lsp').FileOperationOptions} o @returns {Promise<boolean>}
     */
    async resourceOp(s, op, o) {
      const send = (/** @type {string} */ method, /** @type {string} */ url) => fetch(url, { method }).then((r) => r.status, () => 0);
      const to = op.to || '';
      operating++;
      try {
        if (op.kind === 'create') {
          let status = await send('POST', entryURL(op.path) + '&kind=file');
          if (status === 409 && o.overwrite) status = await fetch(fileURL(op.path), { method: 'PUT', body: '' }).then((r) => r.status, () => 0);
          else if (status === 409 && o.ignoreIfExists) return true;
          if (status !== 201 && status !== 204) return false;
          tree.addFile(op.path);
        } else if (op.kind === 'rename') {
          let status = await send('POST', moveURL(op.path, to));
          if (status === 409 && o.ignoreIfExists) return true;
          if (status === 409 && o.overwrite && (await send('DELETE', entryURL(to))) === 204) {
            status = await send('POST', moveURL(op.path, to));
          }
          if (status !== 204) return false;
          tree.move(op.path, to);
          page.retab(page.tabsUnder(s, op.path, true), op.path, to);
        } else {
          const dir = tree.dir(op.path);
          if (dir && (dir.files.size || dir.dirs.size) && !o.recursive) return false;
          const status = await send('DELETE', entryURL(op.path));
          if (status === 404 && o.ignoreIfNotExists) return true;
          if (status !== 204) return false;
          tree.delete(op.path);
          for (const tab of page.tabsUnder(s, op.path, true)) page.closeTab(tab);
        }
        tree.render();
        page.rememberTabs();
        return true;
      } finally {
        operating--;
      }
    },

    busy: () => operating > 0,

    /** @param {string} id @param {boolean} adopted */
    noteEdited(id, adopted) {
      if (editedDuring && !editedDuring.has(id)) editedDuring.set(id, adopted);
    },
  };
}
