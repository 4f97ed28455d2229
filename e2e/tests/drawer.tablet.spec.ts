import { fakeTest as test, expect, openDemo, writeScript, putSettings, openFile, openSettings, closeSettings } from './fixtures';
import { LONG_URL, longProgress, fits, fullText, pageFits } from './longtext';

// A tablet: coarse pointer, touch (the fake stands in for rust-analyzer).
// The status bar is preferred and shown, but a coarse pointer keeps the
// control in the toolbar, touch-sized, and its details open in an inset
// bottom drawer; the saved preference stays as it was.

test.beforeEach(async ({ page, demo }) => {
  writeScript(demo, longProgress);
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_status_location: 'status_bar' });
  await openDemo(page);
});

test('coarse pointer: the toolbar control opens an inset drawer with the status, progress and action', async ({ page }) => {
  expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
  // The Files tree is a panel opened on demand at this width.
  await expect(page.locator('#files')).toBeHidden();
  await openFile(page, 'src/main.rs');
  await expect(page.locator('#files')).toBeHidden();

  const control = page.locator('#lsp-status');
  await expect(control).toContainText(`Rust · ${LONG_URL.slice(0, 30)}`);
  await expect(control).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#status-bar')).toBeVisible();
  await expect(page.locator('#status-bar-lsp')).toBeHidden();
  // Touch-sized trigger.
  const box = (await control.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThanOrEqual(44);
  await pageFits(page);

  await control.tap();
  const drawer = page.locator('#lsp-drawer');
  await expect(drawer).toBeVisible();
  await expect(page.locator('#lsp-popover')).toBeHidden();
  await expect(drawer).toContainText('Rust language server');
  await expect(drawer).toContainText('Progress: 5%');
  await expect(drawer.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '5');
  await fullText(drawer);
  await fits(page, drawer);
  // Inset: off every edge of the window, at the bottom.
  const d = (await drawer.boundingBox())!;
  const vp = page.viewportSize()!;
  expect(d.x).toBeGreaterThan(0);
  expect(d.x + d.width).toBeLessThan(vp.width);
  expect(d.y + d.height).toBeLessThan(vp.height);
  expect(d.y + d.height).toBeGreaterThan(vp.height - 40);

  // The same lifecycle action as the popover: Stop, then Start.
  const action = drawer.locator('#lsp-action');
  await expect(action).toHaveText('Stop');
  expect((await action.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await action.tap();
  await expect(control).toHaveAttribute('data-state', 'off');
  await expect(action).toHaveText('Start');
  await action.tap();
  await expect(control).toHaveAttribute('data-state', 'ready');
  await page.locator('#lsp-drawer-close').tap();
  await expect(drawer).toBeHidden();

  // The fallback did not touch the saved preference.
  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect(saved.lsp_status_location).toBe('status_bar');
  await openSettings(page);
  await expect(page.locator('#location-status_bar')).toBeChecked();
  await expect(page.locator('#location-effective')).toHaveAttribute('data-fallback', 'coarse_pointer');
  await pageFits(page);
  await closeSettings(page);
});

test('the tree opens on demand over the page and closes once a file is picked', async ({ page }) => {
  await expect(page.locator('#toggle-files')).toBeVisible();
  await page.locator('#toggle-files').tap();
  await expect(page.locator('#files')).toBeVisible();
  await expect(page.locator('#toggle-files')).toHaveAttribute('aria-expanded', 'true');
  await pageFits(page);
  await page.locator('#files button.file[data-path="tool.py"]').tap();
  await expect(page.locator('#files')).toBeHidden();
  await expect(page.locator('#current-file')).toHaveText('tool.py');
  await pageFits(page);
});
