// The Editors settings page: the LSP status location and Show status bar,
// then one card per language — auto-start, auto-install, the task host's
// installer details (command, prerequisites found or missing, destination,
// or why there is no installer and what to do instead) and the per-language
// JSON configuration. Every control saves on its own (the relay's settings
// API takes partial updates); the installer details come from the relay,
// which asks the session's task host.

const $ = (id) => document.getElementById(id);

// h builds an element: h('p', { class: 'x', id: 'y' }, 'text', child).
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// shellWords shows an argv as one copyable command line.
function shellWords(argv) {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function createSettingsPage({ lsp, t, runtime, getSettings, saveSettings, installersSession, statusBar, placement, onChange }) {
  const page = $('settings-page');
  let installers = null; // { session, state: 'loading' | 'ok' | 'error', answer?, code? }

  const languages = () => (runtime.languages || []).map((l) => ({ id: l.id, experimental: !!l.experimental, servers: l.servers || [] }));
  // chosen is the server the settings name for a language, else its default.
  const chosen = (l, s) => ((s.lsp_language_servers || {})[l.id] || [])[0] || l.servers[0] || '';
  const installable = (id) => (runtime.autoInstallable || []).includes(id);
  const name = (id) => t(`language.${id}`);

  function render() {
    // Keep what the user typed and has not saved across a re-render (a
    // locale switch, an answer from the task host).
    const drafts = new Map([...page.querySelectorAll('textarea[data-language]')].map((ta) => [ta.dataset.language, ta.value]));
    const errors = new Map([...page.querySelectorAll('.config-error')].map((p) => [p.dataset.language, p.textContent]));
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
    refreshPlacement();
  }

  function locationSection(s) {
    const radio = (value, label) => h('label', { class: 'check' },
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
          onchange: (e) => { statusBar.set(e.target.checked); onChange(); refreshPlacement(); } }),
        ` ${t('settings.showStatusBar')}`),
      h('span', { class: 'hint inline' }, t('settings.showStatusBar.note')),
      h('p', { class: 'hint' }, t('settings.location.rule')),
      h('p', { id: 'location-effective', class: 'effective' }),
      h('p', { id: 'location-note', class: 'note', role: 'status' }));
  }

  // refreshPlacement says where the control is on this screen now, from
  // lsp.wasm's own placement for the current layout.
  function refreshPlacement() {
    const el = $('location-effective');
    if (!el) return;
    const p = placement();
    const key = {
      coarse_pointer: 'settings.location.coarse',
      status_bar_hidden: 'settings.location.hidden',
      phone: 'settings.location.phone',
    }[p.fallback] || (p.location === 'status_bar' ? 'settings.location.nowBar' : 'settings.location.now');
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
      default: return t('settings.host', { session, os: `${installers.answer.goos}/${installers.answer.goarch}` });
    }
  }

  function card(l, s, draft, error) {
    const id = l.id;
    const autoStart = h('input', { type: 'checkbox', id: `auto-start-${id}`, class: 'auto-start', value: id,
      checked: (s.lsp_auto_start_languages || []).includes(id),
      onchange: (e) => saveList('lsp_auto_start_languages', '.auto-start', e.target, id) });
    const autoInstall = installable(id)
      ? h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: `auto-install-${id}`, class: 'auto-install', value: id,
          checked: (s.lsp_auto_install_languages || []).includes(id),
          onchange: (e) => saveList('lsp_auto_install_languages', '.auto-install', e.target, id) }),
        ` ${t('settings.autoInstall')}`)
      : h('p', { class: 'hint', id: `auto-install-${id}-none` }, t('settings.autoInstall.none'));
    // The server: a choice when the catalog has more than one for the
    // language. Saving it moves the language's open files to that server.
    const current = chosen(l, s);
    const serverChoice = l.servers.length > 1
      ? h('label', { class: 'server-choice' }, `${t('settings.server')} `,
        h('select', { id: `server-${id}`, 'data-language': id, onchange: (e) => saveServer(l, e.target) },
          ...l.servers.map((sv, i) => h('option', { value: sv, selected: sv === current },
            i === 0 ? t('settings.server.default', { server: sv }) : sv))))
      : null;
    const config = s.lsp_server_configs && s.lsp_server_configs[id];
    const textarea = h('textarea', { id: `config-${id}`, rows: '4', spellcheck: 'false', 'data-language': id,
      'aria-describedby': `config-error-${id}`, 'aria-invalid': error ? 'true' : 'false' });
    textarea.value = draft !== undefined ? draft : (config ? JSON.stringify(config, null, 2) : '');
    return h('article', { class: 'lang-card', id: `card-${id}`, 'data-language': id, 'aria-labelledby': `card-title-${id}` },
      h('div', { class: 'card-head' },
        h('h4', { id: `card-title-${id}` }, name(id)),
        l.experimental ? h('span', { class: 'badge' }, t('settings.experimental')) : null),
      serverChoice,
      h('label', { class: 'check' }, autoStart, ` ${t('settings.autoStart', { language: name(id) })}`),
      autoInstall,
      h('p', { class: 'card-note note', id: `card-note-${id}`, role: 'status' }),
      h('div', { class: 'installer', id: `installer-${id}` }, ...installerDetails(id, current)),
      h('label', { for: `config-${id}`, class: 'config-label' }, t('settings.config')),
      textarea,
      h('p', { class: 'error config-error', id: `config-error-${id}`, 'data-language': id, role: 'alert' }, error || ''),
      h('div', { class: 'row' },
        h('button', { type: 'button', id: `save-config-${id}`, onclick: () => saveConfig(id) }, t('settings.config.save')),
        h('span', { class: 'note', id: `config-saved-${id}`, role: 'status' })));
  }

  // installerDetails shows the task host's answer for one language, all of
  // it visible without hovering.
  function installerDetails(id, chosenServer) {
    if (!installers || installers.state !== 'ok') return [];
    const lang = (installers.answer.languages || []).find((x) => x.language === id);
    if (!lang) return [];
    // The chosen server's own answer when the task host lists each one.
    const info = (lang.servers || []).find((x) => x.server === chosenServer) || lang;
    const server = info.command;
    const out = [h('p', { class: 'server-state', 'data-found': String(!!info.found) },
      info.found ? t('settings.found', { server, path: info.path }) : t('settings.missing', { server }))];
    if (!info.installable) {
      const why = info.reason === 'manual_only'
        ? t('settings.manual', { server })
        : info.reason === 'unsupported_os'
          ? t('settings.unsupportedOS', { server, os: `${installers.answer.goos}/${installers.answer.goarch}` })
          : info.guidance; // a condition without a catalog text: the task host's words
      out.push(h('p', { class: 'guidance', id: `guidance-${id}` }, why));
      return out;
    }
    const rows = [];
    if (info.installCommand && info.installCommand.length) {
      rows.push(h('dt', {}, t('settings.command')), h('dd', {},
        h('code', { class: 'command', id: `command-${id}` }, shellWords(info.installCommand)),
        info.workDir ? h('div', { class: 'hint' }, t('settings.workdir', { dir: info.workDir })) : null));
    }
    if (info.download) rows.push(h('dt', {}, t('settings.download')), h('dd', {}, h('code', { id: `download-${id}` }, info.download)));
    const prereqs = info.prerequisites || [];
    rows.push(h('dt', {}, t('settings.prerequisites')), h('dd', {}, prereqs.length
      ? h('ul', { class: 'prereqs', id: `prereqs-${id}` }, ...prereqs.map((p) => h('li', { 'data-found': String(p.found), 'data-name': p.name },
        t(p.found ? 'settings.prereq.found' : 'settings.prereq.missing', { name: p.name }))))
      : h('span', { id: `prereqs-${id}` }, t('settings.prereq.none'))));
    rows.push(h('dt', {}, t('settings.destination')), h('dd', {}, h('code', { id: `destination-${id}` }, info.destination)));
    out.push(h('dl', { class: 'installer-details' }, ...rows));
    return out;
  }

  async function save(patch, note) {
    note.textContent = '';
    note.classList.remove('failed');
    try {
      await saveSettings(patch);
      note.textContent = t('settings.saved');
      return true;
    } catch (e) {
      note.textContent = t('settings.saveFailed', { error: e.message });
      note.classList.add('failed');
      return false;
    }
  }

  // saveServer stores the choice of server for one language (the default
  // is stored as no choice).
  async function saveServer(l, select) {
    const all = { ...(getSettings().lsp_language_servers || {}) };
    if (select.value === l.servers[0]) delete all[l.id];
    else all[l.id] = [select.value];
    select.disabled = true;
    const note = $(`card-note-${l.id}`);
    const ok = await save({ lsp_language_servers: all }, note);
    select.disabled = false;
    if (ok) {
      render(); // the installer details of the chosen server
      $(`card-note-${l.id}`).textContent = t('settings.server.saved', { server: select.value });
    } else {
      select.value = chosen(l, getSettings());
    }
  }

  async function saveList(field, selector, box, id) {
    const list = [...page.querySelectorAll(`input${selector}:checked`)].map((c) => c.value);
    box.disabled = true;
    const ok = await save({ [field]: list }, $(`card-note-${id}`));
    box.disabled = false;
    if (!ok) box.checked = !box.checked;
  }

  // saveConfig validates one language's JSON before anything is sent: a
  // parse error or a value that is no object is shown next to the field,
  // naming it, and nothing is saved. An empty field removes the language's
  // configuration.
  async function saveConfig(id) {
    const ta = $(`config-${id}`);
    const err = $(`config-error-${id}`);
    const saved = $(`config-saved-${id}`);
    const field = `lsp_server_configs.${id}`;
    err.textContent = '';
    saved.textContent = '';
    ta.setAttribute('aria-invalid', 'false');
    const refuse = (msg) => {
      err.textContent = msg;
      ta.setAttribute('aria-invalid', 'true');
    };
    let value = null;
    if (ta.value.trim() !== '') {
      try {
        value = JSON.parse(ta.value);
      } catch (e) {
        refuse(t('settings.config.invalid', { language: name(id), field, error: e.message }));
        return;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        refuse(t('settings.config.notObject', { language: name(id), field }));
        return;
      }
    }
    const configs = { ...(getSettings().lsp_server_configs || {}) };
    if (value === null) delete configs[id]; else configs[id] = value;
    try {
      await saveSettings({ lsp_server_configs: configs });
      saved.textContent = t('settings.saved');
    } catch (e) {
      refuse(t('settings.saveFailed', { error: e.message }));
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
