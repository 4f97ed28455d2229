import { demoTest, expect, openDemo, openFile, putSettings } from './fixtures';
import type { Page } from '@playwright/test';

// The tab strip of a narrow window holds more tabs than it shows: the tab
// that becomes active is scrolled into view, whichever way it lies.
const test = demoTest({});

test.use({ viewport: { width: 760, height: 700 } });

const files = ['main.go', 'greet/greet.go', 'notes.txt', 'README.md', 'package.json', 'Dockerfile',
  'web/index.html', 'web/style.css', 'ts/main.ts', 'ts/greet.ts', 'deploy/service.yaml'];

/** inStrip reports whether the tab of path lies wholly within the strip's visible box. */
function inStrip(page: Page, path: string) {
  return page.evaluate((path) => {
    const strip = document.getElementById('tabs')!.getBoundingClientRect();
    const tab = document.querySelector(`#tabs [role="tab"][data-path="${path}"]`)!.getBoundingClientRect();
    return tab.left >= strip.left - 0.5 && tab.right <= strip.right + 0.5;
  }, path);
}

test('the tab strip scrolls to the tab that becomes active', async ({ page }) => {
  // No server: the strip is what is tested.
  await putSettings(page, { lsp_auto_start_languages: [] });
  await openDemo(page);
  for (const f of files) await openFile(page, f);
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(files.length);
  // More tabs than the strip shows.
  expect(await page.evaluate(() => { const s = document.getElementById('tabs')!; return s.scrollWidth > s.clientWidth; })).toBe(true);
  await expect.poll(() => inStrip(page, files[files.length - 1])).toBe(true);
  expect(await inStrip(page, files[0])).toBe(false);

  // Back to the first file from the tree: the strip scrolls back to it.
  await openFile(page, files[0]);
  await expect.poll(() => inStrip(page, files[0])).toBe(true);
  expect(await inStrip(page, files[files.length - 1])).toBe(false);
});
