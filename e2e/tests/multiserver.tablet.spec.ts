import { demoTest, expect, openDemo, openFile, putSettings } from './fixtures';
import { waitReady } from './editor';

// A tablet (coarse pointer, touch): the drawer lists each server of a
// language with several, every row's action touch-sized and acting on its
// server only. The TypeScript server and ESLint on a workspace with its own
// pinned eslint.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/eslint' });

const tsServer = 'typescript-language-server';

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_language_servers: { typescript: [tsServer, 'eslint'] } });
  await openDemo(page);
});

test('the drawer lists both servers, each with its own touch-sized action', async ({ page }) => {
  await openFile(page, 'unused.js');
  await waitReady(page);
  const control = page.locator('#lsp-status');
  await expect(control).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`, { timeout: 60_000 });
  await control.tap();
  const drawer = page.locator('#lsp-drawer');
  await expect(drawer).toBeVisible();
  const rows = drawer.locator('.lsp-server');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator('.lsp-server-name')).toHaveText(tsServer);
  await expect(rows.nth(1).locator('.lsp-server-name')).toHaveText('eslint');

  const stopESLint = drawer.getByRole('button', { name: 'Stop eslint' });
  expect((await stopESLint.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await stopESLint.tap();
  await expect(rows.nth(1)).toHaveAttribute('data-state', 'off');
  await expect(drawer.getByRole('button', { name: 'Start eslint' })).toBeVisible();
  await expect(rows.nth(0)).toHaveAttribute('data-state', 'ready');
  await expect(control).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Off`);
});
