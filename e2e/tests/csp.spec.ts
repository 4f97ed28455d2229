import { test, expect, putSettings } from './fixtures';
import type { Page } from '@playwright/test';

// What a page's Content Security Policy must allow for lsp.wasm
// (docs/integrating.md): 'unsafe-eval' in script-src, since lsp.wasm
// evaluates its JavaScript helpers with Function (it also lets the page
// compile WebAssembly), and in connect-src lsp.wasm's URL and the relay's
// (here both the page's own origin: 'self' covers its ws: too). The rest is
// what Monaco needs of its own, and a nonce for the test page's inline
// scripts.
const monacoNeeds = ["default-src 'self'", "style-src 'self' 'unsafe-inline'", "worker-src 'self' blob:", "img-src 'self' data:", "font-src 'self' data:"];
const policy = (scriptSrc: string) => [...monacoNeeds, `script-src 'self' 'nonce-e2e' ${scriptSrc}`, "connect-src 'self'"].join('; ');

// underPolicy opens a document of the demo server and writes into it a page
// whose policy is set by a <meta> element: the document keeps the
// server's origin and address space (a routed response with the header
// would have none, and its socket to 127.0.0.1 would be refused).
async function underPolicy(page: Page, scriptSrc: string, body: string) {
  await page.goto('/config.json');
  await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="${policy(scriptSrc)}">
<script nonce="e2e">window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));</script>
</head><body><div id="editor" style="height: 400px"></div>${body}</body></html>`);
}

// /config.json names no icon: Chromium asks for /favicon.ico, which the
// demo does not serve.
const favicon = { pattern: /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/favicon\.ico:0\)$/, why: 'the test first opens /config.json, for which Chromium asks a favicon the demo does not serve' };
test.use({ expectedPageErrors: [favicon] });

test('under a Content Security Policy with what the docs name, a Go type error still becomes a marker', async ({ page }) => {
  await page.goto('/');
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await underPolicy(page, "'unsafe-eval'", `
<link rel="stylesheet" data-name="vs/editor/editor.main" href="/monaco/vs/editor/editor.main.css">
<script src="/wasm/wasm_exec.js"></script>
<script src="/monaco/vs/loader.js"></script>
<script type="module" nonce="e2e">
const config = await (await fetch('/config.json')).json();
const go = new Go();
go.run((await WebAssembly.instantiateStreaming(fetch(config.wasm), go.importObject)).instance);
const monaco = await new Promise((resolve, reject) => {
  window.require.config({ paths: { vs: '/monaco/vs' } });
  window.require(['vs/editor/editor.main'], () => resolve(window.monaco), reject);
});
const lsp = globalThis.kandevLSP;
const settings = await (await fetch('/api/v1/user/settings')).json();
lsp.configure({ monaco, relayURL: 'ws://' + location.host + '/lsp', locale: 'en', settings });
const text = await (await fetch('/api/v1/workspace/file?path=main.go')).text();
const model = monaco.editor.createModel(text, undefined, monaco.Uri.from({ scheme: 'kandev', authority: 'demo', path: '/main.go' }));
lsp.openDocument({ sessionId: 'demo', path: 'main.go', model });
monaco.editor.create(document.getElementById('editor'), { model });
window.policed = { monaco, model };
</script>`);
  await expect.poll(() => page.evaluate(() => {
    const p = (window as any).policed;
    return p ? p.monaco.editor.getModelMarkers({ resource: p.model.uri }).map((m: any) => m.message).join('\n') : '';
  }), { timeout: 60_000 }).toContain('cannot use "three"');
  expect(await page.evaluate(() => (window as any).cspViolations)).toEqual([]);
});

test.describe(() => {
  test.use({
    // A tuple (value, options): an array of two objects alone would be
    // taken for one.
    expectedPageErrors: [[
      favicon,
      { pattern: /^kandevLSP: lsp\.wasm could not start: .*'unsafe-eval'/, why: 'lsp.wasm says why it cannot start; the test checks the loader reports it' },
      { pattern: /Content Security Policy/, why: "the browser logs the evaluation the page's policy refused" },
    ], { scope: 'test' }],
  });

  test("without 'unsafe-eval', loadKandevLSP fails at its start step and names the directive", async ({ page }) => {
    await underPolicy(page, "'wasm-unsafe-eval'", '');
    const failure = await page.evaluate(async () => {
      const mod = await import('/kandev-lsp/index.js' as string);
      try {
        await mod.loadKandevLSP();
        return null;
      } catch (err: any) {
        return { stage: err.stage, message: err.message, isError: err instanceof mod.KandevLSPLoadError };
      }
    });
    expect(failure).toMatchObject({ stage: 'start', isError: true });
    expect(failure!.message).toContain('lsp.wasm could not start: ');
    expect(failure!.message).toContain("must allow 'unsafe-eval' in script-src");
    expect(await page.evaluate(() => 'kandevLSP' in globalThis || 'kandevLSPStartError' in globalThis)).toBe(false);
  });
});
