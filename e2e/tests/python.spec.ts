import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, cursorAt, cursorLine, hover, hoverUntil, newLineAfter, suggestRows, waitReady } from './editor';

// Real pyright (pyright-langserver), found on the agent's PATH
// (e2e/node_modules/.bin).

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: {} });
  await openDemo(page);
});

test('Python: completion, hover and definition from pyright', async ({ page }) => {
  await openFile(page, 'py/app.py');
  await waitReady(page);

  await hoverUntil(page, 'shout("kandev"', 'def shout(');
  await expect(hover(page)).toContainText('Return text in capitals, repeated times.');
  await page.keyboard.press('Escape');

  await newLineAfter(page, 'print(');
  await page.keyboard.type('"x".');
  await expect(suggestRows(page).filter({ hasText: 'capitalize' }).first()).toBeVisible();
  await page.keyboard.type('upp');
  await expect(suggestRows(page).filter({ hasText: 'upper' }).first()).toBeVisible();
  await page.keyboard.press('Escape');

  await cursorAt(page, 'shout("kandev"', 1);
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#current-file')).toHaveText('py/util.py');
  await expect(page.locator('#files button.file[data-path="py/util.py"]')).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => cursorLine(page)).toBe(4);
});
