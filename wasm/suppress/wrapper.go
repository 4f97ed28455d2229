package suppress

// GuardSymbol is the Symbol.for key that marks Kandev's own providers. A
// provider object carrying provider[Symbol.for(GuardSymbol)] === true is
// registered untouched, whatever the suppression state: the registration
// guard does not depend on suppression.
const GuardSymbol = "kandev.lsp.provider"

// WrapperJS is the JavaScript that wraps Monaco's register*Provider
// functions for the replaceable built-in features. The binding evaluates it
// once per Monaco namespace, as soon as it is handed Monaco (configure) —
// before Monaco's lazy TypeScript mode registers its providers on the first
// TypeScript/JavaScript model, and whether or not an LSP handshake already
// happened — and keeps the returned control object:
//
//	const ctl = new Function('return ' + WrapperJS)()(monaco);
//	ctl.set(JSON.parse(state.Snapshot()));   // after every state change
//	ctl.mark(provider);                      // on each of our providers
//
// Installing twice on the same namespace returns the same control object;
// ctl.uninstall() (lsp.dispose()) puts Monaco's functions back. A wrapped
// built-in asks the control in force (a Map lookup, no Go crossing) on
// every call and answers empty — {suggestions: []}, null, [], no actions
// or no hints — for a suppressed (model, feature); null makes Monaco ask
// the next provider (the LSP one) where it takes the first answer; otherwise, and with no control installed,
// it calls the original provider. Only providers registered for the
// typescript or javascript languages are wrapped; ours, marked with the
// guard, never are.
//
// monaco.editor.setModelMarkers is wrapped too, for the TypeScript
// worker's diagnostics (markers owned by "typescript" or "javascript"):
// the worker sees the open model alone, so an import of another file of
// the task reads "Cannot find module". On a model owned by an active
// connection (ctl.owns(model)) they are dropped, the server's standing
// instead, and a model's are cleared when it becomes owned.
const WrapperJS = `(function (monaco) {
  const L = monaco.languages;
  const WRAPPED = Symbol.for('kandev.lsp.wrapped');
  if (L[WRAPPED]) return L[WRAPPED];
  const GUARD = Symbol.for('` + GuardSymbol + `');
  let suppressed = new Map();
  const isSuppressed = (model, feature) => {
    if (!model || !model.uri) return false;
    const set = suppressed.get(model.uri.toString());
    return !!set && set.has(feature);
  };
  const LANGS = new Set(['typescript', 'javascript']);
  const selects = (sel) => {
    if (typeof sel === 'string') return LANGS.has(sel);
    if (Array.isArray(sel)) return sel.some(selects);
    return !!sel && typeof sel.language === 'string' && LANGS.has(sel.language);
  };
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
  const restore = [];
  for (const [name, feature, method, empty] of table) {
    const original = L[name];
    if (typeof original !== 'function') continue;
    const wrapper = function (selector, provider, ...rest) {
      if (!provider || provider[GUARD] === true || !selects(selector) || typeof provider[method] !== 'function') {
        return original.call(this, selector, provider, ...rest);
      }
      const wrapped = Object.create(provider);
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
  const E = monaco.editor || {};
  const setMarkers = E.setModelMarkers;
  const owns = (model) => !!model && !!model.uri && suppressed.has(model.uri.toString());
  if (typeof setMarkers === 'function') {
    const wrapper = function (model, owner, markers) {
      const ctl = L[WRAPPED];
      return setMarkers.call(this, model, owner, LANGS.has(owner) && ctl && ctl.owns(model) ? [] : markers);
    };
    E.setModelMarkers = wrapper;
    restore.push(() => { if (E.setModelMarkers === wrapper) E.setModelMarkers = setMarkers; });
  }
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
    mark(provider) { provider[GUARD] = true; return provider; },
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
})`
