import { test, expect, modelMarkers, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorAt, cursorLine, hover, hoverUntil, newLineAfter, semanticSpans, suggestRows, waitReady } from './editor';

// Real typescript-language-server (with typescript), found on the agent's
// PATH (e2e/node_modules/.bin), and Monaco's own TypeScript worker beside it.

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: {} });
  await openDemo(page);
});

/** suppressed asks the TypeScript built-in wrapper about one model. */
function suppressed(page: any, uri: string, feature: string) {
  return page.evaluate(({ uri, feature }: { uri: string; feature: string }) => {
    const { monaco } = (window as any).demo;
    const ctl = monaco.languages[Symbol.for('kandev.lsp.wrapped')];
    return ctl.isSuppressed(monaco.editor.getModel(monaco.Uri.parse(uri)), feature);
  }, { uri, feature });
}

test('TypeScript: completion after a dot and by hand, hover, definition, signature help, semantic tokens', async ({ page }) => {
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  // tsserver answers `any` until it has loaded the project.
  await hoverUntil(page, 'greeter =', 'const greeter: Greeter');
  await page.keyboard.press('Escape');

  await newLineAfter(page, 'console.log');
  await page.keyboard.type('greeter.');
  await expect(suggestRows(page).filter({ hasText: 'greet' }).first()).toBeVisible();
  await expect(suggestRows(page).filter({ hasText: 'greet' }).locator('.codicon-symbol-method')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await page.keyboard.type('gre');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'greet' }).first()).toBeVisible();
  await page.keyboard.press('Escape');

  // Signature help on a call.
  for (let i = 0; i < 'gre'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('greet');
  await page.keyboard.press('Escape');
  await page.keyboard.type('(');
  const hints = page.locator('.editor-widget.parameter-hints-widget.visible');
  await expect(hints).toContainText('greet(name: string): string');

  // Hover: the LSP answers, and Monaco's built-in TypeScript hover yields on
  // this model, so the text shows once.
  await cursorAt(page, "greet('Kandev')", 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('greet(name: string, punctuation?: string): string');
  await expect(hover(page)).toContainText('Returns a friendly greeting for name.');
  const text = await hover(page).innerText();
  expect(text.split('greet(name: string, punctuation?').length - 1).toBe(1);
  expect(await suppressed(page, 'kandev://demo/ts/main.ts', 'hover')).toBe(true);

  // Semantic tokens from the server: the Greeter class.
  await expect.poll(() => semanticSpans(page, '#7a3e9d')).toContain('Greeter');

  // Definition into the other file.
  await page.keyboard.press('Escape');
  await cursorAt(page, "greet('Kandev')", 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#current-file')).toHaveText('ts/greet.ts');
  await expect(page.locator('#files button.folder[data-dir="ts"]')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#files button.file[data-path="ts/greet.ts"]')).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/ts/greet.ts');
  await expect.poll(() => cursorLine(page)).toBe(2);
});

test('TypeScript built-ins stay for a session without LSP, and yield only on the LSP-owned model', async ({ page }) => {
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  // The LSP session's model: built-ins suppressed for what the server advertises.
  expect(await suppressed(page, 'kandev://demo/ts/main.ts', 'hover')).toBe(true);
  expect(await suppressed(page, 'kandev://demo/ts/main.ts', 'completion')).toBe(true);

  // The second session has no language server: Monaco's own TypeScript
  // hover answers on its model of the same file.
  await page.locator('#session').selectOption('demo2');
  await openFile(page, 'ts/main.ts');
  await expect.poll(() => activeModel(page)).toBe('kandev://demo2/ts/main.ts');
  expect(await suppressed(page, 'kandev://demo2/ts/main.ts', 'hover')).toBe(false);
  await cursorAt(page, 'message:', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('const message: string');
  // And the LSP model keeps its suppression.
  expect(await suppressed(page, 'kandev://demo/ts/main.ts', 'hover')).toBe(true);

  // Monaco's worker checks a file alone: its "Cannot find module
  // './greet'" stands on the model without LSP, never on the LSP one
  // (checked first), where the server's diagnostics stand.
  await expect.poll(() => modelMarkers(page, 'kandev://demo2/ts/main.ts'))
    .toEqual(expect.arrayContaining([expect.stringContaining("Cannot find module './greet'")]));
  expect(await modelMarkers(page, 'kandev://demo/ts/main.ts')).toEqual([]);
});
