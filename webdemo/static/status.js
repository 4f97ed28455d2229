// The status control of the active editor: a toolbar button or a status-bar
// item, and its details in an anchored popover (fine pointer) or an inset
// bottom drawer (coarse pointer). Where it goes and for which pair is
// lsp.wasm's answer (lsp.surface); its texts are the pair's view. This file
// only draws them.

const $ = (id) => document.getElementById(id);

export function createStatusControl({ lsp, t, barItem }) {
  const toolbarBtn = $('lsp-status');
  const popover = $('lsp-popover');
  const drawer = $('lsp-drawer');
  const drawerBody = $('lsp-drawer-body');
  const backdrop = $('drawer-backdrop');
  const panel = $('lsp-panel');
  const actionEl = $('lsp-action');
  const triggers = { toolbar: toolbarBtn, status_bar: barItem };

  let surface = null; // lsp.surface()'s last answer
  let view = null; // the pair's view
  let open = null; // { kind: 'popover' | 'drawer', trigger }

  // update takes a new surface answer and redraws everything.
  function update(s) {
    surface = s;
    paint();
  }

  function paint() {
    const pair = surface && surface.pair;
    view = pair ? lsp.view(pair.sessionId, pair.language) : null;
    const where = view ? surface.location : 'none';
    for (const [loc, btn] of Object.entries(triggers)) {
      btn.hidden = where !== loc;
      if (btn.hidden) continue;
      btn.textContent = view.label || `${view.language} · ${view.summary}`;
      btn.title = view.label || view.summary;
      btn.dataset.state = view.state;
      btn.dataset.closeCode = view.closeCode ? String(view.closeCode) : '';
      btn.dataset.language = view.language;
    }
    if (open && (open.trigger.hidden || !view)) close(false);
    paintPanel();
    if (open && open.kind === 'popover') place(open.trigger);
  }

  function paintPanel() {
    $('lsp-panel-title').textContent = view ? t('panel.title', { language: t(`language.${view.language}`) }) : '';
    $('lsp-summary').textContent = view ? view.summary : '';
    $('lsp-details').replaceChildren(...((view && view.details) || []).map((line) => {
      const li = document.createElement('li');
      li.textContent = line;
      return li;
    }));
    paintProgress(view && view.progress);
    actionEl.hidden = !(view && view.action);
    if (view && view.action) {
      actionEl.dataset.action = view.action;
      // The localized label comes with the view where lsp.wasm has one.
      actionEl.textContent = view.actionLabel || t(`page.action.${view.action}`);
    }
  }

  // The progress bar only: its texts (title, message, percentage, elapsed
  // time, other items) come ready-made in the view's details.
  function paintProgress(p) {
    const el = $('lsp-progress');
    el.hidden = !p;
    if (!p) return;
    const bar = el.querySelector('.bar');
    const known = typeof p.percentage === 'number';
    bar.classList.toggle('indeterminate', !known);
    bar.querySelector('span').style.width = known ? `${p.percentage}%` : '';
    if (known) bar.setAttribute('aria-valuenow', String(p.percentage)); else bar.removeAttribute('aria-valuenow');
    bar.setAttribute('aria-label', p.title);
  }

  // place anchors the popover to its trigger: below a trigger in the upper
  // half of the window, above one in the lower half (the status bar), never
  // wider than the window.
  function place(trigger) {
    const r = trigger.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const width = Math.min(384, vw - 16);
    popover.style.width = `${width}px`;
    popover.style.left = `${Math.max(8, Math.min(r.right - width, vw - width - 8))}px`;
    if (r.top + r.height / 2 < vh / 2) {
      popover.style.top = `${r.bottom + 6}px`;
      popover.style.bottom = '';
      popover.style.maxHeight = `${Math.max(120, vh - r.bottom - 14)}px`;
    } else {
      popover.style.top = '';
      popover.style.bottom = `${vh - r.top + 6}px`;
      popover.style.maxHeight = `${Math.max(120, r.top - 14)}px`;
    }
  }

  function toggle(trigger) {
    if (open && open.trigger === trigger) {
      close(true);
      return;
    }
    close(false);
    if (!view) return;
    const kind = surface.disclosure === 'drawer' ? 'drawer' : 'popover';
    open = { kind, trigger };
    trigger.setAttribute('aria-expanded', 'true');
    if (kind === 'drawer') {
      drawerBody.append(panel);
      drawer.hidden = false;
      backdrop.hidden = false;
      $('lsp-drawer-close').focus();
    } else {
      popover.append(panel);
      popover.hidden = false;
      place(trigger);
    }
  }

  function close(refocus) {
    if (!open) return;
    const { trigger } = open;
    open = null;
    popover.hidden = true;
    drawer.hidden = true;
    backdrop.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
    if (refocus && !trigger.hidden) trigger.focus();
  }

  for (const btn of Object.values(triggers)) {
    btn.setAttribute('aria-haspopup', 'dialog');
    btn.setAttribute('aria-expanded', 'false');
    btn.setAttribute('aria-controls', 'lsp-popover');
    btn.addEventListener('click', () => toggle(btn));
  }
  $('lsp-drawer-close').addEventListener('click', () => close(true));
  backdrop.addEventListener('click', () => close(true));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && open) close(true);
  });
  // A click elsewhere dismisses the popover, as any disclosure does.
  document.addEventListener('pointerdown', (e) => {
    if (open && open.kind === 'popover' && !popover.contains(e.target) && !open.trigger.contains(e.target)) close(false);
  });
  window.addEventListener('resize', () => { if (open && open.kind === 'popover') place(open.trigger); });
  actionEl.addEventListener('click', () => {
    if (!view) return;
    const fn = lsp[actionEl.dataset.action];
    if (typeof fn === 'function') fn(view.sessionId, view.language);
  });

  return {
    update,
    repaint: paint,
    close: () => close(false),
    get surface() { return surface; },
    get open() { return open && open.kind; },
  };
}
