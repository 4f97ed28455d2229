import { demoTest, expect, openDemo, openFile, openSettings, closeSettings, putSettings, lspMarkers } from './fixtures';
import { action, cursorAt, hover, waitReady } from './editor';
import type { Page, WebSocket } from '@playwright/test';

// How two real servers on one TypeScript file are merged, in the page:
// each one's markers and quick fixes (applied through their own server),
// either one stopped leaving the other's, formatting from the one the user
// names, rename from the first capable server of the list as Settings
// orders it. Which server answered is read off the WebSocket each request
// went out on: one per server, named by its server= parameter.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/eslint' });

const tsls = 'typescript-language-server';
const file = 'unused.ts';
const tsUnused = "kandev-lsp:demo:typescript: 'width' is declared but its value is never read.";
const eslintUnused = "kandev-lsp:demo:typescript:1: 'width' is assigned a value but never used.";

/** text is the open file's text. */
const text = (page: Page) => page.evaluate(() => (window as any).demo.editor.getModel()?.getValue() as string);

/** requests records, per server, the LSP methods the page sent it. */
function requests(page: Page) {
  const sent: Record<string, string[]> = {};
  page.on('websocket', (ws: WebSocket) => {
    const server = new URL(ws.url()).searchParams.get('server') ?? '';
    ws.on('framesent', (f) => {
      const m = /"method":"([^"]+)"/.exec(String(f.payload));
      if (m) (sent[server] ??= []).push(m[1]);
    });
  });
  return {
    to: (server: string) => sent[server] ?? [],
    count: (server: string, method: string) => (sent[server] ?? []).filter((x) => x === method).length,
  };
}

async function settingsFor(page: Page, servers: string[]) {
  await putSettings(page, {
    lsp_auto_start_languages: ['typescript'], lsp_auto_install_languages: ['typescript'],
    lsp_language_servers: { typescript: servers }, lsp_formatters: {}, lsp_server_configs: {},
  });
  await openDemo(page);
}

const rows = (page: Page) => page.locator('.action-widget .monaco-list-row');

/**
 * quickFixes opens the quick fix menu at `at` until it lists every action
 * wanted (a server's fixes may follow its diagnostics a moment later), and
 * leaves it open.
 */
async function quickFixes(page: Page, at: string, ...want: string[]) {
  await expect.poll(async () => {
    await page.keyboard.press('Escape');
    await cursorAt(page, at, 1);
    await action(page, 'editor.action.quickFix');
    await rows(page).first().waitFor({ timeout: 5_000 }).catch(() => {});
    const all = (await rows(page).allTextContents()).join('\n');
    return want.filter((w) => !all.includes(w));
  }, { timeout: 60_000 }).toEqual([]);
}

test('an unused variable gets a marker from each server, and each server\'s quick fix applies', async ({ page }) => {
  await settingsFor(page, [tsls, 'eslint']);
  await openFile(page, file);
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 90_000 }).toEqual(expect.arrayContaining([tsUnused, eslintUnused]));

  // Both servers' fixes in one menu; ESLint's applies its edit.
  await quickFixes(page, 'width =', 'Disable @typescript-eslint/no-unused-vars for this line', "Remove unused declaration for: 'width'");
  await rows(page).filter({ hasText: 'Disable @typescript-eslint/no-unused-vars for this line' }).click();
  await expect.poll(() => text(page)).toContain('// eslint-disable-next-line @typescript-eslint/no-unused-vars\n  const width');
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 30_000 }).not.toContain(eslintUnused);

  // Undo; the TypeScript server's fix removes the declaration.
  await page.keyboard.press('Control+z');
  await expect.poll(() => text(page)).not.toContain('eslint-disable-next-line');
  await quickFixes(page, 'width =', "Remove unused declaration for: 'width'");
  await rows(page).filter({ hasText: "Remove unused declaration for: 'width'" }).click();
  await expect.poll(() => text(page)).not.toContain('const width');
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 30_000 }).toEqual([]);
});

