// @ts-check
// A server's request to open a web page (window/showDocument with
// external: gopls' Browse documentation, Browse gopls feature
// documentation) becomes a notice naming the address; Open opens it in a
// new tab — a click, which is also what lets a browser open one. Nothing
// opens without the user, and nothing is silent: an address that is no
// web page gets a notice too, without Open. The server is answered at
// once, not when the user decides: gopls waits for the answer and handles
// no other request meanwhile. So true means "offered to the user", which
// is all a web page can promise anyway.

import { noticeElement } from './notices.js';

/**
 * createExternalOpener returns the page's openExternal for lsp.configure.
 * @param {{ t: import('./platform.js').Texts, notices: HTMLElement, focusEditor: () => void }} o
 *   notices: where notices go; focusEditor: back to the editor after Escape
 * @returns {(url: string, options?: { takeFocus?: boolean }) => boolean}
 */
export function createExternalOpener({ t, notices, focusEditor }) {
  /** @type {Map<string, HTMLElement>} */
  const shown = new Map(); // address → its notice, one each
  return (url, { takeFocus = false } = {}) => {
    shown.get(url)?.remove();
    let web = false;
    try {
      web = ['http:', 'https:'].includes(new URL(url).protocol);
    } catch { /* not a URL */ }
    const openLabel = t('external.open');
    const el = noticeElement({
      type: web ? 'info' : 'warning',
      title: t(web ? 'external.title' : 'external.refusedTitle'),
      message: t(web ? 'external.message' : 'external.refused', { url }),
      actions: web ? [openLabel] : [],
      dismissLabel: t('message.dismiss'),
      close: (choice) => {
        shown.delete(url);
        if (choice === openLabel) window.open(url, '_blank', 'noopener,noreferrer');
      },
    });
    el.classList.add('external-notice');
    el.dataset.url = url;
    el.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      /** @type {HTMLElement} */ (el.querySelector('.dismiss')).click(); // every notice has one
      focusEditor();
    });
    shown.set(url, el);
    notices.append(el);
    // The server asked for the focus: Enter opens, Escape declines.
    if (takeFocus) /** @type {HTMLElement} */ (el.querySelector('.buttons button') || el.querySelector('.dismiss')).focus();
    return web;
  };
}
