import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, view, openFile } from './fixtures';
import type { Page } from '@playwright/test';

// Kotlin's status as the user reads it, with the fake server standing in
// for kotlin-lsp and scripting what the real one does on a Gradle project:
// work-done progress during and after initialize, an initialize that takes
// minutes, one that is refused, and a server that reports nothing.

const status = (page: Page) => page.locator('#lsp-status');
const popover = (page: Page) => page.locator('#lsp-popover');

async function openKotlin(page: Page) {
  await putSettings(page, { lsp_auto_start_languages: ['kotlin'] });
  await openDemo(page);
  await openFile(page, 'App.kt');
}

// recordStatusTexts keeps every text the status control and its popover
// show from now on, in order (statusTexts reads them): what happened
// between two reads of a test is not lost.
async function recordStatusTexts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = ((window as any).statusTexts = []);
    const read = () => ['lsp-status', 'lsp-popover'].map((id) => document.getElementById(id)?.textContent ?? '').join(' | ');
    seen.push(read());
    new MutationObserver(() => { const t = read(); if (seen[seen.length - 1] !== t) seen.push(t); })
      .observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const statusTexts = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).statusTexts);

async function openStatus(page: Page) {
  if (await popover(page).isHidden()) await status(page).click();
  await expect(popover(page)).toBeVisible();
}

test('initialize progress shows the server\'s title, message, clamped percentage and elapsed time while initializing', async ({ page, demo }) => {
  writeScript(demo, {
    neverAnswerInitialize: true,
    progress: [
      { on: 'initialize', kind: 'begin', title: 'Importing Gradle project', message: 'resolving dependencies', percentage: 20 },
      { on: 'initialize', delayMs: 300, kind: 'report', message: 'indexing :app', percentage: 130 },
    ],
  });
  await openKotlin(page);
  await expect(status(page)).toHaveText(/^Kotlin · Importing Gradle project 100%/);
  await openStatus(page);
  await expect(popover(page)).toContainText('indexing :app');
  await expect(popover(page)).toContainText(/Running for \d+ s/);
  await expect(popover(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  expect((await view(page, 'kotlin')).state).toBe('starting');
  await expect(popover(page)).not.toContainText(/remaining|ETA/i);
});

test('after 60 s without an initialize answer Kotlin says it may be importing Gradle, keeps Stop and is not restarted', async ({ page, demo }) => {
  writeScript(demo, { neverAnswerInitialize: true });
  const started = () => demo.logs.join('').split('language server started').length - 1;
  const before = started();
  // The page's clock flows as usual until it is run forward.
  await page.clock.install();
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'starting');
  await expect(status(page)).toHaveText(/^Kotlin · Initializing \(\d+ s\)$/);
  await page.clock.runFor(61_000);
  await expect(status(page)).toHaveText(/^Kotlin · Initialization is taking longer than usual \(1 min \d+ s\)$/);
  await openStatus(page);
  await expect(popover(page)).toContainText('Kotlin LSP may be importing a Gradle project.');
  await expect(popover(page)).toContainText('The kotlin-lsp process started.');
  await expect(page.locator('#lsp-action')).toHaveText('Stop');
  const v = await view(page, 'kotlin');
  expect(v.state).toBe('starting');
  expect(v.closeCode).toBeNull();
  // One process all along: the page neither timed it out nor restarted it.
  expect(started()).toBe(before + 1);
});

test('two work items: the oldest leads with the count, a report on one leaves the other as it was, an indeterminate one shows its elapsed time and no percentage, and the last end is only work finished', async ({ page, demo }) => {
  writeScript(demo, {
    progress: [
      { on: 'initialized', token: 'import', create: true, kind: 'begin', title: 'Importing', percentage: 10 },
      { on: 'initialized', token: 7, create: true, kind: 'begin', title: 'Indexing' },
      { on: 'initialized', delayMs: 2500, token: 7, kind: 'report', message: 'module :core' },
      { on: 'initialized', delayMs: 5000, token: 'import', kind: 'end' },
      { on: 'initialized', delayMs: 7500, token: 7, kind: 'end', message: 'done' },
    ],
  });
  await openKotlin(page);
  // Every text the control shows, in order: what happened between two
  // reads is not lost.
  await recordStatusTexts(page);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await openStatus(page);
  await expect(status(page)).toContainText('Importing 10%');
  await expect(popover(page)).toContainText('1 other work item is active.');
  // The first ends: the indeterminate one leads, with the message its own
  // report gave it while the other led, its elapsed time and no
  // percentage or time remaining.
  await expect(status(page)).toContainText('Indexing');
  await expect(popover(page)).toContainText('module :core');
  await expect(status(page)).not.toContainText('%');
  await expect(popover(page)).toContainText('In progress; the server reports no percentage.');
  await expect(popover(page)).toContainText(/Running for \d+ s/);
  await expect(popover(page)).not.toContainText(/remaining|ETA/i);
  await expect(popover(page)).not.toContainText('other work item');
  // The last ends: recorded as work finished, nothing more claimed.
  await expect(popover(page)).toContainText('Server-reported work finished: Indexing (done)');
  await expect(popover(page)).toContainText('not every reference or module is guaranteed to be resolved');
  expect((await view(page, 'kotlin')).state).toBe('ready');
  // While Importing led, the report on the other item changed neither
  // its percentage nor its message (the control and the popover).
  const texts = await statusTexts(page);
  const importing = texts.filter((t) => t.includes('Importing'));
  expect(importing.length).toBeGreaterThan(0);
  for (const t of importing) {
    expect(t).toContain('Importing 10%');
    expect(t).not.toContain('module :core');
  }
});

test('a server that reports no work says so after initialize instead of claiming indexing', async ({ page, demo }) => {
  writeScript(demo, {});
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await openStatus(page);
  await expect(popover(page)).toContainText('The server has not reported ongoing analysis.');
  await expect(popover(page)).toContainText('project import, dependencies or module resolution may need attention');
  await expect(popover(page)).not.toContainText(/indexing/i);
});

test('an initialize refused with a JSON-RPC error shows the server\'s message', async ({ page, demo }) => {
  writeScript(demo, { initializeError: { code: -32603, message: 'Gradle JVM is not configured' } });
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'error');
  await openStatus(page);
  await expect(popover(page)).toContainText('Gradle JVM is not configured');
  await expect(popover(page)).not.toContainText('[object Object]');
  await expect(page.locator('#lsp-action')).toHaveText('Retry');
});

