import { demoTest, expect, openDemo, openFile, openSettings, closeSettings, putSettings, serversUnder, markerMessages } from './fixtures';
import { waitReady } from './editor';
import type { Page } from '@playwright/test';

// A change of a language's servers at a full connection cap (the relay's,
// here 2) reaches Ready with no Retry: a server that stays in the list
// keeps its connection and process, and a replacement that dials while the
// ended connection's server still stops (and still holds its place under
// the cap) is refused with 4005 and tried again by itself.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/eslint', maxConnections: 2 });

const tsServer = 'typescript-language-server';
const eslintUnused = "'width' is assigned a value but never used.";
const status = (page: Page) => page.locator('#lsp-status');
const card = (page: Page) => page.locator('#card-typescript');
const tsProcesses = (root: number) => serversUnder(root, (_comm, cmdline) => cmdline.includes('typescript-language-server') && !cmdline.includes('eslint'));

test('adding ESLint to the TypeScript server fills the cap without restarting the TypeScript server', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_auto_install_languages: [], lsp_language_servers: {} });
  await openDemo(page);
  await openFile(page, 'unused.js');
  await waitReady(page);
  await expect.poll(() => tsProcesses(demo.proc.pid!)).toHaveLength(1);
  const [before] = tsProcesses(demo.proc.pid!);

  await openSettings(page);
  // As a user does: the card with the task host's answer, then the choice.
  await expect(page.locator('#installers-host')).toHaveText(/^Task host of session demo: /);
  await card(page).getByLabel('Add a server').selectOption('eslint');
  await card(page).getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.locator('#card-note-typescript')).toHaveText(`Saved: open files of this language now use ${tsServer}, eslint.`);
  await closeSettings(page);

  // Both ready, two streams at a cap of two: the TypeScript server's
  // connection was never ended (a restart would have needed a third place
  // while it stopped).
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`, { timeout: 60_000 });
  await expect.poll(() => markerMessages(page), { timeout: 60_000 }).toContain(eslintUnused);
  expect(tsProcesses(demo.proc.pid!)).toEqual([before]);
});

test('reordering two servers at a full cap ends both connections and reaches Ready on both, with no Retry', async ({ page }) => {
  await putSettings(page, {
    lsp_auto_start_languages: ['typescript'], lsp_auto_install_languages: [],
    lsp_language_servers: { typescript: [tsServer, 'eslint'] },
  });
  await openDemo(page);
  await openFile(page, 'unused.js');
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`, { timeout: 60_000 });

  // Moving ESLint first changes both slots: both connections end, and
  // both new ones dial while the old servers stop.
  await openSettings(page);
  await card(page).getByRole('button', { name: 'Move eslint up' }).click();
  await expect.poll(async () => (await (await page.request.get('/api/v1/user/settings')).json()).lsp_language_servers)
    .toEqual({ typescript: ['eslint', tsServer] });
  await closeSettings(page);
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · eslint Ready · ${tsServer} Ready`, { timeout: 60_000 });
  await expect.poll(() => markerMessages(page), { timeout: 60_000 }).toContain(eslintUnused);
});
