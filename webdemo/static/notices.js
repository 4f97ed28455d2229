// Server messages for people (window/showMessage and showMessageRequest),
// as dismissable notices. lsp.wasm hands each one over ready to show: the
// server's text and action titles verbatim, a localized title and dismiss
// label. A request is answered with the chosen action, or dismissed (null).
// @ts-check

/** @typedef {import('@kandev/lsp').KandevLSP} KandevLSP */

// mountNotices shows lsp's messages in container; it returns off().
/** @param {KandevLSP} lsp @param {HTMLElement} container */
export function mountNotices(lsp, container) {
  return lsp.onMessage((m) => container.append(noticeElement({
    type: m.type, title: m.title, message: m.message, actions: m.actions, dismissLabel: m.dismissLabel,
    close: (choice) => { if (m.id) lsp.respond(m.id, choice); },
  })));
}

// noticeElement builds one notice: a title, a text, a button per action
// and a dismiss button; close(action | null) runs before it is removed.
/**
 * @param {{ type: string, title: string, message: string, actions: string[], dismissLabel: string,
 *   close: (choice: string | null) => void }} notice
 */
export function noticeElement({ type, title, message, actions, dismissLabel, close }) {
  const el = document.createElement('div');
  el.className = 'notice';
  el.dataset.type = type;
  el.setAttribute('role', type === 'error' ? 'alert' : 'status');
  const heading = document.createElement('strong');
  heading.textContent = title;
  const text = document.createElement('p');
  text.textContent = message;
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const done = (/** @type {string | null} */ choice) => {
    close(choice);
    el.remove();
  };
  for (const action of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = action;
    b.addEventListener('click', () => done(action));
    buttons.append(b);
  }
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'dismiss';
  dismiss.textContent = '×';
  dismiss.title = dismissLabel;
  dismiss.setAttribute('aria-label', dismissLabel);
  dismiss.addEventListener('click', () => done(null));
  el.append(dismiss, heading, text);
  if (actions.length) el.append(buttons);
  return el;
}