// Work in progress when the server goes: it was on screen, and after the
// crash (its process killed, as the kernel's OOM killer would), after Stop
// and after each new start, none of it comes back — the new server's own
// work alone shows.
test('progress on screen, then a crash, Stop and Start: no item of the gone server comes back', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  const working = { recordFile: record, progress: [{ on: 'initialized', kind: 'begin', title: 'Indexing Gradle modules', percentage: 40 }] };
  writeScript(demo, working);
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(status(page)).toContainText('Indexing Gradle modules');
  await openStatus(page);
  await expect(popover(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');

  // The crash: SIGKILL of the server process the agent started.
  const started = () => readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start');
  const [{ pid }] = started();
  process.kill(pid, 'SIGKILL');
  await expect(status(page)).toHaveAttribute('data-state', 'error');
  await expect(status(page)).toHaveAttribute('data-close-code', '4006');
  await expect(popover(page)).toContainText('The language server exited.');
  await expect(popover(page)).not.toContainText('Indexing Gradle modules');
  expect((await view(page, 'kotlin')).progress).toBeNull();

  // Retry starts a server that reports the same work again: it shows, as
  // the new server's. Then Stop while it is in progress: nothing stays.
  await page.locator('#lsp-action').click(); // Retry
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => started().length).toBe(2);
  await expect(status(page)).toContainText('Indexing Gradle modules');
  await page.locator('#lsp-action').click(); // Stop
  await expect(status(page)).toHaveAttribute('data-state', 'off');
  await expect(status(page)).not.toContainText('Indexing Gradle modules');
  await expect(popover(page).locator('#lsp-progress')).toBeHidden();
  expect((await view(page, 'kotlin')).progress).toBeNull();

  // Start a server that reports nothing: no progress, none carried over.
  writeScript(demo, { recordFile: record });
  await page.locator('#lsp-action').click(); // Start
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => started().length).toBe(3);
  await expect(status(page)).not.toContainText('Indexing Gradle modules');
  await expect(popover(page).locator('#lsp-progress')).toBeHidden();
  const v = await view(page, 'kotlin');
  expect(v.progress).toBeNull();
  expect(v.closeCode).toBeNull();
});

