import { demoTest, expect, openDemo, openFile, putSettings, lspMarkers } from './fixtures';
import { hover, hoverUntil, waitReady } from './editor';
import type { Page } from '@playwright/test';

// TypeScript 7's native server (tsgo, @typescript/native-preview) standing in
// for typescript-language-server: e2e/servers/tsgo holds a wrapper of that
// name, first on the agent's PATH. tsgo reports errors only through pull
// diagnostics (textDocument/diagnostic), never publishDiagnostics.
const test = demoTest({ npmServers: true, path: ['e2e/servers/tsgo'], sample: 'e2e/workspaces/tsgo' });

const typeError = "Type 'string' is not assignable to type 'number'.";

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_server_configs: {} });
  await openDemo(page);
});

/** typeOver selects the first match of text in the editor on screen and
 * types replacement over it, as a user does. */
async function typeOver(page: Page, text: string, replacement: string) {
  await page.evaluate((text) => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches(text, false, false, true, null, false)[0];
    if (!m) throw new Error(`no ${text} in the model`);
    editor.setSelection(m.range);
    editor.focus();
  }, text);
  await page.keyboard.type(replacement);
}

test('tsgo: the status reaches Ready and a type error is a marker on open', async ({ page, demo }) => {
  await openFile(page, 'answer.ts');
  await waitReady(page);
  // The agent ran the wrapper, so the server is tsgo.
  expect(demo.logs.join('')).toContain('e2e/servers/tsgo/typescript-language-server');
  await expect.poll(() => lspMarkers(page, 'kandev://demo/answer.ts')).toEqual([typeError]);
  await expect(page.locator('.monaco-editor .squiggly-error')).toHaveCount(1);
});

test('tsgo: fixing the line takes the marker away', async ({ page }) => {
  await openFile(page, 'answer.ts');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/answer.ts')).toEqual([typeError]);
  await typeOver(page, '"forty-two"', '42');
  await expect.poll(() => lspMarkers(page, 'kandev://demo/answer.ts')).toEqual([]);
  await expect(page.locator('.monaco-editor .squiggly-error')).toHaveCount(0);
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
});

test('tsgo: changing a.ts breaks the call in the open b.ts without touching it', async ({ page }) => {
  const a = 'kandev://demo/a.ts', b = 'kandev://demo/b.ts';
  await openFile(page, 'b.ts');
  await waitReady(page);
  await openFile(page, 'a.ts');
  await waitReady(page);
  // Both are clean to begin with: the call matches the signature.
  await expect.poll(async () => [await lspMarkers(page, a), await lspMarkers(page, b)]).toEqual([[], []]);
  // Another parameter: a.ts stays free of errors (tsgo hints that the new
  // parameter is unused), b.ts's twice(2) is one short.
  await typeOver(page, 'n: number)', 'n: number, times: number)');
  await expect.poll(() => lspMarkers(page, b)).toEqual(['Expected 2 arguments, but got 1.']);
  await expect.poll(() => lspMarkers(page, a)).toEqual(["'times' is declared but its value is never read."]);
  expect(await lspMarkers(page, a, { errorsOnly: true })).toEqual([]);
  // b.ts was never edited, and a.ts is still the file on screen.
  await expect(page.locator('#current-file')).toHaveText('a.ts');
  // Undoing the change clears it again.
  await typeOver(page, 'n: number, times: number)', 'n: number)');
  await expect.poll(() => lspMarkers(page, b)).toEqual([]);
});

test('tsgo: hover shows the signature and its documentation', async ({ page }) => {
  await openFile(page, 'b.ts');
  await waitReady(page);
  await hoverUntil(page, 'twice(2)', 'function twice(n: number): number');
  await expect(hover(page)).toContainText('Returns n doubled.');
});

test('tsgo: a reference code lens renders and shows its references', async ({ page }) => {
  // tsgo draws reference lenses only when its configuration asks for
  // them: the section it reads through workspace/configuration.
  await putSettings(page, {
    lsp_auto_start_languages: ['typescript'],
    lsp_server_configs: { typescript: { typescript: { referencesCodeLens: { enabled: true } } } },
  });
  await page.reload();
  await openDemo(page);
  await openFile(page, 'b.ts');
  await waitReady(page);
  await openFile(page, 'a.ts');
  await waitReady(page);
  // The lens over twice counts the call in b.ts (codeLens/resolve fills
  // in the title).
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /1 reference/ });
  await expect(lens).toBeVisible({ timeout: 60_000 });
  // Its command is VS Code's editor.action.showReferences, which lsp.wasm
  // maps to Monaco's own: the references peek lists b.ts.
  await lens.click();
  const peek = page.locator('.monaco-editor .zone-widget .peekview-widget, .monaco-editor .reference-zone-widget');
  await expect(peek.first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.reference-zone-widget').getByRole('treeitem', { name: /twice\(2\).* in b\.ts on line 3/ })).toBeVisible();
});
