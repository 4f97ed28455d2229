import { test, devices, type Page } from '@playwright/test';
import path from 'node:path';
import { startDemo, stopDemo, writeScript, putSettings, openDemo, openFile, expect } from '../tests/fixtures';

// Screenshots for docs/setup.md, each of the surface it names.
const out = (name: string) => path.resolve(__dirname, '..', '..', 'webdemo', 'screenshots', name);

async function fresh(page: Page, settings: object) {
  await openDemo(page);
  await page.evaluate(() => localStorage.clear());
  await putSettings(page, settings);
  await page.reload();
  await openDemo(page);
}

test('toolbar popover, status bar and settings page (desktop, gopls)', async ({ browser }) => {
  test.setTimeout(180_000);
  const demo = await startDemo({ npmServers: true });
  try {
    const ctx = await browser.newContext({ ...devices['Desktop Chrome'], baseURL: demo.url, viewport: { width: 1280, height: 640 } });
    const page = await ctx.newPage();
    await fresh(page, { lsp_auto_start_languages: ['go', 'python'], lsp_status_location: 'toolbar' });
    await openFile(page, 'py/app.py');
    await openFile(page, 'main.go');
    await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await page.locator('#lsp-status').click();
    await page.screenshot({ path: out('toolbar-popover.png') });

    await fresh(page, { lsp_status_location: 'status_bar' });
    await openFile(page, 'main.go');
    await openFile(page, 'py/app.py');
    await expect(page.locator('#status-bar-lsp')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await page.locator('#status-bar-lsp').click();
    await page.screenshot({ path: out('status-bar.png') });

    await page.setViewportSize({ width: 1280, height: 1800 });
    await page.keyboard.press('Escape');
    await page.locator('#open-settings').click();
    await expect(page.locator('#command-python')).toBeVisible();
    await expect(page.locator('#guidance-kotlin')).toBeVisible();
    await page.screenshot({ path: out('settings.png') });
    await ctx.close();
  } finally {
    await stopDemo(demo);
  }
});

test('tablet drawer (coarse pointer, scripted progress)', async ({ browser }) => {
  const demo = await startDemo({ sample: 'e2e/workspaces/fake', fake: true });
  try {
    const ctx = await browser.newContext({ ...devices['Galaxy Tab S4'], baseURL: demo.url });
    const page = await ctx.newPage();
    writeScript(demo, {
      progress: [
        { on: 'initialized', token: 'crates', create: true, kind: 'begin', title: 'Indexing crates', message: '12/40 crates', percentage: 30 },
        { on: 'initialized', token: 'macros', create: true, kind: 'begin', title: 'Building proc-macros' },
      ],
    });
    await fresh(page, { lsp_auto_start_languages: ['rust'], lsp_status_location: 'status_bar' });
    await openFile(page, 'src/main.rs');
    await expect(page.locator('#lsp-status')).toContainText('Indexing crates');
    await page.locator('#lsp-status').tap();
    await expect(page.locator('#lsp-drawer')).toBeVisible();
    await page.screenshot({ path: out('tablet-drawer.png') });
    await ctx.close();
  } finally {
    await stopDemo(demo);
  }
});
