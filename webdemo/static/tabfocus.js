// @ts-check
// The Tab key: indenting, or moving the focus. In the editor Tab indents,
// so the keyboard cannot leave it by Tab alone. Tab-focus mode (Toggle Tab
// Key Moves Focus: Ctrl+M, ⌃⇧M on a Mac, the keys of VS Code and Monaco)
// makes Tab and Shift+Tab move the focus instead. The toolbar shows the
// mode as a toggle button naming its key, and the editor's accessible name
// tells it, so it is found without being known. The page keeps the mode
// (Monaco's tabFocusMode option on every editor of the page) and takes
// over Monaco's own key for it, whose global state no public API reads.

/**
 * @typedef {{ updateOptions(o: { tabFocusMode: boolean }): void }} Editor
 * @typedef {{ readonly on: boolean, readonly key: string, readonly binding: number, readonly button: HTMLElement,
 *   set(on: boolean): void, toggle(): void, render(): void }} TabFocus
 */

/**
 * createTabFocus takes Monaco's key for the mode and wires the toolbar's
 * toggle; editors are the page's editors of the moment.
 * @param {{ monaco: typeof import('monaco-editor'), t: import('./platform.js').Texts, isMac: boolean,
 *   button: HTMLElement, announce: HTMLElement, editors: () => Editor[] }} o
 * @returns {TabFocus}
 */
export function createTabFocus({ monaco, t, isMac, button, announce, editors }) {
  const key = isMac ? '⌃⇧M' : 'Ctrl+M';
  const binding = isMac ? monaco.KeyMod.WinCtrl | monaco.KeyMod.Shift | monaco.KeyCode.KeyM : monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM;
  monaco.editor.addKeybindingRule({ keybinding: binding, command: '-editor.action.toggleTabFocusMode' });
  let on = false;
  const render = () => {
    button.setAttribute('aria-pressed', String(on));
    /** @type {HTMLElement} */ (button.querySelector('.label')).textContent = t('page.tabFocus'); // in index.html
    /** @type {HTMLElement} */ (button.querySelector('kbd')).textContent = key;
    button.title = t('page.tabFocus.title', { key });
    button.setAttribute('aria-keyshortcuts', isMac ? 'Control+Shift+M' : 'Control+M');
  };
  /** @param {boolean} value */
  const set = (value) => {
    on = value;
    for (const e of editors()) e.updateOptions({ tabFocusMode: on });
    render();
    // Said where the focus is (the editor, usually), not on the button.
    announce.textContent = t(on ? 'page.tabFocus.on' : 'page.tabFocus.off');
  };
  button.addEventListener('click', () => set(!on));
  return {
    get on() { return on; },
    key,
    binding,
    button,
    set,
    toggle: () => set(!on),
    render,
  };
}