test('stopping either server leaves the other one\'s markers and providers', async ({ page }) => {
  await settingsFor(page, [tsls, 'eslint']);
  await openFile(page, file);
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 90_000 }).toEqual(expect.arrayContaining([tsUnused, eslintUnused]));
  const lsp = (slot: number, verb: 'stop' | 'start') =>
    page.evaluate(([s, v]) => { const d = (window as any).demo; d.lsp[v as string](d.sessionId, 'typescript', s); }, [slot, verb] as const);
  const states = async () => (await page.evaluate(() => { const d = (window as any).demo; return d.lsp.view(d.sessionId, 'typescript'); }) as any).servers.map((s: any) => s.state);

  // The TypeScript server stopped: ESLint's marker and quick fix stay.
  await lsp(0, 'stop');
  await expect.poll(states).toEqual(['off', 'ready']);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true })).toEqual([eslintUnused]);
  await quickFixes(page, 'width =', 'Disable @typescript-eslint/no-unused-vars for this line');
  await page.keyboard.press('Escape');

  // And the other way round: its hover and marker stay with ESLint stopped.
  await lsp(0, 'start');
  await expect.poll(states, { timeout: 60_000 }).toEqual(['ready', 'ready']);
  await lsp(1, 'stop');
  await expect.poll(states).toEqual(['ready', 'off']);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`, { owners: true }), { timeout: 60_000 }).toEqual([tsUnused]);
  await expect.poll(async () => {
    await page.keyboard.press('Escape');
    await cursorAt(page, 'shout(frame', 1);
    await action(page, 'editor.action.showHover');
    return hover(page).innerText().catch(() => '');
  }, { timeout: 30_000 }).toContain('function shout(text: string): string');
});

test('Format Document uses the chosen formatter only; reordering in Settings moves rename, without a reload', async ({ page }) => {
  const sent = requests(page);
  await settingsFor(page, [tsls, 'tsgo']);
  await page.evaluate(() => { (window as any).sameLoad = true; });
  await openFile(page, file);
  await waitReady(page);
  await expect.poll(async () => (await page.evaluate(() => { const d = (window as any).demo; return d.lsp.view(d.sessionId, 'typescript'); }) as any).servers.map((s: any) => s.state),
    { timeout: 120_000 }).toEqual(['ready', 'ready']);

  // The first capable server formats: typescript-language-server.
  await cursorAt(page, 'return text', 0);
  await action(page, 'editor.action.formatDocument');
  await expect.poll(() => sent.count(tsls, 'textDocument/formatting')).toBe(1);
  expect(sent.count('tsgo', 'textDocument/formatting')).toBe(0);

  // Named in Settings, tsgo formats, and only tsgo.
  await openSettings(page);
  await page.locator('#formatter-typescript').selectOption('tsgo');
  await expect(page.locator('#card-note-typescript')).toHaveText('Saved.');
  await closeSettings(page);
  await expect.poll(async () => {
    await cursorAt(page, 'return text', 0);
    await action(page, 'editor.action.formatDocument');
    return sent.count('tsgo', 'textDocument/formatting');
  }, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(sent.count(tsls, 'textDocument/formatting')).toBe(1);

  // Rename: the first capable server of the list.
  const rename = async (from: string, to: string) => {
    await cursorAt(page, `${from}(text`, 1);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await expect(input).toBeVisible();
    await input.fill(to);
    await input.press('Enter');
    await expect.poll(() => text(page)).toContain(`${to}(frame("hello"))`);
  };
  await rename('shout', 'yell');
  expect(sent.count(tsls, 'textDocument/rename')).toBe(1);
  expect(sent.count('tsgo', 'textDocument/rename')).toBe(0);

  // tsgo moved first in Settings: it answers the next rename.
  await openSettings(page);
  await page.locator('#card-typescript').getByRole('button', { name: 'Move tsgo up' }).click();
  await expect.poll(async () => (await (await page.request.get('/api/v1/user/settings')).json()).lsp_language_servers).toEqual({ typescript: ['tsgo', tsls] });
  await closeSettings(page);
  await expect.poll(async () => (await page.evaluate(() => { const d = (window as any).demo; return d.lsp.view(d.sessionId, 'typescript'); }) as any).servers.map((s: any) => `${s.server}:${s.state}`),
    { timeout: 120_000 }).toEqual(['tsgo:ready', `${tsls}:ready`]);
  await rename('yell', 'holler');
  expect(sent.count('tsgo', 'textDocument/rename')).toBe(1);
  expect(sent.count(tsls, 'textDocument/rename')).toBe(1);
  expect(await page.evaluate(() => (window as any).sameLoad)).toBe(true);
});
