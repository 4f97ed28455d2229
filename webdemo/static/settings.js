// The Editors settings page: the LSP status location and Show status bar,
// then one card per language — its servers in order (added, removed and
// reordered here, each with the task host's installer details: command,
// prerequisites found or missing, destination, or why there is no installer
// and what to do instead), the formatter when there are several, auto-start,
// auto-install and the per-language JSON configuration. Every control saves on its own (the relay's settings
// API takes partial updates); the installer details come from the relay,
// which asks the session's task host.
// @ts-check

import { h, installerDetails } from './installers.js';

/** @typedef {import('@kandev/lsp').Settings} Settings */
/**
 * GET /api/v1/lsp/runtime: the languages with their catalog servers (the
 * default first), and those the task host can install.
 * @typedef {{ languages?: { id: Language, experimental?: boolean, servers?: string[] }[], autoInstallable?: string[] }} Runtime
 */
/** @typedef {import('@kandev/lsp').Language} Language */
/** @typedef {{ id: Language, experimental: boolean, servers: string[] }} Lang */
/** @typedef {import('./installers.js').InstallersAnswer} InstallersAnswer */
/**
 * @typedef {{ session: string, state: 'none' | 'loading' | 'ok' | 'error', answer?: InstallersAnswer, code?: number }} Installers
 */
// Every id asked for is in index.html or in what render built.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
// A form control of the page, by id (the same promise).
const control = (/** @type {string} */ id) => /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */ ($(id));

