//go:build js && wasm

package jsbind

// shimJS is evaluated once per configure with new Function and called with
// (monaco, call, navigate, guard, readFile): it returns the helpers through
// which the binding talks to Monaco with one string per crossing.
//
//   - call(connID, feature, json, resolve, reject) is the Go function of every
//     provider: it answers later by calling resolve(string) or reject(err).
//   - navigate(json) → JSON string (client.Navigate) is the Go function of the
//     editor opener.
//   - guard marks our providers for the TypeScript built-in wrapper.
//   - readFile(sessionId, path) → Promise<string|null> is the page's, optional:
//     a definition or reference target in a file with no model gets a
//     placeholder model (so Monaco can preview it), owned by the connection
//     and disposed when the connection ends (end) unless the page opened it
//     since (claim).
//
// register(connID, lang, feature, optionsJSON) registers one feature's
// provider and returns its own disposable, so a registration change redoes
// only the features it changed: the others keep their place in Monaco's
// provider order, and no peek preview loses its placeholder model. The
// providers table has one entry per feature (features.OptionsJSON gives
// its options).
//
// Each provider packs Monaco's arguments into one JSON string, so a call
// costs two crossings whatever its size; the answer is JSON.parsed here,
// with the only post-processing JSON cannot carry: Uri objects for
// locations, a Uint32Array for semantic tokens, dispose on signature help.
// Go answers null for a model its connection does not serve, so Monaco
// asks the next provider.
const shimJS = `return function (monaco, call, navigate, guard, readFile) {
  const L = monaco.languages;
  const ask = (id, feature, json, token) => {
    if (token && token.isCancellationRequested) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => call(id, feature, json, resolve, reject)).then(JSON.parse);
  };
  const pos = (m, p) => '{"uri":' + JSON.stringify(m.uri.toString()) + ',"lineNumber":' + p.lineNumber + ',"column":' + p.column;
  const claimed = new WeakSet();
  // Per connection: its placeholder models and its semantic-token refreshers.
  const conns = new Map();
  const connOf = (id) => {
    let c = conns.get(id);
    if (!c) { c = { placeholders: new Set(), refreshers: new Set() }; conns.set(id, c); }
    return c;
  };
  const locations = (arr, placeholders) => {
    if (!arr) return arr;
    for (const l of arr) l.uri = monaco.Uri.parse(l.uri);
    if (typeof readFile !== 'function') return arr;
    const missing = new Map();
    for (const l of arr) {
      if (l.uri.scheme === 'kandev' && !monaco.editor.getModel(l.uri)) missing.set(l.uri.toString(), l.uri);
    }
    return Promise.all([...missing.values()].map((u) => Promise.resolve(readFile(u.authority, u.path.slice(1))).then((text) => {
      if (typeof text === 'string' && !monaco.editor.getModel(u)) placeholders.add(monaco.editor.createModel(text, undefined, u));
    }, () => {}))).then(() => arr);
  };
  const mark = (p) => { p[guard] = true; return p; };
  const providers = {
    completion: (id, lang, o) => L.registerCompletionItemProvider(lang, mark({
      triggerCharacters: o.triggerCharacters || [],
      provideCompletionItems(model, position, context, token) {
        const w = model.getWordUntilPosition(position);
        const a = model.getWordAtPosition(position);
        const j = pos(model, position) + ',"wordStart":' + w.startColumn + ',"wordEnd":' + (a ? a.endColumn : position.column) +
          ',"triggerKind":' + context.triggerKind + ',"triggerCharacter":' + JSON.stringify(context.triggerCharacter || '') + '}';
        return ask(id, 'completion', j, token);
      },
    })),
    hover: (id, lang) => L.registerHoverProvider(lang, mark({
      provideHover(model, position, token) { return ask(id, 'hover', pos(model, position) + '}', token); },
    })),
    definition: (id, lang) => L.registerDefinitionProvider(lang, mark({
      provideDefinition(model, position, token) {
        return ask(id, 'definition', pos(model, position) + '}', token).then((r) => locations(r, connOf(id).placeholders));
      },
    })),
    references: (id, lang) => L.registerReferenceProvider(lang, mark({
      provideReferences(model, position, context, token) {
        return ask(id, 'references', pos(model, position) + '}', token).then((r) => locations(r, connOf(id).placeholders));
      },
    })),
    signatureHelp: (id, lang, o) => L.registerSignatureHelpProvider(lang, mark({
      signatureHelpTriggerCharacters: o.triggerCharacters || [],
      signatureHelpRetriggerCharacters: o.retriggerCharacters || [],
      provideSignatureHelp(model, position, token, context) {
        const c = { triggerKind: context.triggerKind, triggerCharacter: context.triggerCharacter, isRetrigger: context.isRetrigger, activeSignatureHelp: context.activeSignatureHelp };
        return ask(id, 'signatureHelp', pos(model, position) + ',"context":' + JSON.stringify(c) + '}', token)
          .then((r) => { if (r) r.dispose = () => {}; return r; });
      },
    })),
    semanticTokens: (id, lang, o) => {
      const listeners = new Set();
      const fire = () => { for (const l of [...listeners]) l(); };
      const refreshers = connOf(id).refreshers;
      refreshers.add(fire);
      const d = L.registerDocumentSemanticTokensProvider(lang, mark({
        onDidChange(l) { listeners.add(l); return { dispose() { listeners.delete(l); } }; },
        getLegend() { return o.legend; },
        provideDocumentSemanticTokens(model, lastResultId, token) {
          return ask(id, 'semanticTokens', '{"uri":' + JSON.stringify(model.uri.toString()) + ',"lineNumber":1,"column":1}', token)
            .then((r) => { if (r) r.data = new Uint32Array(r.data); return r; });
        },
        releaseDocumentSemanticTokens() {},
      }));
      return { dispose() { d.dispose(); listeners.clear(); refreshers.delete(fire); } };
    },
  };
  function register(id, lang, feature, optsJSON) {
    const make = providers[feature];
    if (!make) throw new Error('no provider for ' + feature);
    return make(id, lang, JSON.parse(optsJSON));
  }
  // end: the connection ended; its placeholder models go unless claimed.
  function end(id) {
    const c = conns.get(id);
    if (!c) return;
    conns.delete(id);
    for (const m of c.placeholders) if (!claimed.has(m) && !m.isDisposed()) m.dispose();
  }
  function refresh(id) {
    const c = conns.get(id);
    if (c) for (const f of [...c.refreshers]) f();
  }
  function hookChange(model, fn) {
    return model.onDidChangeContent((e) => fn(JSON.stringify({
      versionId: e.versionId, isFlush: e.isFlush, isEolChange: e.isEolChange, changes: e.changes,
    })));
  }
  function opener(tabs, open) {
    return monaco.editor.registerEditorOpener({
      openCodeEditor(source, resource, selection) {
        const m = source && source.getModel && source.getModel();
        const src = m ? m.uri.toString() : '';
        let list = [];
        try { list = (tabs && tabs()) || []; } catch (e) { console.error(e); }
        const t = JSON.parse(navigate(JSON.stringify({ source: src, target: resource.toString(), tabs: list })));
        if (!t.handled || !open) return false;
        t.editor = source; // the editor that started the navigation
        if (selection) {
          t.selection = 'endLineNumber' in selection ? {
            startLineNumber: selection.startLineNumber, startColumn: selection.startColumn,
            endLineNumber: selection.endLineNumber, endColumn: selection.endColumn,
          } : { startLineNumber: selection.lineNumber, startColumn: selection.column, endLineNumber: selection.lineNumber, endColumn: selection.column };
        }
        return Promise.resolve(open(t)).then((r) => r !== false, (e) => { console.error(e); return false; });
      },
    });
  }
  // claim: the page opened this model; it is no placeholder any more.
  const claim = (model) => { claimed.add(model); };
  return { register, end, refresh, hookChange, opener, claim };
}`
