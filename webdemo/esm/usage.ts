// Every member of @kandev/lsp used as an integrator would, type-checked in
// CI (tsc --noEmit, from webdemo). It is never run: what it proves is that
// the declarations accept correct use and refuse wrong use (@ts-expect-error
// lines fail the check if the wrong use is ever accepted).
import * as monaco from 'monaco-editor';
import {
  loadKandevLSP, KandevLSPLoadError,
  type KandevLSP, type StatusView, type Surface, type ServerMessage, type NavigationTarget, type DocumentHandle, type Settings,
} from '@kandev/lsp';

export async function integrate(sessionId: string, openTab: (t: NavigationTarget) => boolean) {
  let lsp: KandevLSP;
  try {
    lsp = await loadKandevLSP({ url: new URL('/static/lsp.3f2a1b9c0d4e.wasm', location.href), init: { credentials: 'same-origin' } });
  } catch (err) {
    if (err instanceof KandevLSPLoadError) console.error(err.stage, err.url, err.message);
    throw err;
  }
  const again: KandevLSP = await loadKandevLSP();
  const version: string = again.version;

  const settings: Settings = await (await fetch('/api/v1/user/settings')).json();
  // Configure before any TypeScript model exists, so the built-ins can yield.
  const ok: boolean = lsp.configure({
    monaco,
    relayURL: `wss://${location.host}/lsp`,
    locale: navigator.language,
    settings,
    openFile: (target) => openTab(target),
    openTabs: () => [{ id: 'tab-1', path: 'main.go' }, { id: 'tab-2', path: 'x.go', repo: 'svc' }],
    openExternal: (uri, { takeFocus }) => { window.open(uri, '_blank', 'noopener'); return takeFocus || true; },
    readFile: async (session, path) => (await fetch(`/files/${session}/${path}`)).text(),
  });
  lsp.configure({ monaco, relayURL: 'ws://localhost/lsp', settings: '{"lsp_auto_start_languages":["go"]}' });
  lsp.configure({ monaco, relayURL: 'ws://localhost/lsp', settings: null, readFile: () => null });
  // Workspace edits: the page saves what they change and owns file operations.
  lsp.configure({
    monaco, relayURL: 'ws://localhost/lsp', formatOnSave: true,
    onEdit: (file) => { if (file.created) console.log(file.sessionId, file.path, file.versionBefore, file.model.getVersionId()); },
    createFile: async (session, path, options) => !options.ignoreIfExists || session !== path,
    renameFile: (session, from, to) => from !== to,
    deleteFile: () => {},
  });
  // @ts-expect-error formatOnSave is a boolean
  lsp.configure({ monaco, relayURL: 'ws://localhost/lsp', formatOnSave: 'yes' });
  // @ts-expect-error relayURL is required
  lsp.configure({ monaco });
  // @ts-expect-error monaco must be the Monaco namespace
  lsp.configure({ monaco: {}, relayURL: 'ws://localhost/lsp' });

  lsp.setSettings(settings);
  lsp.setSettings({ lsp_auto_start_languages: ['go', 'python'], lsp_server_configs: { go: { gopls: { semanticTokens: true } } } });
  // @ts-expect-error not a language
  lsp.setSettings({ lsp_auto_start_languages: ['cobol'] });
  const locale: string = lsp.setLocale('de');

  // Session-scoped model URIs: kandev://<session>/<path>.
  const model = monaco.editor.createModel('package main\n', undefined,
    monaco.Uri.from({ scheme: 'kandev', authority: sessionId, path: '/main.go' }));
  const doc: DocumentHandle | null = lsp.openDocument({ sessionId, path: 'main.go', model });
  if (doc) {
    const language: 'go' | 'typescript' | 'python' | 'rust' | 'kotlin' = doc.language;
    console.log(doc.sessionId, doc.path, language);
  }
  // @ts-expect-error model must be an ITextModel
  lsp.openDocument({ sessionId, path: 'main.go', model: 'kandev://s/main.go' });

  const off: () => void = lsp.onStatus((view: StatusView) => {
    const label: string = view.label;
    const pct: number | null = view.progress ? view.progress.percentage : null;
    if (view.action) lsp[view.action](view.sessionId, view.language);
    console.log(label, pct, view.state, view.details.join('\n'), view.actionLabel, view.closeCode, view.message,
      view.initializing?.long, view.finished?.title, view.experimental, view.documents, view.summary);
  });
  off();
  const offMessages = lsp.onMessage((m: ServerMessage) => {
    if (m.id !== null) lsp.respond(m.id, m.actions[0] ?? null);
    console.log(m.type, m.title, m.dismissLabel, m.message, m.sessionId, m.language);
  });
  offMessages();
  // Files changed on the task host: a reloaded model is saved again; a dirty
  // one keeps its text until the user picks Reload.
  const offDisk = lsp.onDiskChange((c) => {
    if (c.dirty && c.change === 'changed') doc?.reload();
    console.log(c.sessionId, c.path, c.model, c.reloaded, c.versionId);
  });
  offDisk();
  // Any workspace path created or deleted there: a Files tree lists again.
  const offFiles = lsp.onWorkspaceFiles(({ sessionId: s, changes }) => {
    for (const c of changes) console.log(s, c.path, c.change === 'created' || c.change === 'deleted');
  });
  offFiles();
  // Every file's diagnostics of the session, open or not: a Problems panel.
  const offProblems = lsp.onProblems(({ sessionId: s }) => {
    for (const f of lsp.problems(s)) {
      for (const m of f.markers) console.log(f.path, f.model, f.language, m.startLineNumber, m.severity, m.message);
    }
  });
  offProblems();
  // A file tree's rename: the servers' edits first, then the move, then the news.
  void (async () => {
    const moves = [{ oldPath: 'greet/greet.go', newPath: 'greet/hello.go' }, { oldPath: 'web', newPath: 'site', folder: true }];
    const r = await lsp.willRenameFiles('demo', moves);
    console.log(r.applied, r.failed.join('; '));
    await lsp.didRenameFiles('demo', moves);
    await lsp.willCreateFiles('demo', ['notes.md', { path: 'docs', folder: true }]);
    await lsp.didDeleteFiles('demo', ['old.go']);
  })();
  // Workspace symbols and call hierarchies, for the page's own UI.
  void (async () => {
    const syms = await lsp.workspaceSymbols(model, 'Greet');
    const picked = syms[0] && !syms[0].range ? await lsp.resolveWorkspaceSymbol(syms[0]) : syms[0];
    console.log(picked?.name, picked?.containerName, picked?.model, picked?.range?.startLineNumber);
    const [item] = await lsp.callHierarchy(model, { lineNumber: 1, column: 1 });
    if (item) {
      for (const c of await lsp.incomingCalls(item)) console.log(c.from.name, c.fromRanges.length, c.from.selectionRange);
      for (const c of await lsp.outgoingCalls(item)) console.log(c.to.name, c.to.kind, c.to.detail, c.to.tags);
    }
    const [type] = await lsp.typeHierarchy(model.uri.toString(), { lineNumber: 1, column: 1 });
    if (type) console.log((await lsp.supertypes(type)).length, (await lsp.subtypes(type)).length);
  })();
  lsp.openDocument({ sessionId, path: 'main.go', model, persistedVersion: model.getVersionId() });

  const view = lsp.view(sessionId, 'go');
  const seen = lsp.status(sessionId, 'typescript');
  // @ts-expect-error not a language
  lsp.view(sessionId, 'cobol');
  lsp.start(sessionId, 'go');
  lsp.stop(sessionId, 'go');
  lsp.retry(sessionId, 'python');

  const editor = monaco.editor.create(document.createElement('div'), { model });
  const where: Surface | null = lsp.surface({
    model: editor.getModel(), coarse: matchMedia('(pointer: coarse)').matches, phone: false, statusBar: true,
  });
  if (where?.pair && where.location !== 'none') lsp.view(where.pair.sessionId, where.pair.language);
  lsp.surface({ model: null });

  const title: string = lsp.text('settings.title');
  lsp.text('page.cursor', { line: 1, column: 2 });

  const { formatted }: { formatted: boolean } = await lsp.willSave(model);
  const symbols = await lsp.outline(model);
  const names: string[] = (symbols ?? []).map((s) => s.name);
  const persisted = model.getVersionId();
  const result = lsp.saved({ model, ok: true, persistedVersion: persisted, liveVersion: model.getVersionId(), text: model.getValue() });
  const dirty: boolean | undefined = result?.dirty;
  // @ts-expect-error liveVersion is required
  lsp.saved({ model, ok: true, persistedVersion: persisted });

  doc?.close();
  const disposed: true = lsp.dispose();
  return { version, ok, locale, view, seen, title, dirty, disposed, formatted, names };
}