// swap is list with the items at i and j exchanged.
/** @param {string[]} list @param {number} i @param {number} j */
function swap(list, i, j) {
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/**
 * @param {{ lsp: import('@kandev/lsp').KandevLSP, t: import('./platform.js').Texts, runtime: Runtime,
 *   getSettings: () => Settings, saveSettings: (patch: Settings) => Promise<unknown>,
 *   installersSession: () => { id: string, lsp: boolean }, statusBar: { shown: boolean, set: (on: boolean) => void },
 *   placement: () => import('@kandev/lsp').Surface, onChange: (how?: { closed: boolean }) => void }} parts
 */
export function createSettingsPage({ lsp, t, runtime, getSettings, saveSettings, installersSession, statusBar, placement, onChange }) {
  const page = $('settings-page');
  /** @type {Installers | null} */
  let installers = null; // { session, state: 'loading' | 'ok' | 'error', answer?, code? }

  /** @returns {Lang[]} */
  const languages = () => (runtime.languages || []).map((l) => ({ id: l.id, experimental: !!l.experimental, servers: l.servers || [] }));
  // listed is the language's servers in order: the saved list, else its
  // default server alone.
  const listed = (/** @type {Lang} */ l, /** @type {Settings} */ s) => {
    const list = (s.lsp_language_servers || {})[l.id] || [];
    return list.length ? list : l.servers.slice(0, 1);
  };
  const installable = (/** @type {string} */ id) => (runtime.autoInstallable || []).includes(id);
  const name = (/** @type {string} */ id) => t(`language.${id}`);

  function render() {
    // Keep what the user typed and has not saved across a re-render (a
    // locale switch, an answer from the task host).
    const drafts = new Map([.../** @type {NodeListOf<HTMLTextAreaElement>} */ (page.querySelectorAll('textarea[data-language]'))].map((ta) => [ta.dataset.language, ta.value]));
    const errors = new Map([.../** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll('.config-error'))].map((p) => [p.dataset.language, said(p)]));
    // And the server picked to add, and the control that has the focus:
    // the task host's answer arrives while the user chooses.
    const picks = new Map([.../** @type {NodeListOf<HTMLSelectElement>} */ (page.querySelectorAll('.add-server select'))].map((x) => [x.id, x.value]));
    const focused = page.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).id : '';
    // And where its caret or selection is: a redraw between "select all"
    // and typing must not turn a replacement into an append.
    const field = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.activeElement);
    const selection = focused && field instanceof HTMLTextAreaElement ? [field.selectionStart, field.selectionEnd] : null;
    // And what the notes and errors say ("Saved.", a refusal), in the
    // locale in use: the answer can come after a save, and the user must
    // still read how it went.
    const notes = [.../** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll('[role=status][id], .config-error[id]'))]
      .map((n) => ({ id: n.id, text: said(n), key: n.dataset.key, args: n.dataset.args, failed: n.classList.contains('failed') }));
    const s = getSettings();
    page.replaceChildren(
      h('div', { class: 'settings-head' },
        h('h2', { id: 'settings-title', tabindex: '-1' }, t('settings.title')),
        h('button', { id: 'close-settings', type: 'button' }, t('settings.close'))),
      h('p', { class: 'hint' }, t('settings.intro')),
      locationSection(s),
      h('section', { class: 'settings-group', 'aria-labelledby': 'languages-heading' },
        h('h3', { id: 'languages-heading' }, t('settings.languages')),
        h('p', { id: 'installers-host', class: 'hint' }, hostLine()),
        h('div', { id: 'language-cards', class: 'cards' }, ...languages().map((l) => card(l, s, drafts.get(l.id), errors.get(l.id))))),
    );
    $('close-settings').addEventListener('click', () => close());
    for (const [id, value] of picks) {
      const x = /** @type {HTMLSelectElement | null} */ (document.getElementById(id));
      if (x && [...x.options].some((o) => o.value === value)) x.value = value;
    }
    for (const { id, text, key, args, failed } of notes) {
      const n = document.getElementById(id);
      if (!n) continue;
      n.textContent = text;
      if (key) Object.assign(n.dataset, { key, args });
      n.classList.toggle('failed', failed);
    }
    if (focused) document.getElementById(focused)?.focus();
    const now = focused ? document.getElementById(focused) : null;
    if (selection && now instanceof HTMLTextAreaElement) now.setSelectionRange(selection[0], selection[1]);
    refreshPlacement();
  }

  /** @param {Settings} s */
  function locationSection(s) {
    const radio = (/** @type {'toolbar' | 'status_bar'} */ value, /** @type {string} */ label) => h('label', { class: 'check' },
      h('input', { type: 'radio', name: 'status-location', id: `location-${value}`, value, checked: s.lsp_status_location === value,
        onchange: async () => {
          await save({ lsp_status_location: value }, $('location-note'));
          onChange();
          refreshPlacement();
        } }),
      ` ${label}`);
    return h('section', { class: 'settings-group', 'aria-labelledby': 'location-heading' },
      h('h3', { id: 'location-heading' }, t('settings.location')),
      h('div', { id: 'status-location', role: 'radiogroup', 'aria-labelledby': 'location-heading', class: 'choices' },
        radio('toolbar', t('settings.location.toolbar')),
        radio('status_bar', t('settings.location.status'))),
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-status-bar', checked: statusBar.shown,
          onchange: (/** @type {Event} */ e) => { statusBar.set(/** @type {HTMLInputElement} */ (e.target).checked); onChange(); refreshPlacement(); } }),
        ` ${t('settings.showStatusBar')}`),
      h('span', { class: 'hint inline' }, t('settings.showStatusBar.note')),
      h('p', { class: 'hint' }, t('settings.location.rule')),
      h('p', { id: 'location-effective', class: 'effective' }),
      h('p', { id: 'location-note', class: 'note', role: 'status' }));
  }

  // refreshPlacement says where the control is on this screen now, from
  // lsp.wasm's own placement for the current layout.
  function refreshPlacement() {
    const el = /** @type {HTMLElement | null} */ (document.getElementById('location-effective')); // absent until render
    if (!el) return;
    const p = placement();
    /** @type {Record<string, string>} */
    const keys = {
      coarse_pointer: 'settings.location.coarse',
      status_bar_hidden: 'settings.location.hidden',
      phone: 'settings.location.phone',
    };
    const key = (p.fallback && keys[p.fallback]) || (p.location === 'status_bar' ? 'settings.location.nowBar' : 'settings.location.now');
    el.textContent = t(key);
    el.dataset.location = p.location;
    el.dataset.fallback = p.fallback || '';
  }

  function hostLine() {
    if (!installers) return '';
    const session = installers.session;
    switch (installers.state) {
      case 'none': return t('settings.host.none', { session });
      case 'loading': return t('settings.host.loading', { session });
      case 'error': return t(installers.code === 4004 ? 'close.4004' : 'close.4002');
      default: { // ok
        const a = /** @type {InstallersAnswer} */ (installers.answer);
        return t('settings.host', { session, os: `${a.goos}/${a.goarch}` });
      }
    }
  }

  /** @param {Lang} l @param {Settings} s @param {string | undefined} draft @param {string | null | undefined} error */
  function card(l, s, draft, error) {
    const id = l.id;
    const autoStart = h('input', { type: 'checkbox', id: `auto-start-${id}`, class: 'auto-start', value: id,
      checked: (s.lsp_auto_start_languages || []).includes(id),
      onchange: (/** @type {Event} */ e) => saveList('lsp_auto_start_languages', '.auto-start', /** @type {HTMLInputElement} */ (e.target), id) });
    const autoInstall = installable(id)
      ? h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: `auto-install-${id}`, class: 'auto-install', value: id,
          checked: (s.lsp_auto_install_languages || []).includes(id),
          onchange: (/** @type {Event} */ e) => saveList('lsp_auto_install_languages', '.auto-install', /** @type {HTMLInputElement} */ (e.target), id) }),
        ` ${t('settings.autoInstall')}`)
      : h('p', { class: 'hint', id: `auto-install-${id}-none` }, t('settings.autoInstall.none'));
    const config = s.lsp_server_configs && s.lsp_server_configs[id];
    const textarea = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: `config-${id}`, rows: '4', spellcheck: 'false', 'data-language': id,
      'aria-describedby': `config-error-${id}`, 'aria-invalid': error ? 'true' : 'false' }));
    textarea.value = draft !== undefined ? draft : (config ? JSON.stringify(config, null, 2) : '');
    return h('article', { class: 'lang-card', id: `card-${id}`, 'data-language': id, 'aria-labelledby': `card-title-${id}` },
      h('div', { class: 'card-head' },
        h('h4', { id: `card-title-${id}` }, name(id)),
        l.experimental ? h('span', { class: 'badge' }, t('settings.experimental')) : null),
      ...serverList(l, s),
      h('label', { class: 'check' }, autoStart, ` ${t('settings.autoStart', { language: name(id) })}`),
      autoInstall,
      h('p', { class: 'card-note note', id: `card-note-${id}`, role: 'status' }),
      // A language with one server in its catalog shows that server's
      // details here, as it has no list.
      l.servers.length > 1 ? null : h('div', { class: 'installer', id: `installer-${id}` }, ...details(id, listed(l, s)[0], id)),
      h('label', { for: `config-${id}`, class: 'config-label' }, t('settings.config')),
      textarea,
      h('p', { class: 'error config-error', id: `config-error-${id}`, 'data-language': id, role: 'alert' }, error || ''),
      h('div', { class: 'row' },
        h('button', { type: 'button', id: `save-config-${id}`, onclick: () => saveConfig(id) }, t('settings.config.save')),
        h('span', { class: 'note', id: `config-saved-${id}`, role: 'status' })));
  }

  // serverList is the card's servers when the catalog has several for the
  // language: the list in order, each server with its place (a choice
  // among itself and the servers not listed), move up and down, remove and
  // its installer details; then adding one, and the formatter once more
  // than one is listed. Every change saves the whole list, which lsp.wasm
  // applies to the open files at once.
  /** @param {Lang} l @param {Settings} s */
  function serverList(l, s) {
    if (l.servers.length < 2) return [];
    const id = l.id;
    const list = listed(l, s);
    const others = l.servers.filter((sv) => !list.includes(sv));
    const label = (/** @type {string} */ sv) => (sv === l.servers[0] ? t('settings.server.default', { server: sv }) : sv);
    // The first server's elements keep the language's own ids (as when a
    // language had one server); the others' carry their place.
    const suffix = (/** @type {number} */ i) => (i === 0 ? id : `${id}-${i}`);
    /** @type {(cls: string, key: string, sv: string, glyph: string, disabled: boolean, onclick: () => void) => HTMLElement} */
    const iconButton = (cls, key, sv, glyph, disabled, onclick) => h('button', {
      type: 'button', class: `icon ${cls}`, 'aria-label': t(key, { server: sv }), title: t(key, { server: sv }), disabled, onclick,
    }, glyph);
    const rows = list.map((sv, i) => h('li', { class: 'server-row', 'data-server': sv, 'data-slot': String(i) },
      h('div', { class: 'row server-row-head' },
        h('select', { id: `server-${suffix(i)}`, 'data-language': id, 'aria-label': t('settings.server.slot', { n: i + 1, language: name(id) }),
          onchange: (/** @type {Event} */ e) => saveServers(l, list.map((x, j) => (j === i ? /** @type {HTMLSelectElement} */ (e.target).value : x)), `#server-${suffix(i)}`) },
          ...[sv, ...others].map((x) => h('option', { value: x, selected: x === sv }, label(x)))),
        iconButton('move-up', 'settings.server.up', sv, '↑', i === 0,
          () => saveServers(l, swap(list, i, i - 1), `.server-row[data-slot="${i - 1}"] .move-${i - 1 === 0 ? 'down' : 'up'}`)),
        iconButton('move-down', 'settings.server.down', sv, '↓', i === list.length - 1,
          () => saveServers(l, swap(list, i, i + 1), `.server-row[data-slot="${i + 1}"] .move-${i + 1 === list.length - 1 ? 'up' : 'down'}`)),
        iconButton('remove', 'settings.server.remove', sv, '✕', list.length === 1,
          () => saveServers(l, list.filter((x) => x !== sv), `#server-${id}`))),
      h('div', { class: 'installer', id: `installer-${suffix(i)}` }, ...details(id, sv, suffix(i)))));
    const out = [
      h('h5', { id: `servers-heading-${id}`, class: 'servers-heading' }, t('settings.servers')),
      h('p', { class: 'hint' }, t('settings.servers.hint')),
      h('ol', { class: 'server-list', id: `servers-${id}`, 'aria-labelledby': `servers-heading-${id}` }, ...rows),
    ];
    if (others.length) {
      out.push(h('div', { class: 'row add-server' },
        h('label', { for: `add-server-${id}` }, t('settings.server.add')),
        h('select', { id: `add-server-${id}` }, ...others.map((x) => h('option', { value: x }, label(x)))),
        h('button', { type: 'button', id: `add-server-button-${id}`,
          onclick: () => saveServers(l, [...list, control(`add-server-${id}`).value], `.server-row[data-slot="${list.length}"] select`) },
        t('settings.server.addButton'))));
    }
    if (list.length > 1) {
      // No choice is "the first capable server", lsp.wasm's own rule; a
      // saved formatter that is no longer listed counts as no choice.
      const formatter = (s.lsp_formatters || {})[id] || '';
      out.push(h('label', { class: 'server-choice' }, `${t('settings.formatter')} `,
        h('select', { id: `formatter-${id}`, 'data-language': id, onchange: (/** @type {Event} */ e) => saveFormatter(l, /** @type {HTMLSelectElement} */ (e.target)) },
          h('option', { value: '', selected: !list.includes(formatter) }, t('settings.formatter.first')),
          ...list.map((x) => h('option', { value: x, selected: x === formatter }, x)))));
    }
    return out;
  }

  // details is the task host's answer for one server, once it came.
  /** @param {string} lang @param {string} serverId @param {string} suffix */
  const details = (lang, serverId, suffix) => (installers && installers.state === 'ok'
    ? installerDetails(t, /** @type {InstallersAnswer} */ (installers.answer), lang, serverId, suffix) : []);

  /** @param {Settings} patch @param {HTMLElement} note */
  async function save(patch, note) {
    say(note, '');
    note.classList.remove('failed');
    try {
      await saveSettings(patch);
      say(note, 'settings.saved');
      return true;
    } catch (e) {
      say(note, 'settings.saveFailed', { error: /** @type {Error} */ (e).message }).classList.add('failed');
      return false;
    }
  }

  // live is el as the page shows it now: a render while a save was under
  // way replaced it with a copy of the same id.
  /** @param {HTMLElement} el */
  const live = (el) => (el.id && document.getElementById(el.id)) || el;

  // say writes a note or an error from the catalog (key '' empties it) on
  // the element shown now, and keeps the key and its arguments, so that a
  // redraw after a locale switch says it again in the new locale.
  /** @param {HTMLElement} el @param {string} key @param {Record<string, string>} [args] */
  function say(el, key, args = {}) {
    const n = live(el);
    n.textContent = key ? t(key, args) : '';
    if (key) Object.assign(n.dataset, { key, args: JSON.stringify(args) });
    else delete n.dataset.key;
    return n;
  }

  // said is what a note or an error says, in the locale in use.
  /** @param {HTMLElement} el */
  const said = (el) => (el.dataset.key ? t(el.dataset.key, JSON.parse(el.dataset.args || '{}')) : el.textContent || '');

  // saveServers stores a language's list of servers (the default alone
  // is stored as no choice), drops a formatter the list no longer has, and
  // redraws the card with the focus on focusSelector's control, so
  // keyboard users keep their place.
  /** @param {Lang} l @param {string[]} list @param {string} focusSelector */
  async function saveServers(l, list, focusSelector) {
    const s = getSettings();
    /** @type {Record<string, string[]>} */
    const all = { ...(s.lsp_language_servers || {}) };
    if (list.length === 1 && list[0] === l.servers[0]) delete all[l.id];
    else all[l.id] = list;
    /** @type {Settings} */
    const patch = { lsp_language_servers: all };
    /** @type {Record<string, string>} */
    const formatters = { ...(s.lsp_formatters || {}) };
    if (formatters[l.id] && !list.includes(formatters[l.id])) {
      delete formatters[l.id];
      patch.lsp_formatters = formatters;
    }
    for (const c of /** @type {NodeListOf<HTMLSelectElement | HTMLButtonElement>} */ (page.querySelectorAll(`#card-${l.id} .server-list select, #card-${l.id} .server-list button, #card-${l.id} .add-server button`))) c.disabled = true;
    await saveAndRedraw(l.id, patch, 'settings.servers.saved', { servers: list.join(', ') });
    const card = $(`card-${l.id}`);
    /** @type {HTMLElement} */ (card.querySelector(focusSelector) || card.querySelector('.server-list select')).focus(); // a card with a list
  }

  /** @param {Lang} l @param {HTMLSelectElement} select */
  async function saveFormatter(l, select) {
    /** @type {Record<string, string>} */
    const formatters = { ...(getSettings().lsp_formatters || {}) };
    if (select.value) formatters[l.id] = select.value;
    else delete formatters[l.id];
    select.disabled = true;
    await saveAndRedraw(l.id, { lsp_formatters: formatters }, 'settings.saved');
    $(`formatter-${l.id}`).focus();
  }

  // saveAndRedraw saves patch and redraws the page from the settings the
  // relay answered (the saved ones when it refused), then says on the
  // card's note what happened (the text of key and args when it saved;
  // the redraw keeps a refusal).
  /** @param {string} id @param {Settings} patch @param {string} key @param {Record<string, string>} [args] */
  async function saveAndRedraw(id, patch, key, args) {
    const ok = await save(patch, $(`card-note-${id}`));
    render();
    if (ok) say($(`card-note-${id}`), key, args);
  }

  /** @param {string} field @param {string} selector @param {HTMLInputElement} box @param {string} id */
  async function saveList(field, selector, box, id) {
    const list = [.../** @type {NodeListOf<HTMLInputElement>} */ (page.querySelectorAll(`input${selector}:checked`))].map((c) => c.value);
    box.disabled = true;
    const ok = await save({ [field]: list }, $(`card-note-${id}`));
    box.disabled = false;
    if (!ok) box.checked = !box.checked;
  }

  // saveConfig validates one language's JSON before anything is sent: a
  // parse error or a value that is no object is shown next to the field,
  // naming it, and nothing is saved. An empty field removes the language's
  // configuration.
  /** @param {string} id */
  async function saveConfig(id) {
    const ta = control(`config-${id}`);
    const err = $(`config-error-${id}`);
    const saved = $(`config-saved-${id}`);
    const field = `lsp_server_configs.${id}`;
    say(err, '');
    say(saved, '');
    ta.setAttribute('aria-invalid', 'false');
    const refuse = (/** @type {string} */ key, /** @type {Record<string, string>} */ args) => {
      say(err, key, args);
      live(ta).setAttribute('aria-invalid', 'true');
    };
    let value = null;
    if (ta.value.trim() !== '') {
      try {
        value = JSON.parse(ta.value);
      } catch (e) {
        refuse('settings.config.invalid', { language: name(id), field, error: /** @type {Error} */ (e).message });
        return;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        refuse('settings.config.notObject', { language: name(id), field });
        return;
      }
    }
    /** @type {Record<string, unknown>} */
    const configs = { ...(getSettings().lsp_server_configs || {}) };
    if (value === null) delete configs[id]; else configs[id] = value;
    try {
      await saveSettings({ lsp_server_configs: configs });
      say(saved, 'settings.saved');
    } catch (e) {
      refuse('settings.saveFailed', { error: /** @type {Error} */ (e).message });
    }
  }

  // loadInstallers asks the relay for the task host's installers answer.
  async function loadInstallers() {
    const session = installersSession();
    if (!session.lsp) {
      installers = { session: session.id, state: 'none' };
      render();
      return;
    }
    /** @type {Installers} */
    const mine = installers = { session: session.id, state: 'loading' };
    render();
    try {
      const res = await fetch(`/api/v1/sessions/${encodeURIComponent(session.id)}/lsp/installers`);
      const body = await res.json().catch(() => ({}));
      if (installers !== mine) return; // a newer request
      installers = res.ok ? { ...mine, state: 'ok', answer: body } : { ...mine, state: 'error', code: body.code };
    } catch {
      if (installers !== mine) return;
      installers = { ...mine, state: 'error', code: 4002 };
    }
    if (!page.hidden) render();
  }

  function open() {
    page.hidden = false;
    render();
    loadInstallers();
    $('settings-title').focus();
  }

  function close() {
    page.hidden = true;
    onChange({ closed: true });
  }

  return {
    open,
    close,
    get isOpen() { return !page.hidden; },
    rerender() { if (!page.hidden) render(); },
    refreshPlacement,
  };
}
