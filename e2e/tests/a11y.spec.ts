import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoTest, expect, openDemo, openFile, openSettings } from './fixtures';
import { cursorAt, waitReady } from './editor';

// The page's accessibility: axe-core over its main views, real gopls over
// e2e/workspaces/problems (main.go calls shapes.Area; shapes/perimeter.go
// has a type error the Problems panel lists).
const test = demoTest({ sample: 'e2e/workspaces/problems' });

type Finding = { view: string; id: string; impact: string; help: string; targets: string[] };

/**
 * serious runs axe over the page as it is and returns its serious and
 * critical violations, each with the elements it names.
 */
async function serious(page: Page, view: string): Promise<Finding[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ view, id: v.id, impact: String(v.impact), help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test.beforeEach(async ({ page }) => {
  await openDemo(page);
});

test('axe finds no serious or critical violation in the main views', async ({ page }) => {
  const found: Finding[] = [];

  await openFile(page, 'main.go');
  await waitReady(page);
  found.push(...await serious(page, 'editor'));

  await page.locator('#lsp-status').click();
  await expect(page.locator('#lsp-popover')).toBeVisible();
  found.push(...await serious(page, 'status popover'));
  await page.keyboard.press('Escape');
  await expect(page.locator('#lsp-popover')).toBeHidden();

  await page.locator('#toggle-problems').click();
  await expect(page.locator('#problems .problem').first()).toBeVisible();
  found.push(...await serious(page, 'problems'));

  await cursorAt(page, 'Area(3)', 1);
  await page.keyboard.press('Shift+Alt+KeyH');
  await expect(page.locator('#hierarchy-tree [role="treeitem"][aria-level="2"]').first()).toBeVisible();
  found.push(...await serious(page, 'hierarchy'));

  await page.locator('#open-symbols').click();
  await expect(async () => {
    await page.locator('#symbol-query').fill('');
    await page.locator('#symbol-query').pressSequentially('Area');
    await expect(page.locator('#symbol-results [role="option"]').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  found.push(...await serious(page, 'symbol picker'));
  await page.keyboard.press('Escape');

  await openSettings(page);
  found.push(...await serious(page, 'settings'));

  expect(found, JSON.stringify(found, null, 2)).toEqual([]);
});
