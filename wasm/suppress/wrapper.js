// @ts-check
// The TypeScript built-in wrapper of wrapper.go (WrapperJS), one
// expression: the binding evaluates it with new Function once per Monaco
// namespace and calls it with the namespace (wrapper-types.d.ts has the
// contract).
(/** @type {Suppress.Install} */ (function (monaco) {
  // Patched by name, and holding the control under a symbol.
  const L = /** @type {Suppress.Patchable} */ (/** @type {unknown} */ (monaco.languages));
  const WRAPPED = Symbol.for('kandev.lsp.wrapped');
  if (L[WRAPPED]) return L[WRAPPED];
  const GUARD = Symbol.for('kandev.lsp.provider');
  /** @type {Map<string, Set<string>>} */
  let suppressed = new Map();
  /** @type {Suppress.Control['isSuppressed']} */
  const isSuppressed = (model, feature) => {
    if (!model || !model.uri) return false;
    const set = suppressed.get(model.uri.toString());
    return !!set && set.has(feature);
  };
  const LANGS = new Set(['typescript', 'javascript']);
  /** @type {(sel: Suppress.Selector) => boolean} */
  const selects = (sel) => {
    if (typeof sel === 'string') return LANGS.has(sel);
    if (Array.isArray(sel)) return sel.some(selects);
    return !!sel && typeof sel.language === 'string' && LANGS.has(sel.language);
  };
  /** @type {[string, string, string, () => unknown][]} */
  const table = [
    ['registerCompletionItemProvider', 'completion', 'provideCompletionItems', () => ({ suggestions: [] })],
    ['registerHoverProvider', 'hover', 'provideHover', () => null],
    ['registerDefinitionProvider', 'definition', 'provideDefinition', () => null],
    ['registerReferenceProvider', 'references', 'provideReferences', () => []],
    ['registerSignatureHelpProvider', 'signatureHelp', 'provideSignatureHelp', () => null],
    ['registerDocumentHighlightProvider', 'documentHighlight', 'provideDocumentHighlights', () => null],
    ['registerDocumentSymbolProvider', 'documentSymbol', 'provideDocumentSymbols', () => null],
    ['registerRenameProvider', 'rename', 'provideRenameEdits', () => null],
    ['registerDocumentFormattingEditProvider', 'formatting', 'provideDocumentFormattingEdits', () => null],
    ['registerDocumentRangeFormattingEditProvider', 'rangeFormatting', 'provideDocumentRangeFormattingEdits', () => null],
    ['registerOnTypeFormattingEditProvider', 'onTypeFormatting', 'provideOnTypeFormattingEdits', () => null],
    ['registerCodeActionProvider', 'codeAction', 'provideCodeActions', () => ({ actions: [], dispose() {} })],
    ['registerInlayHintsProvider', 'inlayHints', 'provideInlayHints', () => ({ hints: [], dispose() {} })],
  ];
  /** @type {(() => void)[]} */
  const restore = [];
  for (const [name, feature, method, empty] of table) {
    const original = L[name];
    if (typeof original !== 'function') continue;
    /** @this {unknown} @param {Suppress.Selector} selector @param {any} provider @param {unknown[]} rest */
    const wrapper = function (selector, provider, ...rest) {
      if (!provider || provider[GUARD] === true || !selects(selector) || typeof provider[method] !== 'function') {
        return original.call(this, selector, provider, ...rest);
      }
      const wrapped = Object.create(provider);
      /** @param {Suppress.Model} model @param {unknown[]} args */
      wrapped[method] = function (model, ...args) {
        // The control in force now: a built-in registered under an
        // earlier install follows the current one, and none after dispose.
        const ctl = L[WRAPPED];
        if (ctl && ctl.isSuppressed(model, feature)) return empty();
        return provider[method].call(provider, model, ...args);
      };
      return original.call(this, selector, wrapped, ...rest);
    };
    L[name] = wrapper;
    restore.push(() => { if (L[name] === wrapper) L[name] = original; });
  }
  // Partial: a namespace without an editor API (the tests' fakes) is wrapped too.
  /** @type {Partial<Suppress.Monaco['editor']>} */
  const E = monaco.editor || {};
  const setMarkers = E.setModelMarkers;
  /** @type {Suppress.Control['owns']} */
  const owns = (model) => !!model && !!model.uri && suppressed.has(model.uri.toString());
  if (typeof setMarkers === 'function') {
    /** @this {unknown} @type {typeof setMarkers} */
    const wrapper = function (model, owner, markers) {
      const ctl = L[WRAPPED];
      return setMarkers.call(this, model, owner, LANGS.has(owner) && ctl && ctl.owns(model) ? [] : markers);
    };
    E.setModelMarkers = wrapper;
    restore.push(() => { if (E.setModelMarkers === wrapper) E.setModelMarkers = setMarkers; });
  }
  /** @type {Suppress.Control} */
  const ctl = {
    guard: GUARD,
    set(snapshot) {
      const next = new Map();
      for (const uri of Object.keys(snapshot || {})) next.set(uri, new Set(snapshot[uri]));
      const added = [...next.keys()].filter((uri) => !suppressed.has(uri));
      suppressed = next;
      for (const uri of added) {
        const model = setMarkers && E.getModel && E.getModel(monaco.Uri.parse(uri));
        if (model) for (const owner of LANGS) setMarkers.call(E, model, owner, []);
      }
    },
    mark(provider) { /** @type {any} */ (provider)[GUARD] = true; return provider; },
    isSuppressed,
    owns,
    // uninstall puts Monaco's functions back (unless someone wrapped
    // them since) and suppresses nothing any more.
    uninstall() {
      for (const r of restore) r();
      restore.length = 0;
      suppressed = new Map();
      if (L[WRAPPED] === ctl) delete L[WRAPPED];
    },
  };
  Object.defineProperty(L, WRAPPED, { value: ctl, configurable: true });
  return ctl;
}))
