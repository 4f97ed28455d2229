// @ts-check
// The provider shim of shim.go, one expression: evaluated with new
// Function once per configure, and called with Go's functions and the
// page's callbacks (shim-types.d.ts has the contract).
(/** @type {Shim.Make} */ (function (monaco, call, navigate, guard, page, cancel, applied) {
  const L = monaco.languages;
  const readFile = page.readFile;
  const readLibraryFile = page.readLibraryFile;
  let seq = 0;
  // ask runs one Go call; a cancellation Monaco signals later reaches Go
  // (and the server, as $/cancelRequest) through cancel(n).
  /** @type {Shim.Ask} */
  const ask = (id, feature, json, token) => {
    if (token && token.isCancellationRequested) return Promise.resolve(undefined);
    const n = ++seq;
    const p = new Promise((resolve, reject) => call(id, feature, json, resolve, reject, n)).then(JSON.parse);
    if (token && token.onCancellationRequested) {
      const d = token.onCancellationRequested(() => cancel(n));
      p.then(() => d.dispose(), () => d.dispose());
    }
    return p;
  };
  const q = JSON.stringify;
  /** @type {(m: Shim.Model) => string} */
  const doc = (m) => '{"uri":' + q(m.uri.toString());
  /** @type {(m: Shim.Model, p: Shim.Position) => string} */
  const pos = (m, p) => doc(m) + ',"lineNumber":' + p.lineNumber + ',"column":' + p.column;
  /** @type {(o: Shim.FormattingOptions) => string} */
  const opts = (o) => ',"options":' + q({ tabSize: o.tabSize, insertSpaces: o.insertSpaces });
  // lsp is LSP's zero-based position of a Monaco line number and column,
  // for the calls whose "params" the shim builds in LSP's form.
  /** @type {(line: number, column: number) => {line: number, character: number}} */
  const lsp = (line, column) => ({ line: line - 1, character: column - 1 });
  // content reads a server document's text (LSP 3.18): the model URI's
  // server URI asked of a server of its session that provides its scheme;
  // null when none does.
  /** @type {Shim.Helpers['content']} */
  const content = (uri) => ask('', 'documentContent', '{"uri":' + q(String(uri)) + '}');
  // setContent gives a server document's model the text its server
  // refreshed, when the model exists.
  /** @type {Shim.Helpers['setContent']} */
  const setContent = (uri, text) => {
    const m = monaco.editor.getModel(monaco.Uri.parse(uri));
    if (m && !m.isDisposed() && m.getValue() !== text) m.setValue(text);
  };
  /** @type {WeakSet<Shim.Model>} */
  const claimed = new WeakSet();
  // Per connection: its placeholder models and its refreshers by feature.
  /** @type {Map<string, Shim.Conn>} */
  const conns = new Map();
  /** @type {(id: string) => Shim.Conn} */
  const connOf = (id) => {
    let c = conns.get(id);
    if (!c) { c = { placeholders: new Set(), refreshers: new Set() }; conns.set(id, c); }
    return c;
  };
  /** @type {(arr: any[] | null, placeholders: Set<Shim.Model>) => any} */
  const locations = (arr, placeholders) => {
    if (!arr) return arr;
    for (const l of arr) l.uri = monaco.Uri.parse(l.uri);
    // A workspace file's text comes from readFile (its workspace-relative
    // path), a library file's from readLibraryFile (its absolute path), a
    // server document's from its server.
    /** @type {(u: Shim.Uri) => any} */
    const read = (u) => u.scheme === 'kandev' ? typeof readFile === 'function' && readFile(u.authority, u.path.slice(1))
      : u.scheme === 'kandev-lib' ? typeof readLibraryFile === 'function' && readLibraryFile(u.authority, u.path)
        : u.scheme === 'kandev-doc' && content(u.toString());
    /** @type {Map<string, Shim.Uri>} */
    const missing = new Map();
    for (const l of arr) {
      if ((l.uri.scheme === 'kandev' || l.uri.scheme === 'kandev-lib' || l.uri.scheme === 'kandev-doc') && !monaco.editor.getModel(l.uri)) missing.set(l.uri.toString(), l.uri);
    }
    if (!missing.size) return arr;
    return Promise.all([...missing.values()].map((u) => Promise.resolve(read(u)).then((text) => {
      if (typeof text === 'string' && !monaco.editor.getModel(u)) placeholders.add(monaco.editor.createModel(text, undefined, u));
    }, () => {}))).then(() => arr);
  };
  /** @type {<P extends object>(p: P) => P} */
  const mark = (p) => { /** @type {any} */ (p)[guard] = true; return p; };
  // refreshable gives a provider an onDidChange event the server's refresh
  // request fires (key: the Monaco event's name).
  /** @type {(id: string, feature: string, key: string, provider: any) => (d: Shim.Disposable) => Shim.Disposable} */
  const refreshable = (id, feature, key, provider) => {
    /** @type {Set<() => void>} */
    const listeners = new Set();
    const fire = () => { for (const l of [...listeners]) l(); };
    fire.feature = feature;
    connOf(id).refreshers.add(fire);
    provider[key] = (/** @type {() => void} */ l) => { listeners.add(l); return { dispose() { listeners.delete(l); } }; };
    return (d) => ({ dispose() { d.dispose(); listeners.clear(); connOf(id).refreshers.delete(fire); } });
  };
  // u32 makes a semantic-token answer's data (and a delta's edits' data)
  // the Uint32Array Monaco wants; Monaco applies a delta's edits back to
  // front, so they are sorted by start.
  /** @type {(r: any) => any} */
  const u32 = (r) => {
    if (r && r.data) r.data = new Uint32Array(r.data);
    if (r && r.edits) {
      r.edits.sort((/** @type {any} */ a, /** @type {any} */ b) => a.start - b.start);
      for (const e of r.edits) if (e.data) e.data = new Uint32Array(e.data);
    }
    return r;
  };
  // keep hides an answer's "lsp" (the kept LSP item a resolve step sends
  // back) from Monaco, with the model it came from; again resolves it.
  /** @type {(x: any, model: Shim.Model) => any} */
  const keep = (x, model) => {
    if (x.lsp) Object.defineProperty(x, 'lsp', { value: [model.uri.toString(), x.lsp], enumerable: false });
    return x;
  };
  /** @type {(id: string, name: string, x: any, token: Shim.Token) => Promise<any>} */
  const again = (id, name, x, token) => ask(id, name, '{"uri":' + q(x.lsp[0]) + ',"lsp":' + q(x.lsp[1]) + '}', token);
  const CMD = 'kandev.lsp.codeAction';
  const LENS = 'kandev.lsp.codeLens';
  const INLINE = 'kandev.lsp.inlineCompletion';
  /** @type {Shim.Disposable | null} */
  let cmd = null;
  /** @type {Shim.Disposable | null} */
  let lensCmd = null;
  /** @type {Shim.Disposable | null} */
  let inlineCmd = null;
  /** @type {Set<string>} */
  const warned = new Set();
  // lens readies a code lens for Monaco: a command the server runs goes
  // through the one lens command, Monaco's own showReferences and
  // goToLocations get their arguments (the lens's model, the position, the
  // locations with Uris, the rest), and a command no one runs is only
  // shown (and named once on the console).
  /** @type {(id: string, l: any, model: Shim.Model) => any} */
  const lens = (id, l, model) => {
    const c = l.command;
    if (l.run) {
      c.arguments = [id, model.uri.toString(), l.run];
      delete l.run;
    } else if (l.refs) {
      const a = l.args;
      for (const x of l.refs) x.uri = monaco.Uri.parse(x.uri);
      c.arguments = [model.uri, { lineNumber: a[1].line + 1, column: a[1].character + 1 }, l.refs, ...a.slice(3)];
      delete l.refs;
      delete l.args;
    } else if (l.unknown) {
      if (!warned.has(l.unknown)) { warned.add(l.unknown); console.warn('lsp: code lens command ' + l.unknown + ' is shown, not run: the server does not run it'); }
      delete l.unknown;
    }
    return keep(l, model);
  };
  /** @type {(feature: string, register: Shim.NavRegister, method: string) => Shim.Provider} */
  // The method's name follows register, which tsc cannot tie: any.
  const nav = (feature, register, method) => (id, lang) => L[register](lang, /** @type {any} */ (mark({
    [method](/** @type {Shim.Model} */ model, /** @type {Shim.Position} */ position, /** @type {Shim.Token} */ token) {
      return ask(id, feature, pos(model, position) + '}', token).then((r) => locations(r, connOf(id).placeholders));
    },
  })));
  /** @type {Record<string, Shim.Provider>} */
  const providers = {
    completion: (id, lang, o) => L.registerCompletionItemProvider(lang, mark(Object.assign(/** @type {Shim.CompletionProvider} */ ({
      triggerCharacters: o.triggerCharacters || [],
      provideCompletionItems(model, position, context, token) {
        const w = model.getWordUntilPosition(position);
        const a = model.getWordAtPosition(position);
        const j = pos(model, position) + ',"wordStart":' + w.startColumn + ',"wordEnd":' + (a ? a.endColumn : position.column) +
          ',"triggerKind":' + context.triggerKind + ',"triggerCharacter":' + q(context.triggerCharacter || '') + '}';
        return ask(id, 'completion', j, token).then((r) => {
          if (r) for (const s of r.suggestions) if (s.lsp) Object.defineProperty(s, 'lsp', { value: [model.uri.toString(), s.lsp], enumerable: false });
          return r;
        });
      },
    }), o.resolve ? {
      resolveCompletionItem(/** @type {any} */ item, /** @type {Shim.Token} */ token) {
        if (!item.lsp) return item;
        return ask(id, 'completionResolve', '{"uri":' + q(item.lsp[0]) + ',"lsp":' + q(item.lsp[1]) + '}', token).then((r) => r ? Object.assign(item, r) : item);
      },
    } : {}))),
    hover: (id, lang) => L.registerHoverProvider(lang, mark({
      provideHover(model, position, token) { return ask(id, 'hover', pos(model, position) + '}', token); },
    })),
    definition: nav('definition', 'registerDefinitionProvider', 'provideDefinition'),
    typeDefinition: nav('typeDefinition', 'registerTypeDefinitionProvider', 'provideTypeDefinition'),
    implementation: nav('implementation', 'registerImplementationProvider', 'provideImplementation'),
    declaration: nav('declaration', 'registerDeclarationProvider', 'provideDeclaration'),
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
        return ask(id, 'signatureHelp', pos(model, position) + ',"context":' + q(c) + '}', token)
          .then((r) => { if (r) r.dispose = () => {}; return r; });
      },
    })),
    semanticTokens: (id, lang, o) => {
      const p = mark(/** @type {Shim.SemanticTokensProvider} */ ({
        getLegend() { return /** @type {Shim.Legend} */ (o.legend); },
        provideDocumentSemanticTokens(model, lastResultId, token) {
          return ask(id, 'semanticTokens', doc(model) + (lastResultId ? ',"lastResultId":' + q(lastResultId) : '') + '}', token).then(u32);
        },
        releaseDocumentSemanticTokens() {},
      }));
      const wrap = refreshable(id, 'semanticTokens', 'onDidChange', p);
      return wrap(L.registerDocumentSemanticTokensProvider(lang, p));
    },
    semanticTokensRange: (id, lang, o) => {
      const p = mark(/** @type {Shim.RangeSemanticTokensProvider} */ ({
        getLegend() { return /** @type {Shim.Legend} */ (o.legend); },
        provideDocumentRangeSemanticTokens(model, range, token) {
          return ask(id, 'semanticTokensRange', doc(model) + ',"range":' + q(range) + '}', token).then(u32);
        },
      }));
      const wrap = refreshable(id, 'semanticTokens', 'onDidChange', p);
      return wrap(L.registerDocumentRangeSemanticTokensProvider(lang, p));
    },
    codeAction: (id, lang, o) => {
      // A documentation command runs on the document the menu was last
      // asked for: its arguments carry `at`, which every request updates.
      if (!cmd) cmd = monaco.editor.registerCommand(CMD, (accessor, conn, model, lsp) =>
        ask(conn, 'codeActionApply', '{"uri":' + q(typeof model === 'string' ? model : model.uri) + ',"lsp":' + q(lsp) + '}'));
      const at = { uri: '' };
      /** @type {any} */
      const meta = {};
      if (o.kinds && o.kinds.length) meta.providedCodeActionKinds = o.kinds;
      if (o.docs && o.docs.length) meta.documentation = o.docs.map((d) => ({ kind: d.kind, command: { id: CMD, title: d.title, arguments: [id, at, d.lsp] } }));
      return L.registerCodeActionProvider(lang, mark({
        provideCodeActions(model, range, context, token) {
          at.uri = model.uri.toString();
          const j = doc(model) + ',"range":' + q(range) + ',"only":' + q(context.only || '') + ',"trigger":' + (context.trigger || 1) + '}';
          return ask(id, 'codeAction', j, token).then((r) => {
            if (!r) return r;
            for (const a of r.actions) {
              a.command = { id: CMD, title: a.title, arguments: [id, model.uri.toString(), a.lsp] };
              delete a.lsp;
            }
            r.dispose = () => {};
            return r;
          });
        },
      }), Object.keys(meta).length ? meta : undefined);
    },
    rename: (id, lang) => L.registerRenameProvider(lang, mark({
      provideRenameEdits(model, position, newName, token) {
        return ask(id, 'rename', pos(model, position) + ',"newName":' + q(newName) + '}', token);
      },
      resolveRenameLocation(model, position, token) {
        return ask(id, 'prepareRename', pos(model, position) + '}', token).then((r) => {
          if (r && r.text === null) r.text = model.getValueInRange(r.range);
          return r || undefined;
        });
      },
    })),
    formatting: (id, lang) => L.registerDocumentFormattingEditProvider(lang, mark({
      provideDocumentFormattingEdits(model, o, token) { return ask(id, 'formatting', doc(model) + opts(o) + '}', token); },
    })),
    rangeFormatting: (id, lang, o) => {
      /** @type {any} */
      const p = mark({
        /** @type {(model: Shim.Model, range: unknown, f: Shim.FormattingOptions, token: Shim.Token) => Promise<any>} */
        provideDocumentRangeFormattingEdits(model, range, f, token) {
          return ask(id, 'rangeFormatting', doc(model) + ',"range":' + q(range) + opts(f) + '}', token);
        },
      });
      // LSP 3.18: several selections formatted in one request.
      if (o.ranges) {
        /** @type {(model: Shim.Model, ranges: unknown[], f: Shim.FormattingOptions, token: Shim.Token) => Promise<any>} */
        p.provideDocumentRangesFormattingEdits = (model, ranges, f, token) =>
          ask(id, 'rangesFormatting', doc(model) + ',"ranges":' + q(ranges) + opts(f) + '}', token);
      }
      return L.registerDocumentRangeFormattingEditProvider(lang, p);
    },
    onTypeFormatting: (id, lang, o) => L.registerOnTypeFormattingEditProvider(lang, mark({
      autoFormatTriggerCharacters: /** @type {string[]} */ (o.triggerCharacters), // always sent for onTypeFormatting
      provideOnTypeFormattingEdits(model, position, ch, fo, token) {
        return ask(id, 'onTypeFormatting', pos(model, position) + ',"ch":' + q(ch) + opts(fo) + '}', token);
      },
    })),
    documentSymbol: (id, lang) => L.registerDocumentSymbolProvider(lang, mark({
      provideDocumentSymbols(model, token) { return ask(id, 'documentSymbol', doc(model) + '}', token); },
    })),
    foldingRange: (id, lang) => {
      const p = mark({
        /** @type {(model: Shim.Model, context: unknown, token: Shim.Token) => Promise<any>} */
        provideFoldingRanges(model, context, token) {
          return ask(id, 'foldingRange', doc(model) + '}', token).then((r) => {
            if (r) for (const f of r) if (f.kind) f.kind = new L.FoldingRangeKind(f.kind);
            return r;
          });
        },
      });
      const wrap = refreshable(id, 'foldingRange', 'onDidChange', p);
      return wrap(L.registerFoldingRangeProvider(lang, p));
    },
    documentHighlight: (id, lang) => L.registerDocumentHighlightProvider(lang, mark({
      provideDocumentHighlights(model, position, token) { return ask(id, 'documentHighlight', pos(model, position) + '}', token); },
    })),
    inlayHints: (id, lang, o) => {
      /** @type {(h: any) => any} */
      const uris = (h) => {
        if (Array.isArray(h.label)) for (const p of h.label) if (p.location) p.location.uri = monaco.Uri.parse(p.location.uri);
        return h;
      };
      const p = mark(Object.assign(/** @type {Shim.InlayHintsProvider} */ ({
        provideInlayHints(model, range, token) {
          return ask(id, 'inlayHints', doc(model) + ',"range":' + q(range) + '}', token).then((r) => {
            if (!r) return r;
            for (const h of r.hints) { uris(h); if (h.lsp) Object.defineProperty(h, 'lsp', { value: [model.uri.toString(), h.lsp], enumerable: false }); }
            r.dispose = () => {};
            return r;
          });
        },
      }), o.resolve ? {
        resolveInlayHint(/** @type {any} */ hint, /** @type {Shim.Token} */ token) {
          if (!hint.lsp) return hint;
          return ask(id, 'inlayHintResolve', '{"uri":' + q(hint.lsp[0]) + ',"lsp":' + q(hint.lsp[1]) + '}', token).then((r) => (r ? uris(r) : hint));
        },
      } : {}));
      const wrap = refreshable(id, 'inlayHints', 'onDidChangeInlayHints', p);
      return wrap(L.registerInlayHintsProvider(lang, p));
    },
    codeLens: (id, lang, o) => {
      if (!lensCmd) lensCmd = monaco.editor.registerCommand(LENS, (accessor, conn, model, lsp) =>
        ask(conn, 'codeLensRun', '{"uri":' + q(model) + ',"lsp":' + q(lsp) + '}'));
      const p = mark(Object.assign(/** @type {Shim.CodeLensProvider} */ ({
        provideCodeLenses(model, token) {
          return ask(id, 'codeLens', doc(model) + '}', token).then((r) => {
            if (!r) return r;
            for (const l of r.lenses) lens(id, l, model);
            r.dispose = () => {};
            return r;
          });
        },
      }), o.resolve ? {
        resolveCodeLens(/** @type {Shim.Model} */ model, /** @type {any} */ l, /** @type {Shim.Token} */ token) {
          return l.lsp ? again(id, 'codeLensResolve', l, token).then((r) => (r ? lens(id, r, model) : l)) : l;
        },
      } : {}));
      const wrap = refreshable(id, 'codeLens', 'onDidChange', p);
      return wrap(L.registerCodeLensProvider(lang, p));
    },
    documentLink: (id, lang, o) => L.registerLinkProvider(lang, mark(Object.assign(/** @type {Shim.LinkProvider} */ ({
      provideLinks(model, token) {
        return ask(id, 'documentLink', doc(model) + '}', token).then((r) => {
          if (r) for (const l of r.links) keep(l, model);
          return r;
        });
      },
    }), o.resolve ? {
      resolveLink(/** @type {any} */ l, /** @type {Shim.Token} */ token) { return l.lsp ? again(id, 'documentLinkResolve', l, token).then((r) => r || l) : l; },
    } : {}))),
    documentColor: (id, lang) => L.registerColorProvider(lang, mark({
      provideDocumentColors(model, token) { return ask(id, 'documentColor', doc(model) + '}', token); },
      provideColorPresentations(model, info, token) {
        const r = info.range;
        const range = { start: lsp(r.startLineNumber, r.startColumn), end: lsp(r.endLineNumber, r.endColumn) };
        return ask(id, 'colorPresentation', doc(model) + ',"params":' + q({ color: info.color, range }) + '}', token);
      },
    })),
    // Inline completions (LSP 3.18): Monaco's trigger kinds (0 automatic,
    // 1 explicit) go as LSP's (2, 1); an accepted item's server command
    // runs through the one inline command.
    inlineCompletion: (id, lang) => {
      if (!inlineCmd) inlineCmd = monaco.editor.registerCommand(INLINE, (accessor, conn, model, lsp) =>
        ask(conn, 'inlineCompletionRun', '{"uri":' + q(model) + ',"lsp":' + q(lsp) + '}'));
      return L.registerInlineCompletionsProvider(lang, mark({
        provideInlineCompletions(model, position, context, token) {
          const s = context.selectedSuggestionInfo;
          const sel = s ? ',"selected":{"range":' + q(s.range) + ',"text":' + q(s.text) + '}' : '';
          return ask(id, 'inlineCompletion', pos(model, position) + ',"trigger":' + (context.triggerKind === 1 ? 1 : 2) + sel + '}', token).then((r) => {
            if (!r) return r;
            for (const it of r.items) {
              if (it.run) it.command = { id: INLINE, title: it.title, arguments: [id, model.uri.toString(), it.run] };
              delete it.run;
              delete it.title;
            }
            return r;
          });
        },
        disposeInlineCompletions() {},
      }));
    },
    linkedEditingRange: (id, lang) => L.registerLinkedEditingRangeProvider(lang, mark({
      provideLinkedEditingRanges(model, position, token) {
        return ask(id, 'linkedEditingRange', pos(model, position) + '}', token).then((r) => {
          if (r && r.wordPattern) {
            try { r.wordPattern = new RegExp(r.wordPattern); } catch (e) { delete r.wordPattern; }
          }
          return r;
        });
      },
    })),
    selectionRange: (id, lang) => L.registerSelectionRangeProvider(lang, mark({
      provideSelectionRanges(model, positions, token) {
        const ps = positions.map((p) => lsp(p.lineNumber, p.column));
        return ask(id, 'selectionRange', doc(model) + ',"params":' + q({ positions: ps }) + '}', token);
      },
    })),
  };
  /** @type {Shim.Helpers['register']} */
  function register(id, lang, feature, optsJSON) {
    const make = providers[feature];
    if (!make) throw new Error('no provider for ' + feature);
    return make(id, lang, JSON.parse(optsJSON));
  }
  // end: the connection ended; its placeholder models go unless claimed.
  /** @type {Shim.Helpers['end']} */
  function end(id) {
    const c = conns.get(id);
    if (!c) return;
    conns.delete(id);
    for (const m of c.placeholders) if (!claimed.has(m) && !m.isDisposed()) m.dispose();
  }
  /** @type {Shim.Helpers['refresh']} */
  function refresh(id, feature) {
    const c = conns.get(id);
    if (c) for (const f of [...c.refreshers]) if (f.feature === feature) f();
  }
  // editorOf is the editor showing model m, the focused one first, or null.
  /** @type {(m: Shim.Model) => import('monaco-editor').editor.ICodeEditor | null} */
  const editorOf = (m) => {
    const eds = monaco.editor.getEditors().filter((e) => e.getModel() === m);
    return eds.find((e) => e.hasTextFocus()) || eds[0] || null;
  };
  // apply runs a planned workspace edit (features.PlanWorkspaceEdit) and
  // reports {applied, failureReason?} through applied(n, json). Every file
  // without a model is read first, so a missing one refuses the edit before
  // anything changed; each file's edits are one undo stop; a model made here
  // is left dirty for the page's save, and the page hears of every edited
  // file through onEdit.
  /** @type {Shim.Helpers['apply']} */
  function apply(planJSON, n) {
    /** @type {Shim.Step[]} */
    const steps = JSON.parse(planJSON);
    /** @type {Map<string, Shim.Model>} */
    const made = new Map();
    // The text each made model was made from: the file's before the edit.
    /** @type {Map<string, string>} */
    const madeFrom = new Map();
    const fail = (/** @type {unknown} */ why) => { for (const m of made.values()) if (!m.isDisposed()) m.dispose(); applied(n, q({ applied: false, failureReason: String(why) })); };
    // A file a create or rename of this plan brings about is read when its
    // edit comes, after the operation; the others before anything changes.
    const later = new Set(steps.filter((s) => s.op === 'create' || s.op === 'rename').map((s) => s.newModel || s.model));
    const need = [...new Set(steps.filter((s) => s.op === 'edit' && !later.has(s.model) && !monaco.editor.getModel(monaco.Uri.parse(s.model))).map((s) => s.model))];
    // Every read settles before a refusal, so none makes a model after
    // fail ran; a model the page opened meanwhile is the page's.
    Promise.allSettled(need.map((uri) => {
      const s = /** @type {Shim.Step} */ (steps.find((x) => x.model === uri)); // need comes from steps
      if (typeof readFile !== 'function') throw new Error('no readFile for ' + s.path);
      return Promise.resolve(readFile(s.sessionId, s.path)).then((text) => {
        if (typeof text !== 'string') throw new Error('cannot read ' + s.path);
        const u = monaco.Uri.parse(uri);
        if (!monaco.editor.getModel(u)) {
          made.set(uri, monaco.editor.createModel(text, undefined, u));
          madeFrom.set(uri, text);
        }
      });
    })).then(async (reads) => {
      for (const r of reads) if (r.status === 'rejected') throw r.reason;
      /** @type {Map<Shim.Model, {s: Shim.Step, before: number}>} */
      const touched = new Map();
      for (const s of steps) {
        if (s.op !== 'edit') {
          // The callback's arguments follow s.op, which tsc cannot tie: any.
          const f = /** @type {any} */ (page)[s.op + 'File'];
          const ok = await (s.op === 'rename' ? f(s.sessionId, s.path, s.newPath, s.options || {}) : f(s.sessionId, s.path, s.options || {}));
          if (ok === false) throw new Error(s.op + ' ' + s.path + ' failed');
          continue;
        }
        const u = monaco.Uri.parse(s.model);
        let m = monaco.editor.getModel(u);
        if (!m && later.has(s.model)) {
          const text = typeof readFile === 'function' ? await readFile(s.sessionId, s.path) : '';
          made.set(s.model, m = monaco.editor.createModel(typeof text === 'string' ? text : '', undefined, u));
          madeFrom.set(s.model, typeof text === 'string' ? text : '');
        }
        if (!m) throw new Error('no model for ' + s.path);
        if (!touched.has(m)) { touched.set(m, { s, before: m.getVersionId() }); m.pushStackElement(); }
        const ed = s.edits.some((e) => e.snippet !== undefined) ? editorOf(m) : null;
        if (ed) {
          // A snippet edit in a file an editor shows runs there as a snippet
          // session, the step's other edits as escaped snippet text beside it.
          /** @type {any} */ (ed.getContribution('snippetController2')).insert(s.edits.map((e) => ({
            range: monaco.Range.lift(e.range),
            template: e.snippet !== undefined ? e.snippet : e.text.replace(/[$}\\]/g, '\\$&'),
            keepWhitespace: true,
          })), { undoStopBefore: false, undoStopAfter: false });
          continue;
        }
        m.pushEditOperations([], s.edits.map((e) => ({ range: e.range, text: e.text })), () => null);
      }
      for (const [m, t] of touched) {
        m.pushStackElement();
        if (typeof page.onEdit === 'function') {
          const created = made.get(t.s.model) === m;
          const file = { sessionId: t.s.sessionId, path: t.s.path, model: m, created, versionBefore: t.before };
          try { page.onEdit(created ? { ...file, textBefore: madeFrom.get(t.s.model) } : file); } catch (e) { console.error(e); }
        }
      }
      applied(n, '{"applied":true}');
    }).catch(fail);
  }
  // markers sets a model's markers from one JSON string, with Uris where
  // Monaco wants them (related information, code links). Each text is
  // parsed once: a server's markers mostly share a few (gopls gives each of
  // 2,000 errors the same documentation link, and parsing it 2,000 times
  // took about as long as the JSON itself); Uris are immutable, so markers
  // may share one.
  /** @type {Shim.Helpers['markers']} */
  function markers(model, owner, json) {
    const ms = JSON.parse(json);
    /** @type {Map<string, import('monaco-editor').Uri>} */
    const uris = new Map();
    const uri = (/** @type {string} */ s) => {
      let u = uris.get(s);
      if (!u) uris.set(s, u = monaco.Uri.parse(s));
      return u;
    };
    for (const m of ms) {
      if (m.relatedInformation) for (const r of m.relatedInformation) r.resource = uri(r.resource);
      if (m.code && typeof m.code === 'object') m.code.target = uri(m.code.target);
    }
    monaco.editor.setModelMarkers(model, owner, ms);
  }
  // willSave and outline are the page's own calls (lsp.willSave,
  // lsp.outline), answered by whichever connection serves the model.
  /** @type {Shim.Helpers['willSave']} */
  function willSave(model, on) {
    if (!on || !model || !model.getOptions) return Promise.resolve({ formatted: false });
    const o = model.getOptions();
    return ask('', 'formatOnSave', doc(model) + opts(o) + '}').then((r) => r || { formatted: false }, () => ({ formatted: false }));
  }
  /** @type {Shim.Helpers['outline']} */
  function outline(model) {
    return ask('', 'documentSymbol', doc(model) + '}');
  }
  /** @type {Shim.Helpers['hookChange']} */
  function hookChange(model, fn) {
    return model.onDidChangeContent((e) => fn(JSON.stringify({
      versionId: e.versionId, isFlush: e.isFlush, isEolChange: e.isEolChange, changes: e.changes,
    })));
  }
  /** @type {Shim.Helpers['opener']} */
  function opener(tabs, open) {
    return monaco.editor.registerEditorOpener({
      openCodeEditor(source, resource, selection) {
        const m = source && source.getModel && source.getModel();
        const src = m ? m.uri.toString() : '';
        /** @type {Shim.OpenTab[]} */
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
  /** @type {Shim.Helpers['claim']} */
  const claim = (model) => { claimed.add(model); };
  // close: the configuration ends; the code action, lens and inline
  // completion commands go too.
  const close = () => {
    if (cmd) { cmd.dispose(); cmd = null; }
    if (lensCmd) { lensCmd.dispose(); lensCmd = null; }
    if (inlineCmd) { inlineCmd.dispose(); inlineCmd = null; }
  };
  return { register, end, refresh, apply, markers, willSave, outline, hookChange, opener, claim, close, content, setContent };
}))
