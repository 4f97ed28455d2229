// The open tabs outlive a reload, as in a desktop editor: which files are
// open (session and path, in the strip's order), which one is active, and
// each one's cursor and scroll (Monaco's view state, which is plain JSON).
// Unsaved text is not kept: a restored tab shows the file as the task host
// has it.
// @ts-check

const KEY = 'kandev.demo.tabs';

/**
 * @typedef {{ session: string, path: string, viewState: import('monaco-editor').editor.ICodeEditorViewState | null, library?: boolean }} SavedTab
 * @typedef {{ tabs: SavedTab[], active: { session: string, path: string } | null }} SavedTabs
 */

/** loadTabs reads what saveTabs kept; anything unreadable is no tabs. @returns {SavedTabs} */
export function loadTabs() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (v && Array.isArray(v.tabs)) {
      return {
        tabs: v.tabs.filter((/** @type {any} */ t) => t && typeof t.session === 'string' && typeof t.path === 'string')
          .map((/** @type {any} */ t) => ({ session: t.session, path: t.path, viewState: t.viewState && typeof t.viewState === 'object' ? t.viewState : null, ...(t.library === true ? { library: true } : {}) })),
        active: v.active && typeof v.active.session === 'string' && typeof v.active.path === 'string' ? v.active : null,
      };
    }
  } catch {
    // a value some other version wrote, or storage refused: start empty
  }
  return { tabs: [], active: null };
}

/** saveTabs keeps the open tabs for the next load of the page. @param {SavedTabs} v */
export function saveTabs(v) {
  try {
    localStorage.setItem(KEY, JSON.stringify(v));
  } catch {
    // storage full or refused (a private window): tabs are not kept
  }
}
