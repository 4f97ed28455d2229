import { test, expect, openDemo, openFile, putSettings, markerMessages } from './fixtures';
import { action, cursorAt, newLineAfter, suggestRows, waitReady } from './editor';

// The editing features against real servers: quick fixes and source
// actions, rename across files, formatting and format on save, the
// outline, folding, highlights and inlay hints (gopls); auto-import
// completion (typescript-language-server); rename (pyright).

const text = (page) => page.evaluate(() => (window as any).demo.editor.getModel().getValue() as string);
const modelText = (page, uri: string) => page.evaluate((uri) => {
  const { monaco } = (window as any).demo;
  const m = monaco.editor.getModel(monaco.Uri.parse(uri));
  return m ? m.getValue() as string : null;
}, uri);

test.beforeEach(async ({ page }) => {
  await openDemo(page);
  await putSettings(page, {
    lsp_auto_start_languages: ['go', 'typescript', 'python'],
    lsp_server_configs: { go: { gopls: { hints: { parameterNames: true } } } },
  });
  await page.reload();
  await openDemo(page);
});

async function openGo(page, path = 'main.go') {
  await openFile(page, path);
  await waitReady(page);
}

/** addImport adds an import the file does not use; gopls reports it. */
async function addImport(page) {
  await newLineAfter(page, 'import (');
  await page.keyboard.type('\t"os"');
  await expect.poll(() => markerMessages(page)).toContainEqual(expect.stringContaining('"os" imported and not used'));
}

// Not passing yet: gopls offers no "Delete import" quick fix here.
test.fixme('a gopls quick fix removes an unused import and its marker goes', async ({ page }) => {
  await openGo(page);
  await addImport(page);
  await cursorAt(page, '"os"', 1);
  await action(page, 'editor.action.quickFix');
  const item = page.locator('.action-widget .monaco-list-row').filter({ hasText: /Delete import|Remove/ });
  await expect(item.first()).toBeVisible();
  await item.first().click();
  await expect.poll(() => text(page)).not.toContain('"os"');
  await expect.poll(() => markerMessages(page)).not.toContainEqual(expect.stringContaining('"os" imported and not used'));
});

test('organize imports is a source action', async ({ page }) => {
  await openGo(page);
  await addImport(page);
  await action(page, 'editor.action.organizeImports');
  await expect.poll(() => text(page)).not.toContain('"os"');
});

test('renaming greet.Hello changes both files; the other opens dirty', async ({ page }) => {
  await openGo(page);
  await cursorAt(page, 'Hello(', 1);
  await page.keyboard.press('F2');
  const input = page.locator('.rename-box input');
  await expect(input).toBeVisible();
  await expect(input).toHaveValue('Hello');
  await input.fill('Greeting');
  await input.press('Enter');
  await expect.poll(() => text(page)).toContain('greet.Greeting("Kandev")');
  await expect.poll(() => modelText(page, 'kandev://demo/greet/greet.go')).toContain('func Greeting(name string) string');
  // The file lsp.wasm read for the edit is a tab with unsaved changes.
  await expect(page.locator('#tabs [role="tab"][data-path="greet/greet.go"]')).toContainText('●');
  await expect(page.locator('#tabs [role="tab"][data-path="main.go"]')).toContainText('●');
});

test('gopls formats a badly indented file, and format on save writes the formatted text', async ({ page, demo }) => {
  const bad = 'package greet\n\nfunc  Add(a int,b int) int {\nreturn a+b\n}\n';
  const good = 'package greet\n\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n';
  await page.evaluate((bad) => fetch('/api/v1/workspace/file?path=greet%2Ffmt_scratch.go', { method: 'PUT', body: bad }), bad);
  await page.evaluate(() => (window as any).demo.openFile('greet/fmt_scratch.go'));
  await waitReady(page);
  await action(page, 'editor.action.formatDocument');
  await expect.poll(() => text(page)).toBe(good);

  // Undo the formatting, then save: the file on disk is formatted.
  await page.evaluate((bad) => { const m = (window as any).demo.editor.getModel(); m.pushEditOperations([], [{ range: m.getFullModelRange(), text: bad }], () => null); }, bad);
  await expect.poll(() => text(page)).toBe(bad);
  await page.evaluate(() => (window as any).demo.save());
  await expect.poll(() => text(page)).toBe(good);
  await expect.poll(() => page.evaluate(() => fetch('/api/v1/workspace/file?path=greet%2Ffmt_scratch.go').then((r) => r.text()))).toBe(good);
  await expect(page.locator('#save-state')).toHaveAttribute('data-state', 'saved');
});

test('the outline lists the file\'s functions', async ({ page }) => {
  await openGo(page, 'greet/greet.go');
  await expect(page.locator('#outline .outline-symbol').filter({ hasText: 'Hello' })).toHaveCount(1);
  await openGo(page, 'main.go');
  await expect(page.locator('#outline .outline-symbol').filter({ hasText: 'main' })).toHaveCount(1);
});

test('folding ranges and document highlights appear', async ({ page }) => {
  await openGo(page);
  // gopls' folding ranges: the import block and main's body fold.
  await expect.poll(() => page.locator('.margin .codicon-folding-expanded').count()).toBeGreaterThanOrEqual(2);
  await action(page, 'editor.foldAll');
  await expect.poll(() => text(page)).toContain('fmt.Println'); // folding hides, never edits
  await expect(page.locator('.view-lines')).not.toContainText('fmt.Println');
  await action(page, 'editor.unfoldAll');
  // The declaration of count is written, its use read: gopls' kinds.
  await cursorAt(page, 'count int', 1);
  await expect(page.locator('.cdr.wordHighlightStrong')).toHaveCount(1);
  await expect(page.locator('.cdr.wordHighlight')).toHaveCount(1);
});

test('an inlay hint is rendered', async ({ page }) => {
  await openGo(page);
  // gopls' parameterNames hint: greet.Hello(name: "Kandev").
  await expect(page.locator('.view-lines')).toContainText('name:');
});

// Not passing yet: the completion list shows no Greeter item from ./greet.
test.fixme('a TypeScript auto-import completion inserts the import line', async ({ page }) => {
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  // Without its import line, Greeter is offered from ./greet.
  await page.evaluate(() => {
    const m = (window as any).demo.editor.getModel();
    m.pushEditOperations([], [{ range: { startLineNumber: 1, startColumn: 1, endLineNumber: 2, endColumn: 1 }, text: '' }], () => null);
  });
  await newLineAfter(page, 'console.log');
  await page.keyboard.type('new Greete');
  const row = suggestRows(page).filter({ hasText: 'Greeter' }).first();
  await expect(row).toBeVisible();
  await page.keyboard.press('Enter');
  await expect.poll(() => text(page)).toMatch(/import \{ Greeter \} from ["']\.\/greet["']/);
});

test('pyright renames across two files', async ({ page }) => {
  await openFile(page, 'py/app.py');
  await waitReady(page);
  await cursorAt(page, 'shout(', 1);
  await page.keyboard.press('F2');
  const input = page.locator('.rename-box input');
  await expect(input).toBeVisible();
  await input.fill('yell');
  await input.press('Enter');
  await expect.poll(() => text(page)).toContain('from util import yell');
  await expect.poll(() => modelText(page, 'kandev://demo/py/util.py')).toContain('def yell(text: str');
});
