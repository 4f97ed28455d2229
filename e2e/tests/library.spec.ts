import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorAt, hover, hoverUntil, newLineAfter, waitReady } from './editor';
import type { Page } from '@playwright/test';

// Definitions outside the workspace — the Go toolchain's sources, the
// TypeScript server's own lib.dom.d.ts, pyright's bundled typeshed — open
// in read-only tabs, read through the task host's library route; a path
// under no library root stays refused.

test.use({
  expectedPageErrors: [{
    pattern: /^Failed to load resource: the server responded with a status of 403 \(Forbidden\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/library\/file\?path=%2Fetc%2Fpasswd:0\)$/,
    why: 'the browser logs every refused fetch; the refusal of /etc/passwd is what the Go test checks',
  }],
});

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: {} });
  await openDemo(page);
});

/** lineAtCursor is the active model's line under the cursor ('' until the tab has its model). */
const lineAtCursor = (page: Page) => page.evaluate(() => {
  const { editor } = (window as any).demo;
  const model = editor.getModel(); // none while the tab's file still loads
  return model ? model.getLineContent(editor.getPosition().lineNumber) as string : '';
});

const activeTab = (page: Page) => page.locator('#tabs [role="tab"][aria-selected="true"]');


test('Go: fmt.Println opens the toolchain\'s print.go read-only; hover and definition work inside it; other paths stay refused', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  await cursorAt(page, 'Println(', 1);
  await action(page, 'editor.action.revealDefinition');

  await expect(page.locator('#current-file')).toContainText('/src/fmt/print.go (read-only)');
  await expect(activeTab(page)).toHaveAttribute('data-library', 'true');
  await expect(activeTab(page)).toHaveText('fmt/print.go');
  await expect.poll(() => activeModel(page)).toMatch(/^kandev-lib:\/\/demo\/.+\/src\/fmt\/print\.go$/);
  await expect.poll(() => lineAtCursor(page)).toContain('func Println(');

  // Typing changes nothing: Monaco says why instead.
  const before = await page.evaluate(() => (window as any).demo.editor.getModel().getVersionId());
  await page.keyboard.type('x');
  await expect(page.locator('.monaco-editor-overlaymessage')).toContainText('outside the workspace');
  expect(await page.evaluate(() => (window as any).demo.editor.getModel().getVersionId())).toBe(before);
  await expect(page.locator('#save-state')).toHaveText(''); // nothing to save

  // The file is a document on gopls: hover and definition answer in it.
  await hoverUntil(page, 'Fprintln(os.Stdout', 'func Fprintln(w io.Writer');
  await page.keyboard.press('Escape');
  await cursorAt(page, 'Fprintln(os.Stdout', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect.poll(() => lineAtCursor(page)).toContain('func Fprintln(');
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(2); // the same tab
  await expect(page.locator('#tabs [role="tab"][data-library="true"]')).toHaveCount(1);

  // A path under no library root is refused by the task host: no tab.
  expect(await page.evaluate(async () => (await fetch('/api/v1/library/file?path=%2Fetc%2Fpasswd')).status)).toBe(403);
  expect(await page.evaluate(() => (window as any).demo.navigateTo({ sessionId: 'demo', path: '/etc/passwd', library: true }))).toBe(false);
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(2);
  await expect(page.locator('#current-file')).toContainText('/src/fmt/print.go (read-only)');

  // A reload brings the read-only tab back.
  await page.reload();
  await expect(page.locator('#tabs [role="tab"][data-library="true"]')).toHaveText('fmt/print.go');
});

test('TypeScript and Python: console.log and print open the servers\' own libraries read-only', async ({ page }) => {
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  // tsserver answers `any` until it has loaded the project.
  await hoverUntil(page, 'log(message', 'log(');
  await page.keyboard.press('Escape');
  await cursorAt(page, 'log(message', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(activeTab(page)).toHaveAttribute('data-library', 'true');
  await expect(page.locator('#current-file')).toContainText(/node_modules\/.*lib\.dom\.d\.ts \(read-only\)/);
  await expect.poll(() => lineAtCursor(page)).toContain('log(');
  await expect(hover(page)).toHaveCount(0);

  await openFile(page, 'py/app.py');
  await waitReady(page);
  // print has two overloads (Monaco would peek); len has one.
  await newLineAfter(page, 'print(shout');
  await page.keyboard.type('len("kandev")');
  // pyright answers once it has analysed the file.
  await hoverUntil(page, 'len("kandev")', 'def len(');
  await page.keyboard.press('Escape');
  await cursorAt(page, 'len("kandev")', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#current-file')).toContainText(/typeshed.*\/builtins\.pyi \(read-only\)/);
  await expect.poll(() => lineAtCursor(page)).toContain('def len(');
});

test('Go: Ctrl+click on fmt.Println, as a user does it, opens print.go with no error in the page', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  await hoverUntil(page, 'Println(', 'func fmt.Println(');
  await page.keyboard.press('Escape');
  // Where Println is on screen, from Monaco's own layout.
  const at = await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const pos = model.getPositionAt(model.getValue().indexOf('Println(') + 2);
    const p = editor.getScrolledVisiblePosition(pos);
    const box = editor.getDomNode().getBoundingClientRect();
    return { x: box.left + p.left, y: box.top + p.top + p.height / 2 };
  });
  // Ctrl held, the pointer over the name: Monaco underlines the link (its
  // preview reads the target's model, which "Model not found" broke), then
  // the click goes to it.
  await page.mouse.move(at.x - 10, at.y);
  await page.keyboard.down('Control');
  await page.mouse.move(at.x, at.y, { steps: 3 });
  await expect(page.locator('.goto-definition-link')).not.toHaveCount(0);
  await page.mouse.down();
  await page.mouse.up();
  await page.keyboard.up('Control');
  await expect(page.locator('#current-file')).toContainText('/src/fmt/print.go (read-only)');
  await expect.poll(() => lineAtCursor(page)).toContain('func Println(');
});
