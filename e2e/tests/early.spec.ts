import { test, demoTest, expect, putSettings, writeScript, type Demo } from './fixtures';
import type { Page } from '@playwright/test';

// A page that gives configure a promise of Monaco and prepares its pair:
// gopls starts and initializes on the workspace while Monaco is still
// loading, and once Monaco is there the document joins that connection —
// real diagnostics and completion, one socket.
//
// The page below holds Monaco back until the test releases it, so "ready
// before Monaco" is a fact of the run, not a race.

const pageFor = (language: string, file: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" data-name="vs/editor/editor.main" href="/monaco/vs/editor/editor.main.css">
</head><body><div id="editor" style="height: 400px"></div>
<script src="/wasm/wasm_exec.js"></script>
<script src="/monaco/vs/loader.js"></script>
<script type="module">
const early = { states: [], sockets: 0 };
window.early = early;
const Native = window.WebSocket;
window.WebSocket = class extends Native { constructor(...a) { super(...a); early.sockets++; } };
let release;
const monacoLoaded = new Promise((r) => { release = r; }).then(() => new Promise((resolve, reject) => {
  window.require.config({ paths: { vs: '/monaco/vs' } });
  window.require(['vs/editor/editor.main'], () => resolve(window.monaco), reject);
}));
early.release = () => release();
const config = await (await fetch('/config.json')).json();
const go = new Go();
const { instance } = await WebAssembly.instantiateStreaming(fetch(config.wasm), go.importObject);
go.run(instance);
const lsp = globalThis.kandevLSP;
lsp.onStatus((v) => early.states.push({ state: v.state, documents: v.documents, monaco: typeof window.monaco !== 'undefined' }));
const settings = await (await fetch('/api/v1/user/settings')).json();
early.configured = lsp.configure({ monaco: monacoLoaded, relayURL: 'ws://' + location.host + '/lsp', locale: 'en', settings });
early.prepared = lsp.prepare('demo', '${language}');
early.lsp = lsp;
early.opened = monacoLoaded.then(async (monaco) => {
  const text = await (await fetch('/api/v1/workspace/file?path=${file}')).text();
  const model = monaco.editor.createModel(text, undefined, monaco.Uri.from({ scheme: 'kandev', authority: 'demo', path: '/${file}' }));
  early.doc = lsp.openDocument({ sessionId: 'demo', path: '${file}', model });
  early.editor = monaco.editor.create(document.getElementById('editor'), { model, wordBasedSuggestions: 'off' });
  early.monaco = monaco;
  return !!early.doc;
});
</script></body></html>`;

test.use({
  expectedPageErrors: [{
    pattern: /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/favicon\.ico:0\)$/,
    why: 'the test first opens /config.json to take the demo\'s origin; Chromium asks for a favicon for that JSON document, which names none, and the demo serves none',
  }],
});

test('prepare() with a promise of Monaco: gopls is ready before Monaco, the document joins it', async ({ page: p }) => {
  await p.goto('/');
  await putSettings(p, { lsp_auto_start_languages: ['go'] });
  // A response of the demo server, then the page written into it: the
  // document keeps the server's origin and address space (a routed
  // response would have none, and its socket to 127.0.0.1 is refused).
  await p.goto('/config.json');
  await p.setContent(pageFor('go', 'main.go'));

  await expect.poll(() => p.evaluate(() => (window as any).early?.states.some((s: any) => s.state === 'ready')), { timeout: 60_000 }).toBe(true);
  const before = await p.evaluate(() => {
    const e = (window as any).early;
    return { configured: e.configured, prepared: e.prepared, monaco: typeof (window as any).monaco, ready: e.states.find((s: any) => s.state === 'ready') };
  });
  expect(before).toEqual({ configured: true, prepared: true, monaco: 'undefined', ready: { state: 'ready', documents: 0, monaco: false } });

  await p.evaluate(() => (window as any).early.release());
  expect(await p.evaluate(() => (window as any).early.opened)).toBe(true);

  // gopls's error on main.go, as a marker of lsp.wasm's.
  await expect.poll(() => p.evaluate(() => (window as any).early.monaco.editor.getModelMarkers({})
    .filter((m: any) => m.owner.startsWith('kandev-lsp') && m.severity === 8).map((m: any) => m.message).join('\n')), { timeout: 60_000 })
    .toContain('cannot use "three"');

  // Completion from gopls: a new line in main, `fmt.Spr`, then Ctrl+Space.
  await p.evaluate(() => {
    const { editor } = (window as any).early;
    const model = editor.getModel();
    const m = model.findMatches('fmt.Println', false, false, true, null, false)[0];
    const line = m.range.startLineNumber;
    editor.executeEdits('e2e', [{ range: { startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: 1 }, text: '\tfmt.Spr\n' }]);
    editor.setPosition({ lineNumber: line, column: 9 });
    editor.focus();
  });
  const rows = () => p.evaluate(() => [...document.querySelectorAll('.suggest-widget.visible .monaco-list-row')]
    .map((r) => r.textContent).join('\n'));
  await expect.poll(async () => {
    if (!(await rows()).includes('Sprintf')) {
      await p.keyboard.press('Escape');
      await p.keyboard.press('Control+Space');
    }
    return rows();
  }, { timeout: 30_000, intervals: [1000] }).toContain('Sprintffunc(format string, a ...any) string'); // label, then gopls's detail

  const after = await p.evaluate(() => {
    const e = (window as any).early;
    return { sockets: e.sockets, view: e.lsp.view('demo', 'go') };
  });
  expect(after.sockets).toBe(1);
  expect(after.view.state).toBe('ready');
  expect(after.view.documents).toBe(1);
});

// The same with TypeScript, whose Monaco built-ins lsp.wasm wraps: the
// TypeScript server (the fake, with hover and no completion, standing in
// for typescript-language-server) is ready before Monaco loads; once it
// has, the worker's hover yields to the server's on the document, and its
// completion stays — the wrap covers what the server replaces, nothing else.
// readyBeforeMonaco opens the held page on ts/main.ts with the TypeScript
// server chosen by the demo, waits until that server is ready while Monaco
// is still held back, then lets Monaco load and the document open.
async function readyBeforeMonaco(p: Page, settings: object) {
  await p.goto('/');
  await putSettings(p, { lsp_auto_start_languages: ['typescript'], lsp_server_configs: {}, ...settings });
  await p.goto('/config.json');
  await p.setContent(pageFor('typescript', 'ts/main.ts'));
  await expect.poll(() => p.evaluate(() => (window as any).early?.states.some((s: any) => s.state === 'ready')), { timeout: 90_000 }).toBe(true);
  expect(await p.evaluate(() => typeof (window as any).monaco)).toBe('undefined');
  await p.evaluate(() => (window as any).early.release());
  expect(await p.evaluate(() => (window as any).early.opened)).toBe(true);
}

/** suppressed: the built-in feature of Monaco's TypeScript worker yields on the page's model. */
const suppressed = (p: Page, feature: string) => p.evaluate((feature) => {
  const { monaco, editor } = (window as any).early;
  return monaco.languages[Symbol.for('kandev.lsp.wrapped')].isSuppressed(editor.getModel(), feature) as boolean;
}, feature);

/** hoverOn shows the hover on the first match of word and returns its text once one shows. */
async function hoverOn(p: Page, word: string, expected: string) {
  const show = () => p.evaluate((word) => {
    const { editor } = (window as any).early;
    const m = editor.getModel().findMatches(word, false, false, true, null, false)[0];
    editor.setPosition({ lineNumber: m.range.startLineNumber, column: m.range.startColumn + 1 });
    editor.focus();
    editor.getAction('editor.action.showHover').run();
  }, word);
  const text = () => p.evaluate(() => (document.querySelector('.monaco-hover:not(.hidden)') as HTMLElement | null)?.innerText ?? '');
  await expect.poll(async () => { await show(); return text(); }, { timeout: 30_000, intervals: [500, 1000] }).toContain(expected);
  return text();
}

/** completeAtEnd types text at the end of the model and returns the suggest widget's rows once they hold expected. */
async function completeAtEnd(p: Page, text: string, expected: string) {
  await p.keyboard.press('Escape');
  await p.evaluate((text) => {
    const { editor } = (window as any).early;
    const model = editor.getModel();
    const end = model.getFullModelRange().getEndPosition();
    editor.executeEdits('e2e', [{ range: { startLineNumber: end.lineNumber, startColumn: end.column, endLineNumber: end.lineNumber, endColumn: end.column }, text }]);
    editor.setPosition(model.getFullModelRange().getEndPosition());
    editor.focus();
  }, text);
  const rows = () => p.evaluate(() => [...document.querySelectorAll('.suggest-widget.visible .monaco-list-row')].map((r) => r.getAttribute('aria-label') || r.textContent || ''));
  await expect.poll(async () => {
    if (!(await rows()).length) await p.evaluate(() => (window as any).early.editor.getAction('editor.action.triggerSuggest').run());
    return (await rows()).join('\n');
  }, { timeout: 30_000, intervals: [500, 1000] }).toContain(expected);
  return rows();
}

const fakeTS = demoTest({ path: ['e2e/servers/fakets'] });
fakeTS.use({
  expectedPageErrors: [{
    pattern: /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/favicon\.ico:0\)$/,
    why: 'as above: the favicon of the /config.json document',
  }],
});

fakeTS('prepare() with a promise of Monaco: the TypeScript server is ready before Monaco; the built-ins it replaces yield, the others stay', async ({ page: p, demo }: { page: Page, demo: Demo }) => {
  writeScript(demo, { capabilities: { textDocumentSync: { openClose: true, change: 2 }, hoverProvider: true }, hover: 'hover from the server' });
  await readyBeforeMonaco(p, {});

  await expect.poll(() => suppressed(p, 'hover')).toBe(true);
  expect(await suppressed(p, 'completion')).toBe(false);
  expect(await suppressed(p, 'definition')).toBe(false);

  // The hover shown is the server's alone; completion is the worker's.
  expect(await hoverOn(p, 'message,', 'hover from the server')).not.toContain('const message: string');
  await completeAtEnd(p, '\nmessage.toUpp', 'toUpperCase');
  expect(await p.evaluate(() => (window as any).early.sockets)).toBe(1);
});

// The same with the real typescript-language-server, which offers every
// feature Monaco's TypeScript worker has: each built-in yields to it, so
// a hover or a completion row shows once, the server's, never the
// worker's beside it.
test('prepare() with a promise of Monaco: the real TypeScript server is ready before Monaco; every built-in it replaces yields', async ({ page: p }) => {
  await readyBeforeMonaco(p, { lsp_language_servers: {} });
  for (const feature of ['hover', 'completion', 'definition', 'references', 'rename', 'signatureHelp', 'documentSymbol']) {
    await expect.poll(() => suppressed(p, feature), { message: feature }).toBe(true);
  }
  // One hover, the server's: its type once, not again from the worker.
  expect((await hoverOn(p, 'message', 'const message: string')).split('const message: string').length - 1).toBe(1);
  // One completion row per name, the server's.
  const rows = await completeAtEnd(p, '\nmessage.toUpp', 'toUpperCase');
  expect(rows.filter((r) => /^toUpperCase\b/.test(r)).length).toBe(1);
  expect(await p.evaluate(() => (window as any).early.sockets)).toBe(1);
});
