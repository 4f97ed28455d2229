import { demoTest, expect, openDemo, openFile, putSettings, lspMarkers } from './fixtures';
import { action, cursorAt, waitReady } from './editor';
import type { Page } from '@playwright/test';

// The VS Code CSS and HTML servers (vscode-langservers-extracted, from the
// catalog, found on the agent's PATH): what no server of the other specs
// offers — document colors with their presentations, linked editing of a
// tag pair — and their pull diagnostics.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/web' });

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['css', 'html'], lsp_server_configs: {} });
  await openDemo(page);
});

test('CSS: a color swatch from the server, its picker offers the server\'s presentations', async ({ page }) => {
  await openFile(page, 'style.css');
  await waitReady(page);
  // The unknown property is the server's pulled diagnostic.
  await expect.poll(() => lspMarkers(page, 'kandev://demo/style.css'), { timeout: 60_000 }).toEqual(["Unknown property: 'colr'"]);
  // textDocument/documentColor: the swatch before #ff0000.
  const swatch = page.locator('.monaco-editor .colorpicker-color-decoration');
  await expect(swatch.first()).toBeVisible({ timeout: 30_000 });
  await swatch.first().click();
  // textDocument/colorPresentation: the picker's header is the server's
  // first presentation of the color; a click on it moves to the next one.
  const header = page.locator('.colorpicker-widget .colorpicker-header .picked-color');
  await expect(header).toBeVisible();
  const first = (await header.textContent())!.trim();
  expect(['rgb(255, 0, 0)', '#ff0000', 'hsl(0, 100%, 50%)']).toContain(first);
  await header.click();
  await expect(header).not.toHaveText(first);
  expect(['rgb(255, 0, 0)', '#ff0000', 'hsl(0, 100%, 50%)', 'hwb(0 0% 0%)']).toContain((await header.textContent())!.trim());
});

test('HTML: renaming an opening tag renames the closing one', async ({ page }) => {
  await openFile(page, 'index.html');
  await waitReady(page);
  // Linked editing is an editor option (off by default, as in VS Code).
  await page.evaluate(() => (window as any).demo.editor.updateOptions({ linkedEditing: true }));
  await cursorAt(page, 'div class', 3);
  // textDocument/linkedEditingRange: both tag names are linked around the
  // cursor; what is typed goes to both.
  await expect.poll(async () => {
    await action(page, 'editor.action.linkedEditing');
    return page.locator('.monaco-editor .linked-editing-decoration').count();
  }, { timeout: 30_000 }).toBe(2);
  await page.keyboard.type('ision');
  await expect.poll(() => page.evaluate(() => (window as any).demo.editor.getModel().getLineContent(4).trim()))
    .toBe('<division class="banner">Hello</division>');
});