// The page's own clock is Playwright's (installed before the page loads),
// so the two minutes a connection without documents stays open pass at
// once: the idle teardown is the client's real timer, fired early.
test('a server idled out while its work is in progress: its item goes, and opening the file again starts clean', async ({ page, demo }, testInfo) => {
  await page.clock.install();
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, { recordFile: record, progress: [{ on: 'initialized', kind: 'begin', title: 'Indexing Gradle modules', percentage: 40 }] });
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(status(page)).toContainText('Indexing Gradle modules');
  const started = () => readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start');
  await expect.poll(() => started().length).toBe(1);

  // The last Kotlin tab closes: the server stays for the idle timeout,
  // its work still on record, then goes.
  await page.locator('#close-file').click();
  await expect.poll(async () => (await view(page, 'kotlin')).progress?.title ?? null).toBe('Indexing Gradle modules');
  await page.clock.fastForward('02:01');
  await expect.poll(async () => (await view(page, 'kotlin')).state).toBe('off');
  expect((await view(page, 'kotlin')).progress).toBeNull();
  const [{ pid }] = started();
  const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
  await expect.poll(alive, { message: 'the idle server process ends' }).toBe(false);

  // Opened again, with a server that reports nothing: a new process, and
  // nothing of the old one's work.
  writeScript(demo, { recordFile: record });
  await openFile(page, 'App.kt');
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => started().length).toBe(2);
  await expect(status(page)).not.toContainText('Indexing Gradle modules');
  const v = await view(page, 'kotlin');
  expect(v.progress).toBeNull();
  expect(v.closeCode).toBeNull();
});

// A replacement: what the server is used for changes (an integrator's
// settings update, lsp_server_features), which a connection reads when it
// starts, so the page ends it on purpose and connects again at once. The
// old generation's work item goes with it; the new one shows its own work
// from its own start, alone, and the old one's never comes back.
test('a replaced connection shows its own progress and none of the old one\'s', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, { recordFile: record, progress: [{ on: 'initialized', kind: 'begin', title: 'Indexing Gradle modules', percentage: 40 }] });
  await openKotlin(page);
  await expect(status(page)).toHaveAttribute('data-state', 'ready');
  await expect(status(page)).toContainText('Indexing Gradle modules 40%');
  const started = () => readRecord(record).filter((r) => r.kind === 'event' && r.method === 'start');
  await expect.poll(() => started().length).toBe(1);

  // Every text the control shows from here on, in order.
  await recordStatusTexts(page);
  writeScript(demo, { recordFile: record, progress: [{ on: 'initialized', delayMs: 300, kind: 'begin', title: 'Resolving the Kotlin standard library', percentage: 10 }] });
  await page.evaluate(async () => {
    const res = await fetch('/api/v1/user/settings', {
      method: 'PUT', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ lsp_server_features: { 'kotlin-lsp': ['diagnostics', 'hover', 'completion'] } }),
    });
    if (!res.ok) throw new Error(`settings: HTTP ${res.status}`);
    (window as any).demo.lsp.setSettings(await res.json());
  });

  await expect.poll(() => started().length).toBe(2);
  await expect(status(page)).toContainText('Resolving the Kotlin standard library 10%');
  await openStatus(page);
  await expect(popover(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
  await expect(popover(page)).toContainText(/Running for [0-9] s/);
  await expect(popover(page)).not.toContainText('other work item');
  await expect(popover(page)).not.toContainText('Indexing Gradle modules');
  const v = await view(page, 'kotlin');
  expect(v.state).toBe('ready');
  expect(v.progress?.title).toBe('Resolving the Kotlin standard library');
  // From the replacement's ready until its own work began (the 300 ms the
  // script waits), nothing of the old generation's work was shown.
  const texts = await statusTexts(page);
  const after = texts.slice(texts.findIndex((t) => !t.includes('Indexing Gradle modules')));
  expect(after.length).toBeGreaterThan(0);
  for (const t of after) expect(t).not.toContain('Indexing Gradle modules');
});
