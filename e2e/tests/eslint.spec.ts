import { demoTest, expect, openDemo, openFile, putSettings, view, lspMarkers } from './fixtures';
import { action, cursorAt, waitReady } from './editor';
import type { Page } from '@playwright/test';

// Two real servers on one file: typescript-language-server and ESLint
// (the sample's own eslint package and flat config) on ts/banner.js. Each
// server's diagnostics are markers of their own; the quick fix menu holds
// both servers' actions; stopping ESLint leaves the TypeScript server and
// its markers as they were.
const test = demoTest({ npmServers: true });

const file = 'ts/banner.js';

test.beforeEach(async ({ page }) => {
  await putSettings(page, {
    lsp_auto_start_languages: ['typescript'], lsp_auto_install_languages: ['typescript'],
    lsp_language_servers: { typescript: ['typescript-language-server', 'eslint'] },
  });
  await openDemo(page);
});

const tsMarker = "kandev-lsp:demo:typescript: 'width' is declared but its value is never read.";
const eslintMarker = "kandev-lsp:demo:typescript:1: 'width' is assigned a value but never used.";

test('both servers serve the file, each with its own markers and quick fixes', async ({ page }) => {
  await openFile(page, file);
  await waitReady(page);
  await expect.poll(async () => ((await view(page, 'typescript')) as any)?.servers?.map((s: any) => `${s.server}:${s.state}`),
    { timeout: 90_000 }).toEqual(['typescript-language-server:ready', 'eslint:ready']);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 90_000 }).toEqual(expect.arrayContaining([tsMarker, eslintMarker]));
  await expect(page.locator('#lsp-status')).toContainText('eslint');

  // The quick fix menu at the unused variable: ESLint's rule actions and
  // the TypeScript server's fixes side by side.
  const rows = page.locator('.action-widget .monaco-list-row');
  await expect.poll(async () => {
    await page.keyboard.press('Escape');
    await cursorAt(page, 'width =', 1);
    await action(page, 'editor.action.quickFix');
    return (await rows.allTextContents()).join('\n');
  }, { timeout: 60_000 }).toMatch(/Disable no-unused-vars for this line/);
  const all = (await rows.allTextContents()).join('\n');
  expect(all).toMatch(/Remove unused declaration/i);
  await page.keyboard.press('Escape');

  // Stop ESLint alone: its markers go, the TypeScript server's stay.
  await page.evaluate(() => { const d = (window as any).demo; d.lsp.stop(d.sessionId, 'typescript', 1); });
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 30_000 }).toEqual([tsMarker]);
  const v = (await view(page, 'typescript')) as any;
  expect(v.servers.map((s: any) => s.state)).toEqual(['ready', 'off']);
});
