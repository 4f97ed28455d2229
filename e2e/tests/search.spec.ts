import { test, expect, openDemo, openIn, openFile } from './fixtures';
import { activeModel, cursorAt } from './editor';

// The content search: the task host finds the lines holding a text in the
// session's workspace, through the same confined, authenticated file
// routes the Files tree uses. "demo" and "twin" are two sessions over the
// same directory, so both can have main.go open: a hit found in one
// session moves the cursor of that session's model only.

const panel = (page: any) => page.locator('#search-panel');
const hits = (page: any) => page.locator('#search-results .search-hit');

async function searchFor(page: any, text: string) {
  if (await panel(page).isHidden()) {
    await page.locator('#toggle-search').click();
    await expect(page.locator('#search-query')).toBeFocused();
  }
  await page.locator('#search-query').fill(text);
  await page.locator('#search-query').press('Enter');
}

/** selection is the editor's selection and the text it covers. */
const selection = (page: any) => page.evaluate(() => {
  const { editor } = (window as any).demo;
  const s = editor.getSelection();
  return { line: s.startLineNumber, text: editor.getModel().getValueInRange(s) };
});

test('a search hit opens in the session it was found in, at the match; the other session\'s editor of the same file keeps its cursor', async ({ page }) => {
  await openDemo(page);
  await openIn(page, 'demo', 'main.go');
  await cursorAt(page, 'package main');
  await openIn(page, 'twin', 'main.go');

  // A file not open yet in twin: it opens through the tree, cursor pending
  // until its content is there.
  await searchFor(page, 'FRIENDLY greeting');
  await expect(page.locator('#search-status')).toHaveText('2 matches');
  await expect(hits(page)).toHaveCount(2);
  const greet = hits(page).filter({ hasText: 'greet/greet.go:4' });
  await expect(greet.locator('mark')).toHaveText('friendly greeting');
  await greet.click();
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#session')).toHaveValue('twin');
  await expect.poll(() => activeModel(page)).toBe('kandev://twin/greet/greet.go');
  await expect.poll(() => selection(page)).toEqual({ line: 4, text: 'friendly greeting' });
  await expect(page.locator('#files button.folder[data-dir="greet"]')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#files button.file[data-path="greet/greet.go"]')).toHaveAttribute('aria-current', 'true');

  // twin's main.go, open in both sessions: the reveal goes to twin's model.
  await searchFor(page, 'greet.Hello(');
  await expect(page.locator('#search-status')).toHaveText('1 match');
  await hits(page).filter({ hasText: 'main.go:13' }).click();
  await expect.poll(() => activeModel(page)).toBe('kandev://twin/main.go');
  await expect.poll(() => selection(page)).toEqual({ line: 13, text: 'greet.Hello(' });
  expect(await page.locator('.tab').count()).toBe(3);

  // demo's main.go still has the cursor it was left with.
  await page.locator('.tab[data-id="demo:main.go"]').click();
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/main.go');
  expect(await selection(page)).toEqual({ line: 3, text: '' });
  await page.locator('.tab[data-id="twin:main.go"]').click();
  expect(await selection(page)).toEqual({ line: 13, text: 'greet.Hello(' });
});

test('nothing found says so; a query the task host refuses is answered, never hangs', async ({ page }) => {
  await openDemo(page);
  await searchFor(page, 'no such text anywhere 42');
  await expect(page.locator('#search-status')).toHaveText('No line contains “no such text anywhere 42”.');
  await expect(hits(page)).toHaveCount(0);
  // The route itself: a line break in the query is refused with 400.
  const bad = await page.request.get('/api/v1/workspace/search?q=' + encodeURIComponent('a\nb'));
  expect(bad.status()).toBe(400);
  // Escape closes the panel and gives the focus back.
  await page.locator('#search-query').press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(page.locator('#toggle-search')).toBeFocused();
});
