// The task host's installers, as the relay's installers route answers for
// a session: what installing a language's server would run, from where to
// where, with which prerequisites found — or why nothing can be installed
// and what to do instead. The Settings page shows it per language; the
// status popover and drawer show it beside Install for a missing server.
// @ts-check

/**
 * The task host's answer for one server (relay's installers route).
 * @typedef {{ server?: string, command: string, found?: boolean, path?: string, installable?: boolean, reason?: string,
 *   guidance?: string, installCommand?: string[], workDir?: string, download?: string,
 *   prerequisites?: { name: string, found: boolean }[], destination: string }} ServerInfo
 */
/** @typedef {ServerInfo & { language: string, servers?: ServerInfo[] }} LanguageInfo */
/** @typedef {{ goos: string, goarch: string, languages?: LanguageInfo[] }} InstallersAnswer */

// h builds an element: h('p', { class: 'x', id: 'y' }, 'text', child).
/**
 * @param {string} tag @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  // Any: attrs that are properties of the element (onclick, checked) are set by name.
  const el = /** @type {HTMLElement & Record<string, any>} */ (document.createElement(tag));
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(.../** @type {(Node | string)[]} */ (children.filter((c) => c !== null && c !== undefined && c !== false)));
  return el;
}

// shellWords shows an argv as one copyable command line.
/** @param {string[]} argv */
function shellWords(argv) {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

// installerDetails shows the task host's answer for one server of a
// language, all of it visible without hovering — the Settings page's card
// and the status popover or drawer of a server that is missing; its
// elements' ids end in suffix.
/**
 * @param {import('./platform.js').Texts} t @param {InstallersAnswer} answer
 * @param {string} lang @param {string} serverId @param {string} suffix @returns {HTMLElement[]}
 */
export function installerDetails(t, answer, lang, serverId, suffix) {
  const entry = (answer.languages || []).find((x) => x.language === lang);
  if (!entry) return [];
  // The server's own answer. An entry without servers answers for its
  // own server only (one that names none predates the catalog: the
  // language's one server).
  const info = entry.servers
    ? entry.servers.find((x) => x.server === serverId) || (serverId ? null : entry.servers[0]) // none named: the default
    : (!entry.server || entry.server === serverId ? entry : null);
  if (!info) return [];
  const id = suffix;
  const server = info.command;
  const out = [h('p', { class: 'server-state', 'data-found': String(!!info.found) },
    // A found server has a path.
    info.found ? t('settings.found', { server, path: /** @type {string} */ (info.path) }) : t('settings.missing', { server }))];
  if (!info.installable) {
    const why = info.reason === 'manual_only'
      ? t('settings.manual', { server })
      : info.reason === 'unsupported_os'
        ? t('settings.unsupportedOS', { server, os: `${answer.goos}/${answer.goarch}` })
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


/** @type {Map<string, Promise<InstallersAnswer | null>>} */
const asked = new Map();

// installersOf is the task host's answer for a session, asked once per
// page (null when the relay or the task host cannot answer); fresh asks
// again, as the Settings page does on every opening.
/** @param {string} session @param {boolean} [fresh] @returns {Promise<InstallersAnswer | null>} */
export function installersOf(session, fresh = false) {
  let p = asked.get(session);
  if (!p || fresh) {
    p = fetch(`/api/v1/sessions/${encodeURIComponent(session)}/lsp/installers`)
      .then((res) => (res.ok ? res.json() : null)).catch(() => null);
    asked.set(session, p);
  }
  return p;
}
