import { demoTest, expect, openDemo, openFile, putSettings, writeScript, readRecord } from './fixtures';
import { action, hover, hoverUntil, suggestRows, waitReady } from './editor';

// Monaco's own TypeScript worker gives way only where the server does the
// work: here the fake server stands in for typescript-language-server
// (e2e/servers/fakets) and advertises hover but not completion. On the
// page, its hover replaces the built-in one, and completion stays the
// built-in's — a server that lacks a capability never leaves a hole.
const test = demoTest({ path: ['e2e/servers/fakets'] });

test('a TypeScript server without completion keeps Monaco\'s built-in completion; its hover replaces the built-in hover', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, hoverProvider: true },
    hover: 'hover from the **fake** TypeScript server',
  });
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  expect(readRecord(record).some((r) => r.method === 'initialize'), 'the fake server is the TypeScript server').toBe(true);

  const suppressed = (feature: string) => page.evaluate((feature) => {
    const { monaco, editor } = (window as any).demo;
    return monaco.languages[Symbol.for('kandev.lsp.wrapped')].isSuppressed(editor.getModel(), feature) as boolean;
  }, feature);
  await expect.poll(() => suppressed('hover')).toBe(true);
  expect(await suppressed('completion')).toBe(false);

  // Hover: the server's, and not the worker's "const message: string".
  await hoverUntil(page, 'message,', 'hover from the fake TypeScript server');
  expect(await hover(page).innerText()).not.toContain('const message: string');
  await page.keyboard.press('Escape');

  // Completion: the worker's members of a string, asked of nobody else.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const end = model.getFullModelRange().getEndPosition();
    editor.executeEdits('e2e', [{ range: { startLineNumber: end.lineNumber, startColumn: end.column, endLineNumber: end.lineNumber, endColumn: end.column }, text: '\nmessage.toUpp' }]);
    editor.setPosition(model.getFullModelRange().getEndPosition());
    editor.focus();
  });
  await expect.poll(async () => {
    if (await suggestRows(page).count() === 0) await action(page, 'editor.action.triggerSuggest');
    return suggestRows(page).allInnerTexts();
  }, { timeout: 30_000, intervals: [500, 1000] }).toContainEqual(expect.stringContaining('toUpperCase'));
  expect(readRecord(record).filter((r) => r.method === 'textDocument/completion'), 'the server was never asked').toEqual([]);
});
