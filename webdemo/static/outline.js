// The outline panel: the active file's symbols from its language server
// (lsp.outline, the server's textDocument/documentSymbol), nested as the
// server nests them; a click moves the cursor to the symbol. It follows
// the editor's model and refreshes a moment after edits.
// @ts-check

/**
 * @param {import('@kandev/lsp').KandevLSP} lsp
 * @param {import('monaco-editor').editor.ICodeEditor} editor
 * @param {HTMLElement} list
 */
export function mountOutline(lsp, editor, list) {
  let timer = 0;
  let asked = 0;
  let answered = false; // a server answered for the model on screen
  async function refresh() {
    const model = editor.getModel();
    const n = ++asked;
    const symbols = model ? await lsp.outline(model) : null;
    if (n !== asked) return; // a newer refresh is under way
    answered = !!symbols;
    list.replaceChildren(...(symbols || []).map((s) => item(s)));
  }
  /** @param {import('monaco-editor').languages.DocumentSymbol} s @returns {HTMLLIElement} */
  function item(s) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'outline-symbol';
    b.dataset.kind = String(s.kind);
    b.textContent = s.name;
    b.addEventListener('click', () => {
      editor.setSelection(s.selectionRange);
      editor.revealRangeInCenter(s.selectionRange);
      editor.focus();
    });
    li.append(b);
    if (s.children && s.children.length) {
      const ul = document.createElement('ul');
      ul.append(...s.children.map((c) => item(c)));
      li.append(ul);
    }
    return li;
  }
  const later = () => { clearTimeout(timer); timer = setTimeout(refresh, 500); };
  editor.onDidChangeModel(() => { answered = false; later(); });
  editor.onDidChangeModelContent(later);
  // Until a server answers, every status change may be the one that made
  // it ready (progress reports are status changes too: no request each).
  // After that, a server of the language coming up again may be the one
  // that answers now: a language's first server comes before those
  // beside it, whichever was ready first.
  /** @type {Map<string, string>} */
  const states = new Map();
  lsp.onStatus((view) => {
    let up = false;
    for (const v of view.servers || [view]) {
      const key = `${v.sessionId}\u0000${v.language}\u0000${v.slot}`;
      up = up || (v.state === 'ready' && states.get(key) !== 'ready');
      states.set(key, v.state);
    }
    if (!answered || up) later();
  });
  later();
  return refresh;
}
