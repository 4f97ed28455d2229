// Texts of the page that lsp.wasm's catalogs do not hold: the keyboard
// help around the editor, library tabs, the Files tree's operations. English and German, and the pseudo locale en-XA
// derived from the English as lsp.wasm derives its own (accented letters,
// bracketed, a third longer), so it still shows which texts are
// translated. The page asks lsp.text first; these answer only the keys
// the catalog does not know.
// @ts-check

/** @type {Record<string, Record<string, string>>} */
const TEXTS = {
  en: {
    'page.tabFocus': 'Tab moves focus',
    'page.tabFocus.title': 'When on, Tab and Shift+Tab leave the editor instead of indenting ({key})',
    'page.editorLabel': 'Editor. {key} switches Tab between indenting and moving the focus out of the editor.',
    'page.tabFocus.action': 'Toggle Tab Key Moves Focus',
    'page.tabFocus.on': 'Tab now moves the focus.',
    'page.tabFocus.off': 'Tab now inserts a tab.',
    'page.library': 'read-only',
    'page.library.message': 'This file is outside the workspace (a library): it opens read-only.',
    'page.newFile': 'New File…',
    'page.newFolder': 'New Folder…',
    'page.rename': 'Rename…',
    'page.delete': 'Delete',
    'page.treeName.title': 'Enter to confirm, Escape to cancel. A slash moves: sub/name into a folder below, /path from the workspace root.',
    'page.deleteFile.confirm': 'Delete {path}?',
    'page.deleteFolder.confirm': 'Delete the folder {path} and everything in it?',
    'page.fileOp.failed': 'Could not change {path}',
    'page.fileOp.exists': '{path} already exists.',
    'page.fileOp.missing': 'The file or its folder no longer exists.',
    'page.fileOp.refused': 'The task host refused it (HTTP {status}).',
  },
  de: {
    'page.tabFocus': 'Tab wechselt den Fokus',
    'page.tabFocus.title': 'Wenn an, verlassen Tab und Umschalt+Tab den Editor, statt einzurücken ({key})',
    'page.editorLabel': 'Editor. {key} schaltet Tab zwischen Einrücken und dem Verlassen des Editors um.',
    'page.tabFocus.action': 'Tab-Taste verschiebt den Fokus umschalten',
    'page.tabFocus.on': 'Tab verschiebt jetzt den Fokus.',
    'page.tabFocus.off': 'Tab fügt jetzt einen Tabulator ein.',
    'page.library': 'schreibgeschützt',
    'page.library.message': 'Diese Datei liegt außerhalb des Arbeitsbereichs (eine Bibliothek) und ist schreibgeschützt.',
    'page.newFile': 'Neue Datei…',
    'page.newFolder': 'Neuer Ordner…',
    'page.rename': 'Umbenennen…',
    'page.delete': 'Löschen',
    'page.treeName.title': 'Eingabe bestätigt, Escape bricht ab. Ein Schrägstrich verschiebt: unter/name in einen Ordner darunter, /pfad ab dem Arbeitsbereich.',
    'page.deleteFile.confirm': '{path} löschen?',
    'page.deleteFolder.confirm': 'Den Ordner {path} mit allem darin löschen?',
    'page.fileOp.failed': '{path} konnte nicht geändert werden',
    'page.fileOp.exists': '{path} gibt es schon.',
    'page.fileOp.missing': 'Die Datei oder ihr Ordner existiert nicht mehr.',
    'page.fileOp.refused': 'Der Task-Host hat abgelehnt (HTTP {status}).',
  },
};

const ACCENTS = [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'];

/** @param {string} s */
function pseudo(s) {
  let out = '[';
  let inArg = false;
  let letters = 0;
  for (const c of s) {
    let r = c;
    if (c === '{') inArg = true;
    else if (c === '}') inArg = false;
    else if (!inArg && c >= 'a' && c <= 'z') { r = ACCENTS[c.charCodeAt(0) - 97]; letters++; }
    else if (!inArg && c >= 'A' && c <= 'Z') { r = ACCENTS[26 + c.charCodeAt(0) - 65]; letters++; }
    out += r;
  }
  return `${out} ${'~'.repeat(Math.floor(letters / 3) + 1)}]`;
}

// pageText is key's text in locale (en, de or en-XA) with {name}
// placeholders filled, or null for a key this table does not have.
/** @param {string} locale @param {string} key @param {Record<string, string | number>} [args] */
export function pageText(locale, key, args = {}) {
  const en = TEXTS.en[key];
  if (en === undefined) return null;
  const text = locale === 'en-XA' ? pseudo(en) : (TEXTS[locale] || TEXTS.en)[key] ?? en;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}
