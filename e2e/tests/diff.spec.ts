import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { newLineAfter, waitReady } from './editor';
import type { Page } from '@playwright/test';

// The diff view: an open file against its saved text in Monaco's diff
// editor. It is no editor of the file's own, so with the status bar as the
// preferred location it shows no LSP item, and the toolbar no control or
// Start/Retry action, until the file's editor is back.

const item = (page: Page) => page.locator('#status-bar-lsp');

test.afterEach(async ({ page }) => {
  await putSettings(page, { lsp_status_location: 'toolbar' });
});

test('the diff view of unsaved changes shows no LSP status item or action; back in the editor they return', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_status_location: 'status_bar' });
  await openDemo(page);
  await openFile(page, 'main.go');
  await expect(item(page)).toBeVisible();
  await expect(item(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });

  await newLineAfter(page, 'var count int');
  await page.keyboard.type('count++');
  await page.locator('#toggle-diff').click();
  await expect(page.locator('#toggle-diff')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#diff-view')).toBeVisible();
  await expect(page.locator('#diff-title')).toHaveText('main.go: saved ↔ unsaved');
  // The added line, marked as inserted on the modified side.
  await expect(page.locator('#diff-editor .modified .line-insert').first()).toBeVisible();
  await expect(page.locator('#diff-editor .modified .view-lines')).toContainText('count++');
  await expect(page.locator('#diff-editor .original .view-lines')).not.toContainText('count++');
  await expect(page.locator('#editor')).toBeHidden();
  await expect(item(page)).toBeHidden();
  await expect(page.locator('#lsp-status')).toBeHidden();
  await expect(page.locator('#lsp-action')).toBeHidden();

  // Back: the file's editor, its item and its server as they were.
  await page.locator('#toggle-diff').click();
  await expect(page.locator('#diff-view')).toBeHidden();
  await expect(item(page)).toBeVisible();
  await expect(item(page)).toHaveAttribute('data-state', 'ready');

  // With the toolbar as the location, the diff view hides the control too.
  await putSettings(page, { lsp_status_location: 'toolbar' });
  await page.reload();
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
  await page.locator('#toggle-diff').click();
  await expect(page.locator('#diff-view')).toBeVisible();
  await expect(page.locator('#lsp-status')).toBeHidden();
  await expect(item(page)).toBeHidden();
});
