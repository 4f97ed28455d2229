import { test, expect, openDemo, openFile, markerMessages } from './fixtures';
import { cursorAt, waitReady } from './editor';
import type { Page } from '@playwright/test';

// The open tabs outlive a reload, as in a desktop editor: the same tabs in
// the same order, the one that was active, each file's cursor, and the
// language server back on the active file. And a file undone back to its
// saved text is no longer "unsaved".

const tabNames = (page: Page) => page.locator('#tabs [role="tab"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.path));
const position = (page: Page) => page.evaluate(() => {
  const p = (window as any).demo.editor.getPosition();
  return { line: p.lineNumber, column: p.column };
});

test('a reload brings back the open tabs, the active one, each cursor, and the server', async ({ page }) => {
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
  await cursorAt(page, '"three"', 2);
  const mainAt = await position(page);
  await openFile(page, 'greet/greet.go');
  await cursorAt(page, 'func ', 5);
  const greetAt = await position(page);
  await openFile(page, 'notes.txt');
  await page.locator('#tabs [role="tab"][data-path="greet/greet.go"]').click();
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  const before = await tabNames(page);
  expect(before).toEqual(['main.go', 'greet/greet.go', 'notes.txt']);

  await page.reload();
  await openDemo(page);
  await expect.poll(() => tabNames(page)).toEqual(before);
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#tabs [aria-selected="true"]')).toHaveAttribute('data-path', 'greet/greet.go');
  await expect.poll(() => position(page)).toEqual(greetAt);

  await page.locator('#tabs [role="tab"][data-path="main.go"]').click();
  await expect.poll(() => position(page)).toEqual(mainAt);
  await waitReady(page);
  await expect.poll(() => markerMessages(page)).toContainEqual(expect.stringContaining('cannot use "three"'));

  // A tab closed before the reload stays closed.
  await page.locator('#close-file').click();
  await expect.poll(() => tabNames(page)).toEqual(['greet/greet.go', 'notes.txt']);
  await page.reload();
  await openDemo(page);
  await expect.poll(() => tabNames(page)).toEqual(['greet/greet.go', 'notes.txt']);
});

test('undoing back to the saved text clears "Unsaved changes"; a save is the new saved text', async ({ page }) => {
  await openDemo(page);
  await openFile(page, 'notes.txt');
  const saveState = page.locator('#save-state');
  const tab = page.locator('#tabs [aria-selected="true"]');
  await expect(saveState).toHaveAttribute('data-state', 'saved');
  await cursorAt(page, 'Notes', 0);
  await page.keyboard.type('ab');
  await expect(saveState).toHaveAttribute('data-state', 'dirty');
  await expect(tab).toContainText('●');
  const undo = process.platform === 'darwin' ? 'Meta+z' : 'Control+z';
  await page.keyboard.press(undo);
  await expect(saveState).toHaveAttribute('data-state', 'saved');
  await expect(tab).not.toContainText('●');

  // Redo is unsaved again; a save makes it the saved text, and undoing
  // from there is unsaved.
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+Shift+z' : 'Control+y');
  await expect(saveState).toHaveAttribute('data-state', 'dirty');
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+s' : 'Control+s');
  await expect(saveState).toHaveAttribute('data-state', 'saved');
  await page.keyboard.press(undo);
  await expect(saveState).toHaveAttribute('data-state', 'dirty');
});
