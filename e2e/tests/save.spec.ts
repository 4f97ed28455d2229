import fs from 'node:fs';
import path from 'node:path';
import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, openFile, type Demo } from './fixtures';
import { waitReady } from './editor';

// Save synchronization, recorded by the fake language server (standing in
// for rust-analyzer): the exact didChange/didSave sequence a server sees
// when the page saves through the agent's workspace file route.

const FILE = 'src/main.rs';
const saveState = (page: any) => page.locator('#save-state');

async function setUp(page: any, demo: Demo, record: string, sync: object) {
  fs.writeFileSync(path.join(demo.workspace, FILE), 'fn main() {\n}\n');
  writeScript(demo, { recordFile: record, capabilities: { textDocumentSync: sync } });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, FILE);
  await waitReady(page);
  await expect.poll(() => methods(record)).toContain('textDocument/didOpen');
}

/** typeAtEnd types text at the end of the document. */
async function typeAtEnd(page: any, text: string) {
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const m = editor.getModel();
    const line = m.getLineCount();
    editor.setPosition({ lineNumber: line, column: m.getLineMaxColumn(line) });
    editor.focus();
  });
  await page.keyboard.type(text);
}

const liveText = (page: any) => page.evaluate(() => (window as any).demo.editor.getModel().getValue());
const methods = (record: string) => readRecord(record).map((r) => r.method);

/** afterNextChange types once more and waits until the server has that didChange. */
async function afterNextChange(page: any, record: string) {
  const changes = () => methods(record).filter((m) => m === 'textDocument/didChange').length;
  const before = changes();
  await typeAtEnd(page, ' ');
  await expect.poll(changes).toBeGreaterThan(before);
}
/**
 * serverText is the document as the server holds it after the recorded
 * traffic: didOpen's text with every didChange applied, whole texts and
 * ranges (UTF-16 line and character) alike.
 */
function serverText(record: string): string {
  let text = '';
  for (const r of readRecord(record)) {
    if (r.method === 'textDocument/didOpen') text = r.message.params.textDocument.text;
    if (r.method !== 'textDocument/didChange') continue;
    for (const c of r.message.params.contentChanges) {
      if (!c.range) { text = c.text; continue; }
      const offset = (p: { line: number, character: number }) => {
        let at = 0;
        for (let l = 0; l < p.line; l++) at = text.indexOf('\n', at) + 1;
        return at + p.character;
      };
      text = text.slice(0, offset(c.range.start)) + c.text + text.slice(offset(c.range.end));
    }
  }
  return text;
}

/** sync is the document traffic after didOpen: [method, params] pairs. */
const sync = (record: string) => readRecord(record)
  .filter((r) => r.method === 'textDocument/didChange' || r.method === 'textDocument/didSave')
  .map((r) => [r.method, r.message.params]);

test('a save sends the final didChange, then didSave with the persisted text to an includeText server', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  await setUp(page, demo, record, { openClose: true, change: 2, save: { includeText: true } });

  await typeAtEnd(page, '// saved');
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  const text = await liveText(page);
  expect(fs.readFileSync(path.join(demo.workspace, FILE), 'utf8')).toBe(text);

  await expect.poll(() => methods(record)).toContain('textDocument/didSave');
  const seq = sync(record);
  const save = seq.findIndex(([m]) => m === 'textDocument/didSave');
  // Incremental changes (one per typed character, batched), all before didSave.
  expect(seq.slice(0, save).every(([m]) => m === 'textDocument/didChange')).toBe(true);
  expect(save).toBeGreaterThan(0);
  const last = seq[save - 1][1];
  expect(last.contentChanges.every((c: any) => c.range)).toBe(true);
  expect(seq[save][1]).toEqual({ textDocument: { uri: last.textDocument.uri }, text });
  expect(seq.length).toBe(save + 1);
  expect(serverText(record), 'the server holds the saved file').toBe(text);
});

