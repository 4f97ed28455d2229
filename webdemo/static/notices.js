// Server messages for people (window/showMessage and showMessageRequest),
// as dismissable notices. lsp.wasm hands each one over ready to show: the
// server's text and action titles verbatim, a localized title and dismiss
// label. A request is answered with the chosen action, or dismissed (null).

// mountNotices shows lsp's messages in container; it returns off().
export function mountNotices(lsp, container) {
  return lsp.onMessage((m) => container.append(notice(lsp, m)));
}

function notice(lsp, m) {
  const el = document.createElement('div');
  el.className = 'notice';
  el.dataset.type = m.type;
  el.setAttribute('role', m.type === 'error' ? 'alert' : 'status');
  const title = document.createElement('strong');
  title.textContent = m.title;
  const text = document.createElement('p');
  text.textContent = m.message;
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const close = (choice) => {
    if (m.id) lsp.respond(m.id, choice);
    el.remove();
  };
  for (const action of m.actions) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = action;
    b.addEventListener('click', () => close(action));
    buttons.append(b);
  }
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'dismiss';
  dismiss.textContent = '×';
  dismiss.title = m.dismissLabel;
  dismiss.setAttribute('aria-label', m.dismissLabel);
  dismiss.addEventListener('click', () => close(null));
  el.append(dismiss, title, text);
  if (m.actions.length) el.append(buttons);
  return el;
}
