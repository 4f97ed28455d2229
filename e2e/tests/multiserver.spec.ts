import { demoTest, expect, openDemo, openFile, openSettings, closeSettings, putSettings, markerMessages } from './fixtures';
import { waitReady } from './editor';
import type { Page } from '@playwright/test';

// Several servers on one language, through the page: ESLint added after the
// TypeScript server in Settings, both running on a JavaScript file of a
// workspace with its own pinned eslint and flat config (unused.js has an
// unused variable), each shown in the status control and its popover with
// an action of its own.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/eslint' });

const tsServer = 'typescript-language-server';
const eslintUnused = "'width' is assigned a value but never used.";

const status = (page: Page) => page.locator('#lsp-status');
const popover = (page: Page) => page.locator('#lsp-popover');
const card = (page: Page) => page.locator('#card-typescript');
const row = (page: Page, server: string) => popover(page).locator(`.lsp-server[data-server="${server}"]`);
const savedSettings = async (page: Page) => (await page.request.get('/api/v1/user/settings')).json();

test.beforeEach(async ({ page }) => {
  await putSettings(page, {
    lsp_auto_start_languages: ['typescript'], lsp_auto_install_languages: [],
    lsp_language_servers: {}, lsp_formatters: {}, lsp_server_configs: {},
  });
  await openDemo(page);
});

// addESLint adds eslint after the default server on the TypeScript card.
async function addESLint(page: Page) {
  await openSettings(page);
  const servers = card(page).locator('.server-list > li');
  await expect(servers).toHaveCount(1);
  await expect(card(page).locator('#server-typescript')).toHaveValue(tsServer);
  // One server: nothing to choose as formatter, nothing to remove.
  await expect(card(page).locator('#formatter-typescript')).toHaveCount(0);
  await expect(card(page).getByRole('button', { name: `Remove ${tsServer}` })).toBeDisabled();
  await card(page).getByLabel('Add a server').selectOption('eslint');
  await card(page).getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.locator('#card-note-typescript')).toHaveText(`Saved: open files of this language now use ${tsServer}, eslint.`);
  await expect(servers).toHaveCount(2);
  await expect(servers.nth(0)).toHaveAttribute('data-server', tsServer);
  await expect(servers.nth(1)).toHaveAttribute('data-server', 'eslint');
  expect((await savedSettings(page)).lsp_language_servers).toEqual({ typescript: [tsServer, 'eslint'] });
}

test('Settings lists the servers in order: add, reorder from the keyboard, choose the formatter, remove', async ({ page }) => {
  await addESLint(page);
  const servers = card(page).locator('.server-list > li');
  // Each listed server shows its own installer details from the task host.
  await expect(servers.nth(1).locator('.server-state')).toHaveText(/^vscode-eslint-language-server is available on this task host: /);
  await expect(servers.nth(0).locator('.server-state')).toHaveText(/^typescript-language-server is available on this task host: /);
  // Only the catalog's servers not listed yet can be added.
  await expect(card(page).getByLabel('Add a server').locator('option')).toHaveText(['tsgo', 'tailwindcss-language-server']);

  // Move eslint up with the keyboard: the focus stays on the moved server.
  await card(page).getByRole('button', { name: 'Move eslint up' }).focus();
  await page.keyboard.press('Enter');
  await expect(servers.nth(0)).toHaveAttribute('data-server', 'eslint');
  await expect(card(page).getByRole('button', { name: 'Move eslint down' })).toBeFocused();
  await expect.poll(async () => (await savedSettings(page)).lsp_language_servers).toEqual({ typescript: ['eslint', tsServer] });
  await page.keyboard.press('Enter');
  await expect(servers.nth(0)).toHaveAttribute('data-server', tsServer);
  await expect.poll(async () => (await savedSettings(page)).lsp_language_servers).toEqual({ typescript: [tsServer, 'eslint'] });

  // The formatter: the first capable server unless one is named.
  const formatter = card(page).getByLabel('Formatter');
  await expect(formatter).toHaveValue('');
  await formatter.selectOption(tsServer);
  await expect(page.locator('#card-note-typescript')).toHaveText('Saved.');
  expect((await savedSettings(page)).lsp_formatters).toEqual({ typescript: tsServer });
  await formatter.selectOption('');
  await expect(page.locator('#card-note-typescript')).toHaveText('Saved.');
  expect((await savedSettings(page)).lsp_formatters).toEqual({});

  // Removing the formatter's server forgets it as the formatter too.
  await formatter.selectOption('eslint');
  await expect.poll(async () => (await savedSettings(page)).lsp_formatters).toEqual({ typescript: 'eslint' });
  await card(page).getByRole('button', { name: 'Remove eslint' }).click();
  await expect(servers).toHaveCount(1);
  await expect(card(page).locator('#formatter-typescript')).toHaveCount(0);
  const saved = await savedSettings(page);
  expect(saved.lsp_language_servers).toEqual({});
  expect(saved.lsp_formatters).toEqual({});
});

