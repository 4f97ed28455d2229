import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, openFile } from './fixtures';
import { action, newLineAfter, suggestRows, waitReady } from './editor';

// The fake language server (standing in for rust-analyzer) records every
// request Monaco's providers send: trigger kinds, and nothing at all for
// what the server does not advertise.

test.use({
  expectedPageErrors: [{
    pattern: /^TypeError: Cannot read properties of undefined \(reading 'duration'\)\n\s+at \S+ \(http:\/\/127\.0\.0\.1:\d+\/monaco\/vs\//,
    why: 'page.clock.install() fakes performance.mark and getEntriesByName, which Monaco\'s input-latency measurement (vs/base/browser/performance.js) reads on every key: it throws here, never on a page with the real clock',
  }],
});

test('completion trigger kinds 2, 3 and 1; no request for unadvertised features; empty semantic tokens complete', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      completionProvider: { triggerCharacters: ['.'] },
      semanticTokensProvider: { legend: { tokenTypes: ['function'], tokenModifiers: [] }, full: true },
    },
    answers: {
      'textDocument/completion': { isIncomplete: true, items: [{ label: 'alpha', kind: 3 }, { label: 'alphabet', kind: 6 }] },
      'textDocument/semanticTokens/full': { data: [] },
    },
  });
  // The page's timers run on a clock the test can run forward (it flows
  // as usual until then): see the semantic tokens below.
  await page.clock.install();
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);

  const requests = (method: string) => readRecord(record).filter((r) => r.kind === 'request' && r.method === method).map((r) => r.message.params);
  const kinds = () => requests('textDocument/completion').map((p) => p.context);

  await newLineAfter(page, 'fn main() {');
  await page.keyboard.type('x.');
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await expect(suggestRows(page).filter({ hasText: 'alpha' }).first().locator('.codicon-symbol-function')).toHaveCount(1);
  await expect.poll(kinds).toContainEqual({ triggerKind: 2, triggerCharacter: '.' });

  // The list was incomplete: typing on asks again with kind 3.
  await page.keyboard.type('al');
  await expect.poll(kinds).toContainEqual({ triggerKind: 3 });
  await page.keyboard.press('Escape');

  // Invoked by hand: kind 1.
  await page.keyboard.press('Control+Space');
  await expect.poll(kinds).toContainEqual({ triggerKind: 1 });
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await page.keyboard.press('Escape');

  // A barrier: a completion asked for now is recorded, and shown, after
  // anything sent before it, since one socket carries them in order. The
  // list is closed once it is on screen: an Escape pressed before the
  // widget is there is not the widget's, and the session it leaves open
  // would answer the next Control+Space without a request.
  const barrier = async () => {
    const before = requests('textDocument/completion').length;
    await page.keyboard.press('Control+Space');
    await expect.poll(() => requests('textDocument/completion').length).toBeGreaterThan(before);
    await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
    await page.keyboard.press('Escape');
  };

  // Not advertised: hover, definition, references, signature help.
  await page.keyboard.type('(');
  await action(page, 'editor.action.showHover');
  await action(page, 'editor.action.revealDefinition');
  await action(page, 'editor.action.referenceSearch.trigger');
  await barrier();
  const methods = readRecord(record).filter((r) => r.kind === 'request').map((r) => r.method);
  for (const m of ['textDocument/hover', 'textDocument/definition', 'textDocument/references', 'textDocument/signatureHelp']) {
    expect(methods).not.toContain(m);
  }

  // Semantic tokens were asked for and answered empty: no retry loop
  // while nothing changes. Monaco schedules a retry on a timer once an
  // answer is in; the page's clock is run forward instead of waited for,
  // and a completion shown on screen is the barrier: its answer comes
  // after every earlier one on the same socket, so by then Monaco has
  // taken each semantic-token answer in and scheduled whatever it would.
  await expect.poll(() => requests('textDocument/semanticTokens/full').length).toBeGreaterThan(0);
  await page.clock.runFor(5000); // the edits' own, debounced requests
  await barrier();
  const settled = requests('textDocument/semanticTokens/full').length;
  await page.clock.runFor(5000); // a retry Monaco scheduled would fire now
  await barrier();
  expect(requests('textDocument/semanticTokens/full').length).toBe(settled);
});

