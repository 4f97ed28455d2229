import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, openDemo, openFile, markerMessages, putSettings, type Demo } from './fixtures';
import { waitReady, cursorAt } from './editor';

// Files that change on the task host behind the editor — a script, an
// agent, a branch switch — reach the language servers (their file
// watchers) and the open editors, with real gopls and the real TypeScript
// server. Every test puts the files it changes back.

// Go and TypeScript servers start with their files, whatever an earlier
// spec of this worker left in the shared demo's settings.
test.beforeEach(async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: {} });
});

/** onDisk writes a workspace file as a script on the task host would. */
function onDisk(demo: Demo, file: string, text: string) {
  fs.writeFileSync(path.join(demo.workspace, file), text);
}

/** keep remembers a workspace file and puts it back after the test (afterEach). */
function keep(demo: Demo, file: string) {
  const text = fs.readFileSync(path.join(demo.workspace, file), 'utf8');
  restores.push(() => onDisk(demo, file, text));
  return text;
}
let restores: Array<() => void> = [];
test.afterEach(() => {
  for (const r of restores.reverse()) r();
  restores = [];
});

/** noWrites fails the test if the page writes any workspace file. */
function noWrites(page: any) {
  const writes: string[] = [];
  page.on('request', (r: any) => { if (r.method() !== 'GET' && r.url().includes('/api/v1/workspace/file')) writes.push(r.url()); });
  return writes;
}

/** diagnosticAfter changes a file on disk and returns how long it took, from
 * the write, until the open editor shows a marker containing want. */
async function diagnosticAfter(page: any, write: () => void, want: string) {
  const start = Date.now();
  write();
  await expect.poll(() => markerMessages(page), { timeout: 20_000, intervals: [50] })
    .toEqual(expect.arrayContaining([expect.stringContaining(want)]));
  return Date.now() - start;
}

test('gopls: a change to a file that is not open reaches the diagnostics of the open one, and its revert too', async ({ page, demo }) => {
  const greet = keep(demo, 'greet/greet.go');
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
  // The sample's own mistake shows first: gopls has loaded the package.
  await expect.poll(() => markerMessages(page)).toEqual(expect.arrayContaining([expect.stringContaining('"three"')]));

  const twoArgs = greet.replace('func Hello(name string) string {', 'func Hello(name, greeting string) string {');
  expect(twoArgs).not.toBe(greet);
  const ms = await diagnosticAfter(page, () => onDisk(demo, 'greet/greet.go', twoArgs), 'not enough arguments in call to greet.Hello');
  console.log(`gopls: disk write to new diagnostic in ${ms} ms`);

  const back = Date.now();
  onDisk(demo, 'greet/greet.go', greet);
  await expect.poll(() => markerMessages(page), { timeout: 20_000, intervals: [50] })
    .not.toEqual(expect.arrayContaining([expect.stringContaining('not enough arguments')]));
  console.log(`gopls: revert to diagnostic gone in ${Date.now() - back} ms`);
  expect(await markerMessages(page)).toEqual(expect.arrayContaining([expect.stringContaining('"three"')]));
});

/** lspTraffic records the JSON-RPC requests and notifications of the
 * page's connections for language, each with the time it was seen: sent
 * (page to server) and received (server to page). */
function lspTraffic(page: any, language: string) {
  const sent: any[] = [];
  const received: any[] = [];
  const parse = (payload: string | Buffer) => { try { return JSON.parse(String(payload)); } catch { return null; } };
  page.on('websocket', (ws: any) => {
    if (!ws.url().includes(`language=${language}`)) return;
    ws.on('framesent', (f: any) => { const m = parse(f.payload); if (m?.method) sent.push({ ...m, at: Date.now() }); });
    ws.on('framereceived', (f: any) => { const m = parse(f.payload); if (m?.method) received.push({ ...m, at: Date.now() }); });
  });
  return { sent, received };
}

