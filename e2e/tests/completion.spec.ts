import { fakeTest as test, expect, openDemo, writeScript, putSettings, openFile } from './fixtures';
import { newLineAfter, suggestRows, waitReady } from './editor';
import type { Page } from '@playwright/test';

// A completion item without textEdit gets Monaco's current word as its
// range: accepted in the middle of a word, it replaces the word typed so
// far (Enter, Monaco's insert mode) or the whole word (Shift+Enter, its
// replace mode) — never appended after what was typed. The scripted server
// (standing in for rust-analyzer) answers with such an item.

const line = (page: Page) => page.evaluate(() => {
  const { editor } = (window as any).demo;
  return editor.getModel().getLineContent(editor.getPosition().lineNumber);
});

test('an item without textEdit accepted mid-word replaces the current word', async ({ page, demo }) => {
  writeScript(demo, {
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: {} },
    answers: { 'textDocument/completion': { isIncomplete: false, items: [{ label: 'alphabet', kind: 6 }] } },
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);

  await newLineAfter(page, 'fn main() {');
  await page.keyboard.type('let x = alXYZ;');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft'); // al|XYZ;
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect.poll(() => line(page)).toBe('let x = alphabetXYZ;');

  await page.keyboard.press('Control+z');
  await expect.poll(() => line(page)).toBe('let x = alXYZ;');
  await page.keyboard.press('Control+Space');
  await expect(suggestRows(page).filter({ hasText: 'alphabet' })).toHaveCount(1);
  await page.keyboard.press('Shift+Enter');
  await expect.poll(() => line(page)).toBe('let x = alphabet;');
});
