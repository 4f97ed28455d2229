import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoTest, expect, openDemo, openFile, openSettings } from './fixtures';
import { cursorAt, waitReady } from './editor';

// The page's accessibility: axe-core over its main views, and journeys
// made with the keyboard alone, real gopls over e2e/workspaces/problems
// (main.go calls shapes.Area; shapes/perimeter.go has a type error the
// Problems panel lists).
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

/** focusedIs tells whether the focused element matches selector. */
const focusedIs = (page: Page, selector: string) => page.evaluate((sel) => !!document.activeElement?.matches(sel), selector);

/**
 * tabTo presses key (Tab or Shift+Tab) until the element matching selector
 * has the focus, at most max times.
 */
async function tabTo(page: Page, key: 'Tab' | 'Shift+Tab', selector: string, max = 20) {
  for (let i = 0; i < max && !(await focusedIs(page, selector)); i++) await page.keyboard.press(key);
  expect(await focusedIs(page, selector), `${key} reaches ${selector}`).toBe(true);
}

const editorFocused = (page: Page) => page.evaluate(() => (window as any).demo.editor.hasTextFocus());
const modelText = (page: Page) => page.evaluate(() => (window as any).demo.editor.getModel().getValue() as string);

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

test('keyboard: Ctrl+M lets Tab leave the editor, and the status control stops and starts gopls', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  const toggle = page.locator('#toggle-tab-focus');
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveText('Tab moves focus Ctrl+M');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  // The editor's accessible name tells how to leave it.
  await expect(page.locator('#editor [aria-label*="Ctrl+M switches Tab"]').first()).toBeAttached();

  // In the editor Tab indents...
  await cursorAt(page, 'report.Name', 0);
  const before = await modelText(page);
  await page.keyboard.press('Tab');
  await expect.poll(() => modelText(page)).not.toBe(before);
  await page.keyboard.press('Control+z');
  await expect.poll(() => modelText(page)).toBe(before);
  // ...until Ctrl+M: then Tab and Shift+Tab move the focus.
  await page.keyboard.press('Control+m');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#page-announce')).toHaveText('Tab now moves the focus.');
  await page.keyboard.press('Shift+Tab');
  await expect.poll(() => editorFocused(page)).toBe(false);
  expect(await modelText(page)).toBe(before);

  // Back through the toolbar to the status control; Enter opens it on Stop.
  await tabTo(page, 'Shift+Tab', '#lsp-status');
  const status = page.locator('#lsp-status');
  const action = page.locator('#lsp-action');
  await page.keyboard.press('Enter');
  await expect(page.locator('#lsp-popover')).toBeVisible();
  await expect(action).toBeFocused();
  await expect(action).toHaveText('Stop');
  await page.keyboard.press('Enter');
  await expect(status).toHaveAttribute('data-state', 'off');
  await expect(action).toHaveText('Start');
  await expect(action).toBeFocused();
  await page.keyboard.press('Enter');
  await waitReady(page);
  await expect(action).toHaveText('Stop');
  await expect(action).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('#lsp-popover')).toBeHidden();
  await expect(status).toBeFocused();

  // Forward again into the editor, and Ctrl+M gives Tab back to indenting.
  await tabTo(page, 'Tab', '#editor .monaco-editor *');
  await page.keyboard.press('Control+m');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
});

/** editorState is the file on screen and the selected text. */
const selected = (page: Page) => page.evaluate(() => {
  const { editor } = (window as any).demo;
  const model = editor.getModel();
  return { uri: model && model.uri.toString(), text: model ? model.getValueInRange(editor.getSelection()) : null };
});

test('keyboard: the Problems panel opens from its toggle, Enter opens a problem, and Escape closes it', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  const toggle = page.locator('#toggle-problems');
  const panel = page.locator('#problems-panel');
  const problem = page.locator('#problems .problem-file[data-path="shapes/perimeter.go"] .problem');
  // gopls has reported the error of the file nobody opened.
  await expect(toggle).toHaveAccessibleName('Problems: 1 error, 0 warnings', { timeout: 60_000 });

  await cursorAt(page, 'report.Name', 0);
  await page.keyboard.press('Control+m');
  await tabTo(page, 'Shift+Tab', '#toggle-problems');
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // Into the panel: the file's row, Down to its problem, Enter opens it.
  await expect(page.locator('#problems .problem-file summary').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(problem).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#current-file')).toHaveText('shapes/perimeter.go');
  await expect.poll(() => selected(page)).toEqual({ uri: 'kandev://demo/shapes/perimeter.go', text: '"four"' });
  await expect.poll(() => editorFocused(page)).toBe(true);

  // Tab reaches the panel again from the editor; Escape closes it.
  await tabTo(page, 'Tab', '#problems .problem');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('keyboard: Ctrl+O opens the symbol picker, in the editor and outside it; arrows and Enter pick', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  const picker = page.locator('#symbol-picker');
  const query = page.locator('#symbol-query');
  const options = page.locator('#symbol-results [role="option"]');
  await expect(page.locator('#open-symbols')).toHaveAttribute('aria-keyshortcuts', 'Control+O');

  // From the editor.
  await cursorAt(page, 'report.Name', 0);
  await page.keyboard.press('Control+o');
  await expect(picker).toBeVisible();
  await expect(picker).toHaveAccessibleName('Go to Symbol in Workspace');
  await expect(query).toBeFocused();
  await expect(async () => {
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('Area');
    await expect(options.first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  const names = await options.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));
  const at = names.indexOf('Area');
  expect(at).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp'); // the first row again, having moved
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
  await expect(options.nth(at)).toHaveAttribute('aria-selected', 'true');
  await expect(query).toHaveAttribute('aria-activedescendant', (await options.nth(at).getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  await expect.poll(() => selected(page)).toEqual({ uri: 'kandev://demo/shapes/area.go', text: 'Area' });
  await expect.poll(() => editorFocused(page)).toBe(true);

  // Outside the editor the key is the page's too, not the browser's file
  // dialog; Escape closes the picker and gives the focus back.
  await page.keyboard.press('Control+m');
  await tabTo(page, 'Shift+Tab', '#toggle-search');
  await page.keyboard.press('Control+o');
  await expect(picker).toBeVisible();
  await expect(query).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect.poll(() => editorFocused(page)).toBe(true);
});

test('keyboard: a shown call hierarchy takes the focus; arrows and Enter open a caller, Escape closes it', async ({ page }) => {
  await openFile(page, 'shapes/area.go');
  await waitReady(page);
  // The call hierarchy of Area: its tree takes the focus; Down to the
  // caller, Enter opens the call; Escape in the tree closes the panel.
  await cursorAt(page, 'Area(side', 0);
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Shift+Alt+KeyH');
  const panel = page.locator('#hierarchy-panel');
  await expect(panel).toBeVisible();
  const root = page.locator('#hierarchy-tree [role="treeitem"][aria-level="1"][data-name="Area"]');
  await expect(root).toBeFocused();
  const caller = page.locator('#hierarchy-tree [role="treeitem"][aria-level="2"][data-name="main"]');
  await expect(caller).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(caller).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => selected(page)).toEqual({ uri: 'kandev://demo/main.go', text: 'Area' });
  await expect.poll(() => editorFocused(page)).toBe(true);
  // Back into the tree by Tab (Tab moves focus is on), and out by Escape.
  await tabTo(page, 'Tab', '#hierarchy-tree [role="treeitem"]');
  await expect(caller).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect.poll(() => editorFocused(page)).toBe(true);
});
