import { expect, type Locator, type Page } from '@playwright/test';

// Server-reported progress whose title is a long URL and whose message is a
// long path, neither with an ordinary break point, for the wrapping checks
// of the popover, the drawer and the page.
export const LONG_URL = 'https://example.com/' + 'averyveryverylongsegmentwithoutanybreakpoint'.repeat(6) + '/index.html';
export const LONG_PATH = '/workspace/' + 'deeply_nested_directory_name_without_breaks'.repeat(6) + '/src/main.rs';

/** longProgress is a fake-server script: one active work item with both. */
export const longProgress = {
  progress: [{ on: 'initialized', token: 'long', create: true, kind: 'begin', title: LONG_URL, message: LONG_PATH, percentage: 5 }],
};

/** pageFits asserts that the document does not scroll sideways. */
export async function pageFits(page: Page) {
  await settled(page);
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll, 'document scrollWidth <= clientWidth').toBeLessThanOrEqual(client);
}

/** settled waits (5 s at most) until the page no longer overflows
 * sideways: right after a resize Monaco lays the editor out again on the
 * next frame, and the document is as wide as the old window until then.
 * An overflow that stays fails the assertions that follow. */
async function settled(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), { timeout: 5_000 })
    .toBe(true).catch(() => {});
}

/** fits asserts that nothing in el, nor the page, overflows sideways, and
 * that el lies inside the window. Text for assistive technology only
 * (.visually-hidden) is clipped to a pixel on purpose and not counted. */
export async function fits(page: Page, el: Locator) {
  await settled(page);
  const widths = await el.evaluate((node) => {
    const all = [node, ...Array.from(node.querySelectorAll('*'))] as HTMLElement[];
    const worst = all.filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth && e.clientWidth > 0
      && !e.classList.contains('visually-hidden'))
      .map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
    const r = node.getBoundingClientRect();
    return { worst, right: r.right, left: r.left, doc: [document.documentElement.scrollWidth, document.documentElement.clientWidth] };
  });
  expect(widths.worst, 'elements wider than their box').toEqual([]);
  expect(widths.left).toBeGreaterThanOrEqual(0);
  expect(widths.right).toBeLessThanOrEqual(widths.doc[1]);
  expect(widths.doc[0], 'document scrollWidth <= clientWidth').toBeLessThanOrEqual(widths.doc[1]);
}

/** fullText asserts that el shows both texts in full. */
export async function fullText(el: Locator) {
  const text = await el.innerText();
  // Wrapping may not cut, hide or ellipsize: the whole strings are there.
  expect(text.replace(/\s+/g, '')).toContain(LONG_URL);
  expect(text.replace(/\s+/g, '')).toContain(LONG_PATH);
}