// A server that asks for a semantic-token refresh (workspace/semanticTokens/
// refresh, here after its first answer) is answered, and Monaco asks for
// the file's tokens again: the empty answers above schedule no retries, yet
// the server can still have its tokens asked for when it knows better.
test('a semantic-token refresh the server requests makes Monaco ask for the tokens again', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      semanticTokensProvider: { legend: { tokenTypes: ['function'], tokenModifiers: [] }, full: true },
    },
    answers: { 'textDocument/semanticTokens/full': { data: [] } },
    requests: [{ on: 'textDocument/semanticTokens/full', delayMs: 100, method: 'workspace/semanticTokens/refresh' }],
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);

  const seq = () => readRecord(record)
    .filter((r) => r.method === 'textDocument/semanticTokens/full' || r.method === 'workspace/semanticTokens/refresh')
    .map((r) => `${r.kind} ${r.method}`);
  await expect.poll(seq, { timeout: 15_000 }).toEqual([
    'request textDocument/semanticTokens/full',
    'answer workspace/semanticTokens/refresh',
    'request textDocument/semanticTokens/full',
  ]);
  const answer = readRecord(record).find((r) => r.kind === 'answer' && r.method === 'workspace/semanticTokens/refresh');
  expect(answer.message.result ?? null, 'answered with null, no error').toBeNull();
  expect(answer.message.error).toBeUndefined();
});

test('completion asks only on the characters the server advertised; signature help keeps its trigger and retrigger characters', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      completionProvider: { triggerCharacters: ['.'] },
      signatureHelpProvider: { triggerCharacters: ['('], retriggerCharacters: [','] },
    },
    answers: {
      'textDocument/completion': { isIncomplete: false, items: [{ label: 'alphabet', kind: 3 }] },
      'textDocument/signatureHelp': {
        signatures: [{ label: 'pair(a: i32, b: i32)', parameters: [{ label: 'a: i32' }, { label: 'b: i32' }] }],
        activeSignature: 0, activeParameter: 0,
      },
    },
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);
  const requests = (method: string) => readRecord(record).filter((r) => r.kind === 'request' && r.method === method).map((r) => r.message.params);
  const completions = () => requests('textDocument/completion');

  // Characters the server did not advertise, typed where no word is
  // (Monaco's quick suggestions follow word characters only): no request.
  // The barrier, a completion asked for by hand, is recorded after
  // anything they would have sent; it must be the only new request.
  await newLineAfter(page, 'fn main() {');
  const before = completions().length;
  await page.keyboard.type(':-> ');
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await page.keyboard.press('Escape');
  expect(completions().slice(before).map((p) => p.context)).toEqual([{ triggerKind: 1 }]);

  // Signature help opens on its trigger character and is asked again as
  // a retrigger on its retrigger character while it shows.
  await page.keyboard.type('pair(');
  const hints = page.locator('.parameter-hints-widget.visible');
  await expect(hints).toContainText('pair(a: i32, b: i32)');
  await expect.poll(() => requests('textDocument/signatureHelp').map((p) => p.context))
    .toContainEqual(expect.objectContaining({ triggerKind: 2, triggerCharacter: '(', isRetrigger: false }));
  await page.keyboard.type('1,');
  await expect.poll(() => requests('textDocument/signatureHelp').map((p) => p.context))
    .toContainEqual(expect.objectContaining({ triggerKind: 2, triggerCharacter: ',', isRetrigger: true }));
  await expect(hints).toBeVisible();

  // A retrigger character alone, with no hints on screen, asks for
  // nothing: after Escape and a new line, a ',' sends no signatureHelp.
  // The barrier is again a completion asked for by hand.
  await page.keyboard.press('Escape');
  await expect(hints).toBeHidden();
  await newLineAfter(page, 'pair(1,');
  const asked = requests('textDocument/signatureHelp').length;
  const completionsBefore = completions().length;
  await page.keyboard.type(',');
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await page.keyboard.press('Escape');
  expect(completions().length).toBe(completionsBefore + 1);
  expect(requests('textDocument/signatureHelp').slice(asked), 'a retrigger character alone asks nothing').toEqual([]);
  await expect(hints).toBeHidden();
});
