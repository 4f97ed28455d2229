// The status control of the active editor: a toolbar button or a status-bar
// item, and its details in an anchored popover (fine pointer) or an inset
// bottom drawer (coarse pointer). Where it goes and for which pair is
// lsp.wasm's answer (lsp.surface); its texts are the pair's view. This file
// only draws them. A language served by several servers lists each one in
// the panel with its own summary, progress, details and action, which acts
// on that server alone (its slot).
//
// A server that is missing where the task host can install it gets Install
// beside Retry, with what installing runs there (as Settings shows it):
// install.run turns on auto-install for the language and retries.
//
// The popover and the drawer are dialogs: opening one moves the focus to its
// first action (Install, Start, Stop or Retry), Tab and Shift+Tab go round its
// buttons while it is open, and Escape closes it and gives the focus back
// to the control that opened it.
// @ts-check

/** @typedef {import('@kandev/lsp').StatusView} StatusView */

// Every id asked for is in index.html.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @typedef {{ details: (view: StatusView, suffix: string) => HTMLElement[], run: (view: StatusView) => Promise<void> }} Install
 * @param {{ lsp: import('@kandev/lsp').KandevLSP, t: import('./platform.js').Texts, barItem: HTMLElement, install: Install }} parts
 */
export function createStatusControl({ lsp, t, barItem, install }) {
  const toolbarBtn = $('lsp-status');
  const popover = $('lsp-popover');
  const drawer = $('lsp-drawer');
  const drawerBody = $('lsp-drawer-body');
  const backdrop = $('drawer-backdrop');
  const panel = $('lsp-panel');
  const actionEl = $('lsp-action');
  const installEl = $('lsp-install-action');
  const triggers = { toolbar: toolbarBtn, status_bar: barItem };

  /** @type {import('@kandev/lsp').Surface | null} */
  let surface = null; // lsp.surface()'s last answer
  /** @type {StatusView | null} */
  let view = null; // the pair's view
  /** @type {{ kind: 'popover' | 'drawer', trigger: HTMLElement } | null} */
  let open = null; // { kind: 'popover' | 'drawer', trigger }
  // The action button that has (or awaits) the keyboard focus: 'main'
  // (the language's), a server's slot, 'first' (whichever comes first), or
  // none. A repaint may hide or replace the focused button (Stopping…
  // has no action): the focus then waits on the dialog itself, and goes
  // back to the button when it is there again.
  /** @type {string | null} */
  let focusKey = null;

  // update takes a new surface answer and redraws everything.
  function update(/** @type {import('@kandev/lsp').Surface | null} */ s) {
    surface = s;
    paint();
  }

  function paint() {
    const pair = surface && surface.pair;
    view = pair ? lsp.view(pair.sessionId, pair.language) : null;
    const where = view ? /** @type {import('@kandev/lsp').Surface} */ (surface).location : 'none'; // a view comes from its pair
    for (const [loc, btn] of Object.entries(triggers)) {
      btn.hidden = where !== loc;
      if (!view || btn.hidden) continue; // no view: every trigger is hidden
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
    noteFocus();
    // With several servers the top-level fields are the first server's:
    // its row shows them, beside the others'.
    const several = !!(view && view.servers);
    const one = several ? null : view;
    $('lsp-panel-title').textContent = view
      ? t(several ? 'panel.title.several' : 'panel.title', { language: t(`language.${view.language}`) }) : '';
    $('lsp-summary').textContent = one ? one.summary : '';
    $('lsp-summary').hidden = several;
    $('lsp-details').replaceChildren(...details(one));
    paintProgress($('lsp-progress'), one && one.progress);
    paintAction(actionEl, one);
    paintInstall(one);
    paintServers(view && view.servers ? view.servers : []);
    keepFocus();
  }

  const dialog = () => (open && open.kind === 'drawer' ? drawer : popover);

  /** @returns {HTMLElement[]} the shown action buttons, in order */
  const actions = () => [installEl, actionEl, .../** @type {NodeListOf<HTMLElement>} */ ($('lsp-servers').querySelectorAll('.server-install, .server-action'))]
    .filter((b) => !b.hidden && !!b.getClientRects().length);

  // noteFocus reads which action has the focus before a repaint.
  function noteFocus() {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    if (active === actionEl) focusKey = 'main';
    else if (active === installEl) focusKey = 'install';
    else if (active && (active.classList.contains('server-action') || active.classList.contains('server-install'))) focusKey = active.dataset.key || null;
    else if (open && (active === dialog() || !active || active === document.body)) { /* still waiting */ }
    else focusKey = null; // the user moved on
  }

  // keepFocus puts the focus back on the action it belongs to, or lets it
  // wait on the open dialog while that action is not shown.
  function keepFocus() {
    if (focusKey == null || !open) return;
    const shown = actions();
    const button = focusKey === 'first' ? shown[0]
      : focusKey === 'main' ? shown.find((b) => b === actionEl)
        : focusKey === 'install' ? shown.find((b) => b === installEl)
          : shown.find((b) => b.dataset.key === focusKey);
    const active = document.activeElement;
    if (button) {
      if (active !== button) button.focus();
    } else if (!active || active === document.body) {
      dialog().focus();
    }
  }

  const details = (/** @type {StatusView | null} */ v) => ((v && v.details) || []).map((line) => {
    const li = document.createElement('li');
    li.textContent = line;
    return li;
  });

  /** @param {HTMLElement} button @param {StatusView | null} v */
  function paintAction(button, v) {
    button.hidden = !(v && v.action);
    if (v && v.action) {
      button.dataset.action = v.action;
      // The localized label comes with the view where lsp.wasm has one.
      button.textContent = v.actionLabel || t(`page.action.${v.action}`);
    }
  }

  // paintInstall shows Install and the installer's details for a missing
  // server the task host can install (the view's installLabel), else
  // nothing. A click is taken once: the button waits until the retry began.
  /** @param {StatusView | null} v */
  function paintInstall(v) {
    const box = $('lsp-install');
    box.hidden = !(v && v.installLabel);
    if (!v || !v.installLabel) {
      $('lsp-install-error').textContent = '';
      return;
    }
    installEl.textContent = v.installLabel;
    $('lsp-install-details').replaceChildren(...install.details(v, 'popover'));
  }

  /** @param {HTMLElement} button @param {StatusView} v */
  async function runInstall(button, v) {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    $('lsp-install-error').textContent = '';
    try {
      await install.run(v);
    } catch (e) {
      $('lsp-install-error').textContent = t('settings.saveFailed', { error: /** @type {Error} */ (e).message });
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  // paintServers lists each server of the language: its name and summary,
  // progress bar, details and action button, named "Stop eslint" and the
  // like for assistive technology. A repaint keeps the focus on the
  // button of the same server; while that server has no action (Stopping…)
  // the focus waits for it, unless the user moved it elsewhere.
  /** @param {StatusView[]} views */
  function paintServers(views) {
    const list = $('lsp-servers');
    list.hidden = !views.length;
    list.replaceChildren(...views.map((v) => {
      const li = document.createElement('li');
      li.className = 'lsp-server';
      Object.assign(li.dataset, { server: v.server, slot: String(v.slot), state: v.state });
      const head = document.createElement('div');
      const name = document.createElement('span');
      name.className = 'lsp-server-name';
      name.id = `lsp-server-name-${v.slot}`;
      name.textContent = v.server;
      const summary = document.createElement('span');
      summary.className = 'lsp-server-summary';
      summary.textContent = v.summary;
      head.append(name, ' ', summary);
      const progress = /** @type {HTMLElement} */ ($('lsp-progress').cloneNode(true));
      progress.removeAttribute('id');
      paintProgress(progress, v.progress);
      const lines = document.createElement('ul');
      lines.append(...details(v));
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'lsp-action server-action';
      button.id = `lsp-server-action-${v.slot}`;
      button.dataset.slot = String(v.slot);
      button.dataset.key = `action-${v.slot}`;
      button.setAttribute('aria-labelledby', `${button.id} ${name.id}`);
      paintAction(button, v);
      if (!v.installLabel) {
        li.append(head, progress, lines, button);
        return li;
      }
      const inst = document.createElement('button');
      inst.type = 'button';
      inst.className = 'lsp-action server-install';
      inst.id = `lsp-server-install-${v.slot}`;
      inst.dataset.slot = String(v.slot);
      inst.dataset.key = `install-${v.slot}`;
      inst.setAttribute('aria-labelledby', `${inst.id} ${name.id}`);
      inst.textContent = v.installLabel;
      const where = document.createElement('div');
      where.className = 'installer';
      where.append(...install.details(v, `server-${v.slot}`));
      li.append(head, progress, lines, where, inst, ' ', button);
      return li;
    }));
  }

  // The progress bar only: its texts (title, message, percentage, elapsed
  // time, other items) come ready-made in the view's details.
  /** @param {HTMLElement} el @param {import('@kandev/lsp').Progress | null | undefined} p */
  function paintProgress(el, p) {
    el.hidden = !p;
    if (!p) return;
    // The bar and its fill are in index.html's lsp-progress.
    const bar = /** @type {HTMLElement} */ (el.querySelector('.bar'));
    const known = typeof p.percentage === 'number';
    bar.classList.toggle('indeterminate', !known);
    /** @type {HTMLElement} */ (bar.querySelector('span')).style.width = known ? `${p.percentage}%` : '';
    if (known) bar.setAttribute('aria-valuenow', String(p.percentage)); else bar.removeAttribute('aria-valuenow');
    bar.setAttribute('aria-label', p.title);
  }

  // place anchors the popover to its trigger: below a trigger in the upper
  // half of the window, above one in the lower half (the status bar), never
  // wider than the window.
  function place(/** @type {HTMLElement} */ trigger) {
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

  function toggle(/** @type {HTMLElement} */ trigger) {
    if (open && open.trigger === trigger) {
      close(true);
      return;
    }
    close(false);
    if (!view || !surface) return; // a view comes from the surface's pair
    const kind = surface.disclosure === 'drawer' ? 'drawer' : 'popover';
    open = { kind, trigger };
    trigger.setAttribute('aria-expanded', 'true');
    trigger.setAttribute('aria-controls', kind === 'drawer' ? 'lsp-drawer' : 'lsp-popover');
    if (kind === 'drawer') {
      drawerBody.append(panel);
      drawer.hidden = false;
      backdrop.hidden = false;
    } else {
      popover.append(panel);
      popover.hidden = false;
      place(trigger);
    }
    // Into the dialog: its first action, else (nothing to do yet) the
    // drawer's Close or the popover itself until an action comes.
    const first = actions()[0];
    focusKey = first ? (first === actionEl ? 'main' : first === installEl ? 'install' : first.dataset.key || null) : 'first';
    (first || (kind === 'drawer' ? $('lsp-drawer-close') : popover)).focus();
  }

  // cycle keeps Tab and Shift+Tab among the open dialog's buttons.
  function cycle(/** @type {KeyboardEvent} */ e) {
    if (e.key !== 'Tab' || !open || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const box = dialog();
    const buttons = [...box.querySelectorAll('button')].filter((b) => !b.hidden && !!b.getClientRects().length);
    if (!buttons.length) {
      box.focus();
      return;
    }
    const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const next = i < 0 ? (e.shiftKey ? buttons.length - 1 : 0) : (i + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length;
    buttons[next].focus();
  }

  function close(/** @type {boolean} */ refocus) {
    if (!open) return;
    const { trigger } = open;
    open = null;
    focusKey = null;
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
  popover.addEventListener('keydown', cycle);
  drawer.addEventListener('keydown', cycle);
  $('lsp-drawer-close').addEventListener('click', () => close(true));
  backdrop.addEventListener('click', () => close(true));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && open) close(true);
  });
  // A click elsewhere dismisses the popover, as any disclosure does.
  document.addEventListener('pointerdown', (e) => {
    const target = /** @type {Node} */ (e.target); // pointer events hit nodes
    if (open && open.kind === 'popover' && !popover.contains(target) && !open.trigger.contains(target)) close(false);
  });
  window.addEventListener('resize', () => { if (open && open.kind === 'popover') place(open.trigger); });
  actionEl.addEventListener('click', () => {
    if (!view) return;
    const fn = lsp[/** @type {import('@kandev/lsp').StatusAction} */ (actionEl.dataset.action)]; // paintAction's
    if (typeof fn === 'function') fn(view.sessionId, view.language);
  });
  installEl.addEventListener('click', () => {
    if (view) runInstall(installEl, view.servers ? view.servers[0] : view);
  });
  // A server's own button acts on that server only; the others and the
  // language's auto-start are left alone.
  $('lsp-servers').addEventListener('click', (e) => {
    const inst = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('.server-install')); // clicks hit elements
    const sv = inst && view && view.servers ? view.servers.find((x) => String(x.slot) === inst.dataset.slot) : null;
    if (inst && sv) {
      runInstall(inst, sv);
      return;
    }
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('.server-action')); // clicks hit elements
    if (!view || !button) return;
    const fn = lsp[/** @type {import('@kandev/lsp').StatusAction} */ (button.dataset.action)]; // paintAction's
    if (typeof fn === 'function') fn(view.sessionId, view.language, Number(button.dataset.slot));
  });

  return {
    update,
    repaint: paint,
    close: () => close(false),
    get surface() { return surface; },
    get open() { return open && open.kind; },
  };
}