test('a JavaScript file with the TypeScript server and ESLint: both in the control, each stopped on its own row', async ({ page }) => {
  await addESLint(page);
  await closeSettings(page);
  await openFile(page, 'unused.js');
  await waitReady(page);
  // The control names the language and every server's state.
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`, { timeout: 60_000 });
  // ESLint really runs on the file: its no-unused-vars marker.
  await expect.poll(() => markerMessages(page), { timeout: 60_000 }).toContain(eslintUnused);

  await status(page).click();
  await expect(popover(page)).toBeVisible();
  await expect(popover(page).getByRole('heading')).toHaveText('TypeScript/JavaScript language servers');
  await expect(popover(page).locator('.lsp-server')).toHaveCount(2);
  await expect(row(page, tsServer).locator('.lsp-server-summary')).toHaveText('Ready');
  await expect(row(page, 'eslint').locator('.lsp-server-summary')).toHaveText('Ready');
  // No action for the language as a whole: each server has its own.
  await expect(page.locator('#lsp-action')).toBeHidden();
  await expect(popover(page).getByRole('button', { name: `Stop ${tsServer}` })).toBeVisible();

  // Stop on ESLint's row stops ESLint only.
  await popover(page).getByRole('button', { name: 'Stop eslint' }).click();
  await expect(row(page, 'eslint')).toHaveAttribute('data-state', 'off');
  await expect(row(page, 'eslint').locator('.lsp-server-summary')).toHaveText('Off');
  await expect(popover(page).getByRole('button', { name: 'Start eslint' })).toBeFocused();
  await expect(row(page, tsServer)).toHaveAttribute('data-state', 'ready');
  await expect(popover(page).getByRole('button', { name: `Stop ${tsServer}` })).toBeVisible();
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Off`);
  await expect.poll(() => markerMessages(page)).not.toContain(eslintUnused);

  // Start on its row brings ESLint back, and its marker with it.
  await popover(page).getByRole('button', { name: 'Start eslint' }).click();
  await expect(row(page, 'eslint')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`);
  await expect.poll(() => markerMessages(page), { timeout: 60_000 }).toContain(eslintUnused);
});

test('one server: the popover keeps its single summary and action', async ({ page }) => {
  await openFile(page, 'unused.js');
  await waitReady(page);
  await expect(status(page)).toHaveText(/^TypeScript\/JavaScript · /);
  await status(page).click();
  await expect(popover(page).getByRole('heading')).toHaveText('TypeScript/JavaScript language server');
  await expect(popover(page).locator('.lsp-server')).toHaveCount(0);
  await expect(page.locator('#lsp-action')).toHaveText('Stop');
});

// A save with two servers on the file: each gets the last change before
// its didSave, and the didSave it asked for (text or not), on its own
// socket. What each asked is read from its own answers: the save option of
// its initialize capabilities, or a didSave registration.
test('a save with the TypeScript server and ESLint: each gets the last change, then didSave as it asked', async ({ page }) => {
  const sockets: { url: string; frames: { out: boolean; msg: any }[] }[] = [];
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.startsWith('/lsp/')) return;
    const s = { url: ws.url(), frames: [] as { out: boolean; msg: any }[] };
    sockets.push(s);
    const add = (out: boolean) => ({ payload }: { payload: string | Buffer }) => {
      try { s.frames.push({ out, msg: JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')) }); } catch { /* not JSON */ }
    };
    ws.on('framesent', add(true));
    ws.on('framereceived', add(false));
  });
  await addESLint(page);
  await closeSettings(page);
  await openFile(page, 'unused.js');
  await expect(status(page)).toHaveText(`TypeScript/JavaScript · ${tsServer} Ready · eslint Ready`, { timeout: 60_000 });
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.executeEdits('e2e', [{ range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 }, text: '// saved\n' }]);
  });
  await page.evaluate(() => (window as any).demo.save());
  await expect(page.locator('#save-state')).toHaveAttribute('data-state', 'saved');

  const live = sockets.filter((s) => s.frames.some((f) => f.out && f.msg.method === 'textDocument/didOpen'));
  expect(live).toHaveLength(2);
  let saved = 0;
  for (const s of live) {
    // What the server asked for: its initialize answer's save option, or a
    // didSave registration (includeText from either).
    const init = s.frames.find((f) => !f.out && f.msg.result && f.msg.result.capabilities);
    const sync = init?.msg.result.capabilities.textDocumentSync;
    const staticSave = sync && typeof sync === 'object' ? sync.save : undefined;
    const reg = s.frames.flatMap((f) => (!f.out && f.msg.method === 'client/registerCapability' ? f.msg.params.registrations : []))
      .find((r: any) => r.method === 'textDocument/didSave');
    const wantsSave = !!staticSave || !!reg;
    const wantsText = (typeof staticSave === 'object' && !!staticSave.includeText) || !!reg?.registerOptions?.includeText;
    const sent = s.frames.filter((f) => f.out && typeof f.msg.method === 'string' && f.msg.method.startsWith('textDocument/did') && f.msg.params.textDocument.uri.endsWith('/unused.js'));
    const saveAt = sent.findIndex((f) => f.msg.method === 'textDocument/didSave');
    if (!wantsSave) {
      expect(saveAt, `${s.url}: no didSave for a server that asked for none`).toBe(-1);
      continue;
    }
    expect(saveAt, `${s.url}: didSave`).toBeGreaterThan(0);
    saved++;
    const lastChange = sent.slice(0, saveAt).filter((f) => f.msg.method === 'textDocument/didChange').at(-1);
    expect(lastChange, `${s.url}: the edit went out before didSave`).toBeTruthy();
    const save = sent[saveAt].msg.params;
    if (wantsText) expect(save.text).toMatch(/^\/\/ saved\n/); else expect(save.text).toBeUndefined();
  }
  expect(saved, 'at least one of the two servers asks for didSave').toBeGreaterThan(0);
});
