// Files that change on the task host while they are open. lsp.wasm reloads
// an open file without unsaved changes by itself and reports every change
// (onDiskChange): a reloaded file is saved again, at its new version; one
// with unsaved changes that changed on disk, or one deleted there, gets a
// notice. Reload takes the file's text; Keep mine leaves the editor as it
// is (saving then writes it back). Nothing here writes the file.
// @ts-check

import { noticeElement } from './notices.js';

/**
 * The fields of an open tab (app.js) read and moved here.
 * @typedef {{ model: import('monaco-editor').editor.ITextModel | null, doc: import('@kandev/lsp').DocumentHandle | null,
 *   path: string, savedVersion?: number, savedAlt?: number, state: string }} Tab
 */

// mountDiskNotices handles lsp's disk changes: tabs() gives the open tabs
// ({ model, doc, path, savedVersion, state }), t the page's texts, and
// changed(tab) redraws a tab whose saved state moved. It returns off().
/**
 * @param {import('@kandev/lsp').KandevLSP} lsp
 * @param {HTMLElement} container
 * @param {{ tabs: () => Map<string, Tab>, t: (key: string, args?: Record<string, string | number>) => string,
 *   changed: (tab: Tab) => void }} page
 */
export function mountDiskNotices(lsp, container, { tabs, t, changed }) {
  /** @type {Map<string, HTMLElement>} */
  const open = new Map(); // model URI → its notice, so a file has one at most
  return lsp.onDiskChange((c) => {
    const tab = [...tabs().values()].find((x) => x.model && x.model.uri.toString() === c.model);
    if (!tab) return;
    open.get(c.model)?.remove();
    open.delete(c.model);
    if (c.reloaded) {
      tab.savedVersion = c.versionId;
      // The reload is the saved text: undoing back to it is clean again.
      tab.savedAlt = tab.model && tab.model.getVersionId() === c.versionId ? tab.model.getAlternativeVersionId() : undefined;
      if (tab.state === 'failed') tab.state = 'saved';
      changed(tab);
      return;
    }
    if (c.change !== 'deleted' && !c.dirty) return;
    const deleted = c.change === 'deleted';
    const reload = t('page.disk.reload');
    const el = noticeElement({
      type: 'warning',
      title: t('page.disk.title'),
      message: t(deleted ? 'page.disk.deleted' : 'page.disk.changed', { path: c.path }),
      actions: deleted || !tab.doc ? [] : [reload, t('page.disk.keep')],
      dismissLabel: t('message.dismiss'),
      close: (choice) => {
        open.delete(c.model);
        if (choice === reload) tab.doc?.reload(); // offered only with a doc
      },
    });
    el.dataset.model = c.model;
    open.set(c.model, el);
    container.append(el);
  });
}