// lsp.wasm starts typescript-language-server with
// tsserver.useClientFileWatcher: tsserver watches no file itself and hears
// of changes only through the watchers it registers with the client, so
// the diagnostics below come by the task host's path — the agent's files
// frame, then lsp.wasm's workspace/didChangeWatchedFiles.
test('TypeScript: a change to a file that is not open reaches the diagnostics of the open one through the client, and its revert too', async ({ page, demo }) => {
  const greet = keep(demo, 'ts/greet.ts');
  const traffic = lspTraffic(page, 'typescript');
  await openDemo(page);
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  // The server asked the client to watch the workspace, and has the
  // project loaded once it publishes main.ts's diagnostics.
  await expect.poll(() => traffic.received.some((m) => m.method === 'client/registerCapability'
    && m.params.registrations.some((r: any) => r.method === 'workspace/didChangeWatchedFiles'))).toBe(true);
  const mainPublished = () => traffic.received.filter((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri.endsWith('/ts/main.ts'));
  await expect.poll(() => mainPublished().length).toBeGreaterThan(0);
  // Clean to begin with, in the server's own words: the markers read right
  // after the frame arrived could still be those from before lsp.wasm
  // handled it.
  expect(mainPublished().at(-1).params.diagnostics).toEqual([]);
  expect(await markerMessages(page)).toEqual([]);

  const greetURI = pathToFileURL(path.join(demo.workspace, 'ts/greet.ts')).href;
  const heard = () => traffic.sent.filter((m) => m.method === 'workspace/didChangeWatchedFiles'
    && m.params.changes.some((c: any) => c.uri === greetURI && c.type === 2));
  const required = greet.replace("punctuation: string = '!'", 'punctuation: string');
  expect(required).not.toBe(greet);
  const write = Date.now();
  const ms = await diagnosticAfter(page, () => onDisk(demo, 'ts/greet.ts', required), 'Expected 2 arguments, but got 1');
  const sent = heard();
  expect(sent.length).toBeGreaterThan(0);
  // The rest is tsserver's: it tells of a changed project 2.5 s after the
  // change (its delay before ensuring the open files' projects), and the
  // open files' diagnostics follow.
  console.log(`typescript: disk write to new diagnostic in ${ms} ms (the change sent to the server after ${sent[0].at - write} ms)`);

  // The revert: the diagnostic goes, and nothing else stands in its place
  // (Monaco's own TypeScript worker, which sees main.ts alone, would read
  // "Cannot find module './greet'" there).
  const back = Date.now();
  onDisk(demo, 'ts/greet.ts', greet);
  await expect.poll(() => markerMessages(page), { timeout: 20_000, intervals: [50] }).toEqual([]);
  console.log(`typescript: revert to diagnostic gone in ${Date.now() - back} ms`);
  expect(heard().length).toBeGreaterThan(sent.length);
});

const editorText = (page: any) => page.evaluate(() => (window as any).demo.editor.getModel().getValue());
const cursor = (page: any) => page.evaluate(() => (window as any).demo.editor.getPosition());
const saveState = (page: any) => page.locator('#save-state');

test('an open file without unsaved changes shows what changed on disk, keeping the cursor; nothing is written', async ({ page, demo }) => {
  const greet = keep(demo, 'greet/greet.go');
  const writes = noWrites(page);
  await openDemo(page);
  await openFile(page, 'greet/greet.go');
  await waitReady(page);
  await cursorAt(page, 'return', 2);
  const before = await cursor(page);

  // Another line than the cursor's, same line count.
  const changed = greet.replace('// Hello returns a friendly greeting for name.', '// Hello greets name, changed by a script.');
  onDisk(demo, 'greet/greet.go', changed);
  await expect.poll(() => editorText(page)).toBe(changed);
  expect(await cursor(page)).toEqual(before);
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  await expect(page.locator('.notice')).toHaveCount(0);

  // The server holds the new text too: hover shows the new doc comment.
  await expect.poll(async () => {
    await cursorAt(page, 'func Hello', 6);
    await page.evaluate(() => (window as any).demo.editor.getAction('editor.action.showHover').run());
    return page.locator('.monaco-hover:not(.hidden)').innerText({ timeout: 2_000 }).catch(() => '');
  }, { timeout: 30_000 }).toContain('changed by a script');
  expect(fs.readFileSync(path.join(demo.workspace, 'greet/greet.go'), 'utf8')).toBe(changed);
  expect(writes).toEqual([]);
});

test('an open file with unsaved changes keeps them and asks: Keep mine, then Reload', async ({ page, demo }) => {
  keep(demo, 'greet/greet.go');
  const writes = noWrites(page);
  await openDemo(page);
  await openFile(page, 'greet/greet.go');
  await waitReady(page);
  await cursorAt(page, 'package greet');
  await page.keyboard.press('End');
  await page.keyboard.type(' // mine');
  await expect(saveState(page)).toHaveAttribute('data-state', 'dirty');
  const mine = await editorText(page);

  const theirs = '// Package greet builds greetings.\npackage greet\n\n// Hello says hello.\nfunc Hello(name string) string {\n\treturn "Hi, " + name\n}\n';
  onDisk(demo, 'greet/greet.go', theirs);
  const notice = page.locator('.notice', { hasText: 'greet/greet.go changed on disk' });
  await expect(notice).toBeVisible();
  expect(await editorText(page)).toBe(mine);
  await notice.getByRole('button', { name: 'Keep mine' }).click();
  await expect(notice).toHaveCount(0);
  expect(await editorText(page)).toBe(mine);
  await expect(saveState(page)).toHaveAttribute('data-state', 'dirty');

  // Changed again: asked again; this time the file's text is taken.
  const theirs2 = theirs.replace('Hi, ', 'Hello again, ');
  onDisk(demo, 'greet/greet.go', theirs2);
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => editorText(page)).toBe(theirs2);
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  expect(fs.readFileSync(path.join(demo.workspace, 'greet/greet.go'), 'utf8')).toBe(theirs2);
  expect(writes).toEqual([]);
});