// A full-text server's changes wait for the typing to pause (200 ms): an
// edit saved in the same moment is still held back when the save starts.
// The save sends it first, then didSave, and the server's text is the file.
test('a change still held back for a full-text server goes out before didSave; the server then holds the saved file', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  await setUp(page, demo, record, { openClose: true, change: 1, save: { includeText: false } });
  const changes = () => methods(record).filter((m) => m === 'textDocument/didChange').length;
  const before = changes();

  // The edit and the save in one task of the page: no timer can run between.
  await page.evaluate(() => {
    const { editor, save } = (window as any).demo;
    const m = editor.getModel();
    const end = m.getFullModelRange().getEndPosition();
    editor.executeEdits('e2e', [{ range: { startLineNumber: end.lineNumber, startColumn: end.column, endLineNumber: end.lineNumber, endColumn: end.column }, text: '// held' }]);
    save();
  });
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  const text = await liveText(page);
  expect(fs.readFileSync(path.join(demo.workspace, FILE), 'utf8')).toBe(text);
  await expect.poll(() => methods(record)).toContain('textDocument/didSave');
  const seq = sync(record);
  const save = seq.findIndex(([m]) => m === 'textDocument/didSave');
  expect(seq[save - 1]).toEqual(['textDocument/didChange', expect.objectContaining({ contentChanges: [{ text }] })]);
  expect(seq[save][1].text).toBeUndefined();
  expect(changes() - before, 'one change, flushed by the save').toBe(1);
  // Barrier: a later edit's change is recorded after anything the save
  // could still have sent; the held change was not sent twice.
  await afterNextChange(page, record);
  expect(sync(record).filter(([m, p]) => m === 'textDocument/didChange' && p.contentChanges[0].text === text)).toHaveLength(1);
  expect(serverText(record)).toBe(await liveText(page));
});

test('typing during an in-flight save keeps the newer buffer dirty and omits the stale text', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  await setUp(page, demo, record, { openClose: true, change: 1, save: { includeText: true } });

  // Hold the write until the user has typed again.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/api/v1/workspace/file?**', async (route: any) => {
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  await typeAtEnd(page, '// one');
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-state', 'saving');
  const persisted = await liveText(page);
  await page.keyboard.type(' two');
  const newer = await liveText(page);
  release();

  await expect(saveState(page)).toHaveAttribute('data-state', 'dirty');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toContainText('●');
  expect(fs.readFileSync(path.join(demo.workspace, FILE), 'utf8')).toBe(persisted);

  await expect.poll(() => methods(record)).toContain('textDocument/didSave');
  const seq = sync(record);
  const save = seq.findIndex(([m]) => m === 'textDocument/didSave');
  // The server's document is the newer buffer, never rewound to the saved one.
  expect(seq[save - 1][0]).toBe('textDocument/didChange');
  expect(seq[save - 1][1].contentChanges).toEqual([{ text: newer }]);
  expect(seq[save][1].text).toBeUndefined();
});

test.describe(() => {
  test.use({
    expectedPageErrors: [{
      pattern: /^Failed to load resource: the server responded with a status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/workspace\/file\?path=src%2Fmain\.rs:0\)$/,
      why: 'the test makes the write fail on purpose (the file is a folder): the agent answers the save with 400, which Chromium logs',
    }],
  });

  test('a failed write sends no save notification', async ({ page, demo }, testInfo) => {
    const record = testInfo.outputPath('record.jsonl');
    await setUp(page, demo, record, { openClose: true, change: 2, save: { includeText: true } });

    // The agent cannot write a folder: its file route answers an error.
    const file = path.join(demo.workspace, FILE);
    fs.rmSync(file);
    fs.mkdirSync(file);
    try {
      await typeAtEnd(page, '// lost');
      await page.keyboard.press('Control+s');
      await expect(saveState(page)).toHaveAttribute('data-state', 'failed');
      await expect(saveState(page)).toHaveText('Save failed');
      // The edit still reaches the server, but no didSave.
      await expect.poll(() => methods(record)).toContain('textDocument/didChange');
      // Barrier: lsp.saved ran before "Save failed" showed, so a later edit's
      // didChange is recorded after any save notification it sent.
      await afterNextChange(page, record);
      expect(methods(record)).not.toContain('textDocument/didSave');
    } finally {
      fs.rmSync(file, { recursive: true });
    }
  });
});

test('a server without includeText gets didSave without text; one without save gets none', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  await setUp(page, demo, record, { openClose: true, change: 2, save: true });
  await typeAtEnd(page, '// plain');
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => methods(record)).toContain('textDocument/didSave');
  const seq = sync(record);
  const save = seq.findIndex(([m]) => m === 'textDocument/didSave');
  expect(seq[save - 1][0]).toBe('textDocument/didChange');
  expect(seq[save][1].text).toBeUndefined();

  const record2 = testInfo.outputPath('record2.jsonl');
  await setUp(page, demo, record2, { openClose: true, change: 2 });
  await typeAtEnd(page, '// unsaved');
  await page.keyboard.press('Control+s');
  await expect(saveState(page)).toHaveAttribute('data-state', 'saved');
  // The final didChange still goes out at once; no didSave ever.
  await expect.poll(() => methods(record2)).toContain('textDocument/didChange');
  await afterNextChange(page, record2);
  expect(methods(record2)).not.toContain('textDocument/didSave');
});
