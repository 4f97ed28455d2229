import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorAt, cursorLine, hover, newLineAfter, semanticSpans, suggestRows, waitReady } from './editor';

// Real gopls behind the agent and the relay: the providers lsp.wasm
// registers for what gopls advertises.

test.beforeEach(async ({ page }) => {
  // gopls sends semantic tokens only when asked to (its "semanticTokens"
  // setting), answered through workspace/configuration.
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: { go: { gopls: { semanticTokens: true } } } });
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
});

test('completion after a trigger character and when invoked by hand', async ({ page }) => {
  await newLineAfter(page, 'var count int');
  await page.keyboard.type('greet.');
  await expect(suggestRows(page).filter({ hasText: 'Hello' })).toHaveCount(1);
  // The standard kind becomes Monaco's: Hello is a function.
  await expect(suggestRows(page).filter({ hasText: 'Hello' }).locator('.codicon-symbol-function')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(suggestRows(page)).toHaveCount(0);

  for (let i = 0; i < 'greet.'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('gre');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'greet' }).first()).toBeVisible();
  // Accepting the item replaces the typed word (the word-range fallback or the server's edit).
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => {
    const { editor } = (window as any).demo;
    return editor.getModel().getLineContent(editor.getPosition().lineNumber).trim();
  })).toBe('greet');
});

test('hover shows gopls documentation', async ({ page }) => {
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('func greet.Hello(name string) string');
  await expect(hover(page)).toContainText('Hello returns a friendly greeting for name.');
});

test('go to definition opens the other file through the tree and its tab, once', async ({ page }) => {
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#files button.folder[data-dir="greet"]')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#files button.file[data-path="greet/greet.go"]')).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toHaveAttribute('data-path', 'greet/greet.go');
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/greet/greet.go');
  await expect.poll(() => cursorLine(page)).toBe(5);

  // Back in main.go, the same target activates the open tab: no second one.
  await page.locator('#tabs [role="tab"][data-path="main.go"]').click();
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 1, column: 1 }));
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(2);
});

test('references list every use in the peek widget', async ({ page }) => {
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.referenceSearch.trigger');
  const rows = page.locator('.peekview-widget .ref-tree .monaco-list-row');
  await expect(rows.filter({ hasText: 'greet.go' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'main.go' }).first()).toBeVisible();
  await expect(page.locator('.peekview-widget .peekview-title')).toContainText('References (2)');
  // greet.go is not open: a placeholder model lets Monaco preview it.
  const hasModel = (uri: string) => page.evaluate((u) => {
    const { monaco } = (window as any).demo;
    return !!monaco.editor.getModel(monaco.Uri.parse(u));
  }, uri);
  expect(await hasModel('kandev://demo/greet/greet.go')).toBe(true);
  await rows.filter({ hasText: 'greet.go' }).first().click(); // expands the file's group
  // Its row previews the declaration's line, read from the placeholder.
  await rows.filter({ hasText: 'func Hello(name string)' }).first().click();
  await expect(page.locator('.peekview-widget .preview')).toContainText('Hello returns a friendly greeting');

  // Stopping the server disposes its placeholder, not the page's models.
  await page.evaluate(() => (window as any).demo.lsp.stop('demo', 'go'));
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'off');
  await expect.poll(() => hasModel('kandev://demo/greet/greet.go')).toBe(false);
  expect(await hasModel('kandev://demo/main.go')).toBe(true);
});

test('signature help shows the parameters while typing a call', async ({ page }) => {
  await newLineAfter(page, 'var count int');
  await page.keyboard.type('greet.Hello(');
  const hints = page.locator('.editor-widget.parameter-hints-widget.visible');
  await expect(hints).toContainText('Hello(name string) string');
  await expect(hints.locator('.parameter.active')).toHaveText('name string');
});

test('semantic tokens colour the code with the theme rules', async ({ page }) => {
  // Only semantic-token rules use these colours: function and namespace.
  await expect.poll(() => semanticSpans(page, '#b5179e')).toContain('Hello');
  await expect.poll(() => semanticSpans(page, '#0f7b8a')).toContain('greet');
});
