import { demoTest, test, fakeTest, expect, openDemo, openFile, putSettings, view, writeScript } from './fixtures';
import { action, cursorAt, hover, waitReady } from './editor';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

// A server the task host finds but cannot launch, and Kotlin: missing from
// the task PATH (never installed), and served by the fake server standing
// in as kotlin-lsp.

const status = (page: Page) => page.locator('#lsp-status');
const popover = (page: Page) => page.locator('#lsp-popover');

/** closesOf records the close code and reason of every LSP stream the page
 * gets from the relay, passing each close on unchanged. */
async function closesOf(page: Page) {
  const closes: { code: number | undefined; reason: string | undefined }[] = [];
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    const server = ws.connectToServer();
    server.onClose((code, reason) => {
      closes.push({ code, reason });
      ws.close({ code, reason });
    });
  });
  return closes;
}

// rust-analyzer is on the task PATH as a file that is no program.
const brokenTest = demoTest({ sample: 'e2e/workspaces/fake', unlaunchable: ['rust-analyzer'] });

brokenTest('a server that cannot be launched: the localized start failure with Retry, the exec error only in the agent\'s log, a close without reason', async ({ page, demo }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_auto_install_languages: [] });
  const closes = await closesOf(page);
  await page.goto('/?locale=de');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-close-code', '4008');
  await expect(status(page)).toHaveText('Rust · rust-analyzer konnte nicht gestartet werden.');
  await status(page).click();
  await expect(popover(page)).toContainText('Der Task-Host konnte rust-analyzer nicht starten. Details stehen in seinen Protokollen.');
  await expect(popover(page)).not.toContainText('exec format error');
  await expect(page.locator('#lsp-action')).toHaveText('Erneut versuchen');
  expect(closes).toEqual([{ code: 4008, reason: '' }]);
  await expect.poll(() => demo.logs.join('')).toMatch(/language server failed to start.*exec format error/);

  // Retry tries again, and fails the same way: a new stream, a new close.
  await page.locator('#lsp-action').click();
  await expect.poll(() => closes.length).toBe(2);
  expect(closes[1]).toEqual({ code: 4008, reason: '' });
  await expect(status(page)).toHaveAttribute('data-close-code', '4008');
});

test('a .kt file without kotlin-lsp on the task PATH shows the manual set-up and offers no install; the repository\'s own kotlin-lsp never runs', async ({ page, demo }) => {
  // A project-controlled executable where Kandev's managed cache would be:
  // ignored, and it would leave a mark if it ran.
  const ran = path.join(demo.workspace, 'planted-ran');
  const planted = path.join(demo.workspace, '.kandev', 'lsp-servers', 'kotlin-lsp');
  fs.mkdirSync(path.dirname(planted), { recursive: true });
  fs.writeFileSync(planted, `#!/bin/sh\ntouch '${ran}'\nexec cat\n`, { mode: 0o755 });
  await openDemo(page);
  // Even with Kotlin asked for: the relay refuses to send it, the agent to run it.
  await putSettings(page, { lsp_auto_start_languages: ['kotlin'] });
  const closes = await closesOf(page);
  await page.reload();
  await openDemo(page);
  await openFile(page, 'kotlin/Greeter.kt');
  await expect(status(page)).toHaveAttribute('data-close-code', '4007');
  await expect(status(page)).toHaveText('Kotlin · kotlin-lsp must be installed manually.');
  await status(page).click();
  await expect(popover(page)).toContainText("Install kotlin-lsp on the task host and make sure it is on the task host's PATH. Kandev does not install Kotlin LSP automatically.");
  await expect(popover(page)).not.toContainText(/installing|Installation/i);
  expect((await view(page, 'kotlin')).state).not.toBe('installing');
  expect(closes).toEqual([{ code: 4007, reason: '' }]);
  expect(fs.existsSync(ran)).toBe(false);
  fs.rmSync(path.join(demo.workspace, '.kandev'), { recursive: true });
  // Back to the demo's defaults: the other specs of this worker share it.
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'] });
});

fakeTest('with the fake server standing in as kotlin-lsp, .kt and .kts files reach ready and its providers answer', async ({ page, demo }) => {
  writeScript(demo, {
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, hoverProvider: true },
    hover: 'fun main(): Unit — from the server standing in for kotlin-lsp',
  });
  await putSettings(page, { lsp_auto_start_languages: ['kotlin'] });
  await openDemo(page);
  await openFile(page, 'App.kt');
  await waitReady(page);
  await expect(status(page)).toHaveText(/^Kotlin · /);
  expect((await view(page, 'kotlin')).state).toBe('ready');
  await cursorAt(page, 'main', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('from the server standing in for kotlin-lsp');
  await page.keyboard.press('Escape');

  // A Gradle Kotlin script joins the same connection.
  await openFile(page, 'build.gradle.kts');
  await waitReady(page);
  await cursorAt(page, 'plugins', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('from the server standing in for kotlin-lsp');
});
