import { test, expect, openDemo, putSettings, openFile, view } from './fixtures';
import { pageFits } from './longtext';

// A phone: file viewing without language servers. With Go on auto-start
// (and a real gopls on the task host), opening main.go shows its text,
// renders no status control, and starts no server, not in the background
// either; the page is never wider than the screen.

const starts = (logs: string[]) => {
  const all = logs.join('');
  return { servers: all.split('language server started').length - 1, streams: all.split('lsp stream: open').length - 1 };
};

test('a phone opens a .go file with no control and no language server', async ({ page, demo }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_auto_install_languages: ['go'], lsp_status_location: 'toolbar' });
  await openDemo(page);
  const before = starts(demo.logs);
  await pageFits(page);

  await expect(page.locator('#files')).toBeHidden();
  await page.locator('#toggle-files').tap();
  await pageFits(page);
  await openFile(page, 'main.go');
  await expect(page.locator('#phone-viewer')).toContainText('var count int = "three"');
  await expect(page.locator('#editor')).toBeHidden();
  await expect(page.locator('#lsp-status')).toBeHidden();
  await expect(page.locator('#status-bar-lsp')).toBeHidden();
  await pageFits(page);

  // lsp.wasm placed no control and opened no document: nothing can connect.
  const surface = await page.evaluate(() => (window as any).demo.control.surface);
  expect(surface).toMatchObject({ location: 'none', fallback: 'phone', pair: null, connect: false });
  const v = await view(page, 'go');
  expect(v.documents).toBe(0);
  expect(v.state).toBe('off');
  expect(await page.evaluate(() => (window as any).demo.lsp.status('demo', 'go'))).toBeNull();
  expect(sockets).toEqual([]);
  expect(starts(demo.logs)).toEqual(before);

  // Another supported file, and back: still nothing.
  await openFile(page, 'py/app.py');
  await expect(page.locator('#phone-viewer')).toContainText('from util import shout');
  await page.locator('#tabs [role="tab"][data-path="main.go"]').tap();
  await expect(page.locator('#phone-viewer')).toContainText('package main');
  // lsp.wasm records a connection's start as it starts it, before its
  // socket is opened: still off, with no document, means no socket can
  // follow, and the sockets and the demo's log are read after that.
  const again = await view(page, 'go');
  expect(again.documents).toBe(0);
  expect(again.state).toBe('off');
  expect(sockets).toEqual([]);
  expect(starts(demo.logs)).toEqual(before);
  await pageFits(page);
});

test('the settings page fits a phone and says files open without language servers', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').tap();
  await expect(page.locator('#settings-page')).toBeVisible();
  await expect(page.locator('#location-effective')).toHaveAttribute('data-fallback', 'phone');
  await expect(page.locator('#command-typescript')).toBeVisible();
  await pageFits(page);
});
