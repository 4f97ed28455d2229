import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, openFile } from './fixtures';
import { newLineAfter, suggestRows, waitReady } from './editor';

// Monaco's cancellation reaches the server: the fake leaves completion
// unanswered, as a server still working on it, and records the client's
// $/cancelRequest when the user closes the widget.

test('a cancelled completion sends $/cancelRequest', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: { triggerCharacters: ['.'] } },
    stall: ['textDocument/completion'],
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);

  const completions = () => readRecord(record).filter((r) => r.kind === 'request' && r.method === 'textDocument/completion');
  await newLineAfter(page, 'fn main() {');
  await page.keyboard.press('Control+Space');
  await expect.poll(() => completions().length).toBe(1);
  const id = completions()[0].message.id;
  // The widget shows its loading state while the server works; closing it
  // ends the session and Monaco cancels the request. (Before the widget is
  // on screen Escape is not the widget's, and a key pressed once it is —
  // an arrow — would move in the list, not end the session.)
  await expect(page.locator('.editor-widget.suggest-widget.visible')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect.poll(() => readRecord(record).filter((r) => r.kind === 'notification' && r.method === '$/cancelRequest').map((r) => r.message.params.id))
    .toContain(id);
  await expect(suggestRows(page)).toHaveCount(0);
});
