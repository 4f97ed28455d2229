import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, view, openFile, openSettings, saveConfig, closeSettings } from './fixtures';

// The fake server stands in for rust-analyzer: these are the behaviours no
// real server shows on demand — scripted progress, a crash, a live
// configuration change.

const status = (page: any) => page.locator('#lsp-status');
const popover = (page: any) => page.locator('#lsp-popover');

async function openStatus(page: any) {
  if (await popover(page).isHidden()) await status(page).click();
  await expect(popover(page)).toBeVisible();
}

test.beforeEach(async ({ page, demo }) => {
  writeScript(demo, {});
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
});

test('scripted work-done progress shows title, percentage and the count of other items', async ({ page, demo }) => {
  writeScript(demo, {
    progress: [
      { on: 'initialized', token: 'crates', create: true, kind: 'begin', title: 'Indexing crates', percentage: 10 },
      { on: 'initialized', token: 7, create: true, kind: 'begin', title: 'Building proc-macros' },
      { on: 'initialized', token: 'crates', kind: 'report', message: '12/40 crates', percentage: 142 },
    ],
  });
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  // The oldest active item is the summary, its percentage clamped to 100,
  // and the other item only counted.
  await expect(status(page)).toContainText('Indexing crates');
  await expect(status(page)).toContainText('100%');
  await openStatus(page);
  await expect(popover(page)).toContainText('12/40 crates');
  await expect(popover(page)).toContainText('1 other work item is active');
  await expect(popover(page)).toContainText('Cross-file results may be incomplete');
  await expect(popover(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.locator('#lsp-action')).toHaveText(/stop/i);
});

test('a crash shows server-exited with Retry, and Retry reconnects without stale progress', async ({ page, demo }) => {
  writeScript(demo, {
    progress: [{ on: 'initialize', kind: 'begin', title: 'Loading workspace', percentage: 5 }],
    exitOnDidOpen: 3,
  });
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'error');
  await expect(status(page)).toHaveAttribute('data-close-code', '4006');
  await openStatus(page);
  await expect(popover(page)).toContainText('The language server exited.');
  await expect(popover(page)).not.toContainText('Loading workspace');
  const action = page.locator('#lsp-action');
  await expect(action).toHaveText(/retry/i);

  writeScript(demo, {});
  await action.click();
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(popover(page)).not.toContainText('Loading workspace');
  await expect(popover(page).locator('#lsp-progress')).toBeHidden();
  const v = await view(page, 'rust');
  expect(v.progress).toBeNull();
  expect(v.closeCode).toBeNull();
});

test('Stop keeps the server off through a remount and a settings change; a manual Start survives a reload', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, { recordFile: record });
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');

  await openStatus(page);
  await page.locator('#lsp-action').click(); // Stop
  await expect(status(page)).toHaveAttribute('data-state', 'off');
  await expect(page.locator('#lsp-action')).toHaveText(/start/i);
  const startsAfterStop = readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start').length;
  expect(startsAfterStop).toBe(1);

  // Remount the editor: auto-start is still on, but this runtime was stopped.
  await page.locator('#close-file').click();
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'off');

  // A settings change does not bring it back either.
  await openSettings(page);
  await saveConfig(page, 'rust', '{"rust-analyzer": {"checkOnSave": false}}');
  await closeSettings(page);
  await expect(status(page)).toHaveAttribute('data-state', 'off');
  expect(readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start').length).toBe(1);

  // Auto-start off; a manual Start is remembered in localStorage across a reload.
  await putSettings(page, { lsp_auto_start_languages: [] });
  await openStatus(page);
  await page.locator('#lsp-action').click(); // Start
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await page.reload();
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('rust')));
  expect(stored.length).toBe(1);
});

test('the keyboard opens the popover on its action, stops and starts the server in it, and Escape comes back', async ({ page }) => {
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(status(page)).toHaveAttribute('aria-expanded', 'false');
  await status(page).focus();
  await page.keyboard.press('Enter');
  await expect(popover(page)).toBeVisible();
  await expect(status(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(status(page)).toHaveAttribute('aria-controls', 'lsp-popover');
  await expect(popover(page)).toHaveAttribute('role', 'dialog');
  await expect(popover(page)).toHaveAccessibleName('Rust language server');
  const action = page.locator('#lsp-action');
  await expect(action).toBeFocused();
  await expect(action).toHaveText('Stop');
  // Tab and Shift+Tab stay in the dialog: its one button keeps the focus.
  await page.keyboard.press('Tab');
  await expect(action).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(action).toBeFocused();

  // Stop, then Start: the focus follows the action through the repaints.
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveAttribute('data-state', 'off');
  await expect(action).toHaveText('Start');
  await expect(action).toBeFocused();
  await page.keyboard.press('Space');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(action).toHaveText('Stop');
  await expect(action).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(popover(page)).toBeHidden();
  await expect(status(page)).toBeFocused();
  await expect(status(page)).toHaveAttribute('aria-expanded', 'false');
});

test('a settings change reaches the live server without a new process', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  await putSettings(page, { lsp_server_configs: { rust: { 'rust-analyzer': { cargo: { features: 'all' } } } } });
  await page.reload();
  await openDemo(page);
  writeScript(demo, { recordFile: record, requestConfiguration: ['rust-analyzer', 'rust-analyzer.cargo'] });
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');

  const answers = () => readRecord(record).filter((r) => r.kind === 'answer' && r.method === 'workspace/configuration')
    .map((r) => r.message.result);
  // Item by item, by section — not the whole object for every item.
  await expect.poll(answers).toEqual([[{ cargo: { features: 'all' } }, { features: 'all' }]]);

  await openSettings(page);
  await saveConfig(page, 'rust', '{"rust-analyzer": {"cargo": {"features": ["serde"]}}}');
  await closeSettings(page);

  await expect.poll(() => readRecord(record).filter((r) => r.method === 'workspace/didChangeConfiguration').length).toBe(1);
  await expect.poll(answers).toEqual([
    [{ cargo: { features: 'all' } }, { features: 'all' }],
    [{ cargo: { features: ['serde'] } }, { features: ['serde'] }],
  ]);
  expect(readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start').length).toBe(1);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
});

test('the settings page offers auto-install only for installable languages and saves it', async ({ page }) => {
  await putSettings(page, { lsp_auto_install_languages: [] });
  await page.reload();
  await openDemo(page);
  await openSettings(page);
  const boxes = page.locator('#language-cards input.auto-install');
  await expect.poll(() => boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['typescript', 'python', 'go', 'rust', 'json', 'css', 'html', 'markdown', 'yaml', 'shell', 'dockerfile', 'php', 'sql', 'svelte', 'graphql', 'terraform', 'vue', 'toml']);
  // C/C++ is served by clangd from the task host's toolchain: never installed.
  await expect(page.locator('#card-c input.auto-install')).toHaveCount(0);
  await expect(page.locator('#card-kotlin input.auto-install')).toHaveCount(0);
  await page.locator('#auto-install-python').check();
  await expect(page.locator('#card-note-python')).toHaveText('Saved.');
  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect(saved.lsp_auto_install_languages).toEqual(['python']);
});
