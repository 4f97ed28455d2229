import type { Locator, Page, TestInfo } from '@playwright/test';
import { demoTest, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, cursorAt, hoverUntil, waitReady } from './editor';
import { fits, pageFits } from './longtext';

// The demo's Go to Symbol in Workspace picker, its call- and
// type-hierarchy panel and its handling of a server's window/showDocument
// for a web page, against real gopls over e2e/workspaces/hierarchy: main
// and report (main.go) call greet.Greet (greet/greet.go), which calls
// punctuate; shapes.Square and shapes.Circle implement shapes.Shape.
const test = demoTest({ sample: 'e2e/workspaces/hierarchy' });

const picker = (page: Page) => page.locator('#symbol-picker');
const query = (page: Page) => page.locator('#symbol-query');
const options = (page: Page) => page.locator('#symbol-results [role="option"]');
const option = (page: Page, name: string) => page.locator(`#symbol-results [role="option"][data-name="${name}"]`);
const panel = (page: Page) => page.locator('#hierarchy-panel');
/** item is the tree row of a symbol, at a level (1: the root). */
const item = (page: Page, name: string, level: number) =>
  page.locator(`#hierarchy-tree [role="treeitem"][data-name="${name}"][aria-level="${level}"]`);
/** children are the names listed under a row, in order. */
const children = (row: ReturnType<typeof item>) =>
  row.locator(':scope > [role="group"] > [role="treeitem"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));

/** editorState is the file on screen, its selection and the selected text. */
function editorState(page: Page) {
  return page.evaluate(() => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const s = editor.getSelection();
    return {
      uri: model && model.uri.toString(),
      selection: s && { startLineNumber: s.startLineNumber, startColumn: s.startColumn, endLineNumber: s.endLineNumber, endColumn: s.endColumn },
      text: model && s ? model.getValueInRange(s) : null,
    };
  });
}

const editorFocused = (page: Page) => page.evaluate(() => (window as any).demo.editor.hasTextFocus());

/** shot keeps a screenshot of the page as a test artifact. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** openGo opens a Go file and waits for gopls. */
async function openGo(page: Page, path = 'main.go') {
  await openFile(page, path);
  await waitReady(page);
}

/**
 * search types q into the open picker until gopls answers with the symbol
 * name: right after start-up gopls may still be loading the workspace and
 * answer with less, as a person would type again.
 */
async function search(page: Page, q: string, name: string) {
  await expect(async () => {
    await query(page).fill('');
    await query(page).pressSequentially(q);
    await expect(option(page, name).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * menuAction opens one of Monaco's code-action menus (quick fix or source
 * action) at text and chooses the action titled title; a menu opened while
 * gopls still loads is opened again.
 */
async function menuAction(page: Page, menu: string, at: string, title: string | RegExp) {
  const row = page.locator('.action-widget .monaco-list-row').filter({ hasText: title });
  await expect(async () => {
    await page.keyboard.press('Escape');
    await cursorAt(page, at, 1);
    await action(page, menu);
    await row.click({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

/** rightClick opens the editor's context menu at the first match of text, plus offset columns. */
async function rightClick(page: Page, text: string, offset = 0) {
  const at = await page.evaluate(({ text, offset }) => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches(text, false, false, true, null, false)[0];
    const pos = { lineNumber: m.range.startLineNumber, column: m.range.startColumn + offset };
    editor.revealPositionInCenter(pos);
    const p = editor.getScrolledVisiblePosition(pos);
    const box = editor.getDomNode().getBoundingClientRect();
    return { x: box.left + p.left + 2, y: box.top + p.top + p.height / 2 };
  }, { text, offset });
  await page.mouse.click(at.x, at.y, { button: 'right' });
}

test.beforeEach(async ({ page }) => {
  await openDemo(page);
});

test('gopls: Ctrl+O finds a function of another package, and a pick opens it at the symbol', async ({ page }) => {
  await openGo(page);
  // Ctrl+O, not VS Code's Ctrl+T, which a browser keeps for a new tab.
  await expect(page.locator('#open-symbols')).toHaveAttribute('title', 'Go to Symbol in Workspace (Ctrl+O)');
  await cursorAt(page, 'report()');
  await page.keyboard.press('Control+o');
  await expect(picker(page)).toBeVisible();
  await expect(query(page)).toBeFocused();
  await expect(picker(page).locator('.quick-pick-title')).toHaveText('Go to Symbol in Workspace');
  await expect(page.locator('#symbol-status')).toHaveText('Type to search the symbols of the workspace.');

  await search(page, 'Greet', 'Greet');
  const greet = option(page, 'Greet');
  await expect(greet).toHaveCount(1);
  await expect(greet.locator('.symbol-container')).toHaveText('example.com/hierarchy/greet');
  await expect(greet.locator('.symbol-path')).toHaveText('greet/greet.go');
  await expect(greet.locator('.symbol-kind')).toHaveAttribute('aria-label', 'Function');
  // The first row is the active one; the query box names it for assistive technology.
  await expect(options(page).first()).toHaveAttribute('aria-selected', 'true');
  const first = await options(page).first().getAttribute('id');
  await expect(query(page)).toHaveAttribute('aria-activedescendant', first!);
  await expect(query(page)).toHaveAttribute('aria-expanded', 'true');

  // Down and Up move the active row; the focus stays in the query box.
  const count = await options(page).count();
  expect(count).toBeGreaterThan(1);
  await page.keyboard.press('ArrowDown');
  await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options(page).first()).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp'); // wraps to the last row
  await expect(options(page).nth(count - 1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(greet).toHaveAttribute('aria-selected', 'true');
  await expect(query(page)).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(picker(page)).toBeHidden();
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#files button.file[data-path="greet/greet.go"]')).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => editorState(page)).toEqual({
    uri: 'kandev://demo/greet/greet.go',
    selection: { startLineNumber: 5, startColumn: 6, endLineNumber: 5, endColumn: 11 },
    text: 'Greet',
  });
  await expect.poll(() => editorFocused(page)).toBe(true);
});

test('gopls: the picker asks for the latest query, closes on Escape and opens from the toolbar and F1', async ({ page }) => {
  // The user's gopls settings widen the search to the toolchain and the
  // module cache (the catalog's default is the workspace alone).
  await putSettings(page, { lsp_server_configs: { go: { gopls: { symbolScope: 'all' } } } });
  await page.reload();
  await openDemo(page);
  await openGo(page);
  await page.locator('#open-symbols').click();
  await expect(query(page)).toBeFocused();
  await search(page, 'Greet', 'Greet');

  // Typing on: the rows are those of what the box says now.
  await query(page).fill('');
  await query(page).pressSequentially('Tota');
  await expect(option(page, 'Total')).toBeVisible();
  await expect(option(page, 'Greet')).toHaveCount(0);
  await expect(page.locator('#symbol-status')).toHaveText(/^\d+ symbols?$/);

  // A symbol of the toolchain (symbolScope "all") opens read-only.
  await query(page).fill('Println');
  const println = option(page, 'Println');
  await expect(println).toBeVisible();
  await expect(println).toHaveAttribute('data-library', 'true');
  await expect(println).not.toHaveAttribute('aria-disabled', 'true');
  await expect(println.locator('.symbol-path')).toHaveText(/\/src\/fmt\/print\.go$/);
  await println.click();
  await expect(picker(page)).toBeHidden();
  await expect(page.locator('#current-file')).toHaveText(/\/src\/fmt\/print\.go \(read-only\)$/);
  await expect.poll(() => editorState(page).then((s) => s.text)).toBe('Println');
  await page.locator('#tabs [role="tab"][data-path="main.go"]').click();
  await page.locator('#open-symbols').click();
  await expect(query(page)).toBeFocused();

  // A query without a match says so.
  await query(page).fill('Zzqqxxnothing');
  await expect(page.locator('#symbol-status')).toHaveText('No symbols match “Zzqqxxnothing”.');
  await expect(options(page)).toHaveCount(0);

  // Escape closes and gives the editor its focus back.
  await page.keyboard.press('Escape');
  await expect(picker(page)).toBeHidden();
  await expect.poll(() => editorFocused(page)).toBe(true);

  // F1, the command palette, lists it; a click picks a row.
  await page.keyboard.press('F1');
  const palette = page.locator('.quick-input-widget');
  await expect(palette).toBeVisible();
  await page.keyboard.type('Go to Symbol in Workspace');
  await expect(palette.locator('.monaco-list-row', { hasText: 'Go to Symbol in Workspace' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(query(page)).toBeFocused();
  await query(page).pressSequentially('punctuate');
  await option(page, 'punctuate').click();
  await expect.poll(() => editorState(page).then((s) => [s.uri, s.text])).toEqual(['kandev://demo/greet/greet.go', 'punctuate']);

  // A click elsewhere closes it too, and the toolbar button toggles it.
  await page.locator('#open-symbols').click();
  await expect(picker(page)).toBeVisible();
  await page.locator('#current-file').click();
  await expect(picker(page)).toBeHidden();
  await page.locator('#open-symbols').click();
  await expect(picker(page)).toBeVisible();
  await page.locator('#open-symbols').click();
  await expect(picker(page)).toBeHidden();

  // Its texts are the catalog's.
  await page.locator('#locale').selectOption('de');
  await expect(page.locator('#open-symbols')).toHaveText('Symbole');
  await page.locator('#open-symbols').click();
  await expect(picker(page).locator('.quick-pick-title')).toHaveText('Gehe zu Symbol im Arbeitsbereich');
  await expect(query(page)).toHaveAttribute('placeholder', 'Name einer Funktion, eines Typs oder eines anderen Symbols');
  await query(page).pressSequentially('Greet');
  await expect(option(page, 'Greet').locator('.symbol-kind')).toHaveAttribute('aria-label', 'Funktion');
});

test('gopls: the call hierarchy lists the callers; a caller opens at its call site, and outgoing calls list the callees', async ({ page }) => {
  await openGo(page);
  await cursorAt(page, 'Greet("Kandev")', 1);
  await page.keyboard.press('Shift+Alt+KeyH');
  await expect(panel(page)).toBeVisible();
  await expect(page.locator('#hierarchy-title')).toHaveText('Call Hierarchy');
  await expect(panel(page).locator('[data-direction="incoming"]')).toHaveAttribute('aria-pressed', 'true');
  const root = item(page, 'Greet', 1);
  await expect(root).toHaveAttribute('aria-expanded', 'true');
  await expect(root.locator(':scope > .hierarchy-row .hierarchy-detail')).toContainText('greet.go');
  await expect.poll(() => children(root)).toEqual(['main', 'report']);

  // A caller opens where it calls: the call in report, not report itself.
  await item(page, 'report', 2).locator(':scope > .hierarchy-row .hierarchy-name').click();
  await expect.poll(() => editorState(page)).toEqual({
    uri: 'kandev://demo/main.go',
    selection: { startLineNumber: 19, startColumn: 20, endLineNumber: 19, endColumn: 25 },
    text: 'Greet',
  });

  // A level is asked for when it opens: report's caller is main.
  const report = item(page, 'report', 2);
  await expect(report).toHaveAttribute('aria-expanded', 'false');
  await report.locator(':scope > .hierarchy-row .twisty').click();
  await expect(report).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => children(report)).toEqual(['main']);
  await item(page, 'main', 3).locator(':scope > .hierarchy-row').click();
  await expect.poll(() => editorState(page).then((s) => [s.selection!.startLineNumber, s.text])).toEqual([14, 'report']);

  // Outgoing: what Greet calls.
  await panel(page).locator('[data-direction="outgoing"]').click();
  await expect(panel(page).locator('[data-direction="outgoing"]')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => children(item(page, 'Greet', 1))).toEqual(['punctuate']);
  await item(page, 'punctuate', 2).locator(':scope > .hierarchy-row').click();
  await expect.poll(() => editorState(page)).toEqual({
    uri: 'kandev://demo/greet/greet.go',
    selection: { startLineNumber: 10, startColumn: 6, endLineNumber: 10, endColumn: 15 },
    text: 'punctuate',
  });

  // From main, through the context menu: its callees, the toolchain's Println among them.
  await openFile(page, 'main.go');
  const main = item(page, 'main', 1);
  const menuItem = page.locator('.context-view .action-label', { hasText: 'Show Call Hierarchy' });
  await rightClick(page, 'main() {', 1);
  await expect(menuItem).toBeVisible();
  // The menu offers it; its shortcut runs it. A click on Monaco's menu item
  // was not taken in 2 of 3 runs on a loaded machine even once the item
  // listened for it, which tests Monaco's menu, not the hierarchy.
  await page.keyboard.press('Escape');
  await expect(menuItem).toBeHidden();
  await page.keyboard.press('Shift+Alt+KeyH');
  await expect(main).toBeVisible();
  // The direction chosen last stays.
  await expect(panel(page).locator('[data-direction="outgoing"]')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => children(main).then((n) => [...n].sort())).toEqual(['Greet', 'Println', 'report']);
  await expect(item(page, 'Println', 2)).toHaveAttribute('data-library', 'true'); // opens read-only
  await expect(item(page, 'Println', 2)).toHaveAttribute('data-path', /\/src\/fmt\/print\.go$/);
});

test('gopls: the hierarchy tree works from the keyboard', async ({ page }) => {
  await openGo(page, 'greet/greet.go');
  await cursorAt(page, 'punctuate(s string)', 1);
  await page.keyboard.press('Shift+Alt+KeyH');
  const root = item(page, 'punctuate', 1);
  await expect.poll(() => children(root)).toEqual(['Greet']);
  await root.focus();
  await page.keyboard.press('ArrowDown');
  await expect(item(page, 'Greet', 2)).toBeFocused();
  await page.keyboard.press('ArrowRight'); // expands
  await expect(item(page, 'Greet', 2)).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => children(item(page, 'Greet', 2))).toEqual(['main', 'report']);
  await page.keyboard.press('ArrowRight'); // to the first child
  await expect(item(page, 'main', 3)).toBeFocused();
  await page.keyboard.press('End');
  await expect(item(page, 'report', 3)).toBeFocused();
  await page.keyboard.press('ArrowLeft'); // to the parent
  await expect(item(page, 'Greet', 2)).toBeFocused();
  await page.keyboard.press('ArrowLeft'); // collapses
  await expect(item(page, 'Greet', 2)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter'); // the call of punctuate in Greet
  await expect.poll(() => editorState(page).then((s) => [s.selection!.startLineNumber, s.text])).toEqual([6, 'punctuate']);
  await expect.poll(() => editorFocused(page)).toBe(true);

  // Escape in the panel closes it.
  await item(page, 'punctuate', 1).focus();
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();

  // Nothing to show at a place without a symbol: the panel says so.
  await cursorAt(page, '// Package greet', 0);
  await page.keyboard.press('Shift+Alt+KeyH');
  await expect(page.locator('#hierarchy-empty')).toHaveText('No call hierarchy for the symbol at the cursor.');
  await expect(page.locator('#hierarchy-tree [role="treeitem"]')).toHaveCount(0);
  await page.locator('#hierarchy-close').click();
  await expect(panel(page)).toBeHidden();
});

test('gopls: the type hierarchy lists the types that implement an interface, and their supertypes', async ({ page }) => {
  await openGo(page, 'shapes/shapes.go');
  await cursorAt(page, 'Shape interface', 1);
  await action(page, 'kandev.typeHierarchy');
  await expect(page.locator('#hierarchy-title')).toHaveText('Type Hierarchy');
  await expect(panel(page).locator('[data-direction="subtypes"]')).toHaveAttribute('aria-pressed', 'true');
  const shape = item(page, 'Shape', 1);
  await expect(shape.locator('.symbol-kind').first()).toHaveAttribute('aria-label', 'Interface');
  await expect.poll(() => children(shape)).toEqual(['Circle', 'Square']);
  await item(page, 'Square', 2).locator(':scope > .hierarchy-row').click();
  await expect.poll(() => editorState(page).then((s) => [s.selection!.startLineNumber, s.text])).toEqual([10, 'Square']);

  await cursorAt(page, 'Square struct', 1);
  await action(page, 'kandev.typeHierarchy');
  await expect(item(page, 'Square', 1)).toBeVisible();
  await panel(page).locator('[data-direction="supertypes"]').click();
  await expect.poll(() => children(item(page, 'Square', 1))).toEqual(['Shape']);

  // Its texts, and the editor actions' labels, are the catalog's.
  await page.locator('#locale').selectOption('de');
  await expect(page.locator('#hierarchy-title')).toHaveText('Typhierarchie');
  await expect(panel(page).locator('[data-direction="supertypes"]')).toHaveText('Obertypen');
  await expect(panel(page).locator('[data-direction="subtypes"]')).toHaveText('Untertypen');
  await expect(page.locator('#hierarchy-close')).toHaveAccessibleName('Hierarchie schließen');
  await expect(item(page, 'Shape', 2).locator('.symbol-kind').first()).toHaveAttribute('aria-label', 'Schnittstelle');
  expect(await page.evaluate(() => ['kandev.callHierarchy', 'kandev.typeHierarchy', 'kandev.workspaceSymbols']
    .map((id) => (window as any).demo.editor.getAction(id).label)))
    .toEqual(['Aufrufhierarchie anzeigen', 'Typhierarchie anzeigen', 'Gehe zu Symbol im Arbeitsbereich']);
});

test('gopls: Browse gopls feature documentation is offered in a notice, opened only on Open, and gopls goes on', async ({ page, context }, testInfo) => {
  // go.dev is out of reach here: a stand-in answers for it.
  await context.route('https://go.dev/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Gopls: Index of features</title>' }));
  await openGo(page);
  await menuAction(page, 'editor.action.quickFix', 'Greet("Kandev")', 'Browse gopls feature documentation');

  // gopls sent window/showDocument for an external http URL: the page's
  // openExternal shows it, and nothing opened by itself.
  const notice = page.locator('.notice.external-notice[data-url="https://go.dev/gopls/features"]');
  await expect(notice).toBeVisible();
  await expect(notice.locator('strong')).toHaveText('Open a web page?');
  await expect(notice.locator('p')).toHaveText('The language server asks to open https://go.dev/gopls/features');
  const open = notice.getByRole('button', { name: 'Open' });
  await expect(open).toBeFocused(); // gopls asks for the focus
  expect(context.pages()).toHaveLength(1);
  await shot(page, testInfo, 'external-notice');

  // gopls was answered at once: it keeps answering while the notice waits.
  await cursorAt(page, 'Greet("Kandev")', 1);
  await hoverUntil(page, 'Greet("Kandev")', 'Greet returns a friendly greeting');
  expect(context.pages()).toHaveLength(1);

  const popup = context.waitForEvent('page');
  await open.click();
  const tab = await popup;
  await expect(tab).toHaveURL('https://go.dev/gopls/features');
  await expect(tab).toHaveTitle('Gopls: Index of features');
  await expect(notice).toHaveCount(0);
  await tab.close();
});

test('gopls: Browse documentation opens gopls\' own page on Open; a dismissed notice opens nothing', async ({ page, context }) => {
  await openGo(page);
  const notices = page.locator('.notice.external-notice');

  // Dismissed with Escape: nothing opens.
  await menuAction(page, 'editor.action.sourceAction', 'Greet("Kandev")', 'Browse documentation for func greet.Greet');
  await expect(notices).toHaveCount(1);
  const url = await notices.getAttribute('data-url');
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gopls\/[^/]+\/pkg\/example\.com\/hierarchy\/greet\?view=1#Greet$/);
  await expect(notices.locator('p')).toHaveText(`The language server asks to open ${url}`);
  await page.keyboard.press('Escape');
  await expect(notices).toHaveCount(0);
  await expect.poll(() => editorFocused(page)).toBe(true);
  // Barrier: a hover answered by gopls after the dismissal. A tab the
  // dismissal opened, or one opened on gopls's answer to it, would be
  // there by now.
  await hoverUntil(page, 'Greet("Kandev")', 'Greet returns a friendly greeting');
  expect(context.pages()).toHaveLength(1);

  // Asked again and opened: gopls' documentation server answers the tab.
  await menuAction(page, 'editor.action.sourceAction', 'Greet("Kandev")', 'Browse documentation for func greet.Greet');
  const popup = context.waitForEvent('page');
  await notices.getByRole('button', { name: 'Open' }).click();
  const tab = await popup;
  await expect(tab).toHaveURL(url!);
  await expect(tab.locator('body')).toContainText('Greet returns a friendly greeting for name.');
  await tab.close();
});

test('narrow screens: the picker and the hierarchy panel fit; on a phone their rows open the read-only viewer', async ({ page }, testInfo) => {
  await openGo(page);
  await cursorAt(page, 'Greet("Kandev")', 1);
  await page.keyboard.press('Shift+Alt+KeyH');
  await expect.poll(() => children(item(page, 'Greet', 1))).toEqual(['main', 'report']);
  await page.locator('#open-symbols').click();
  await search(page, 'Greet', 'Greet');
  await shot(page, testInfo, 'hierarchy-desktop');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(option(page, 'Greet')).toBeVisible();
  await fits(page, picker(page));
  await pageFits(page);
  await shot(page, testInfo, 'symbols-phone');
  await option(page, 'Greet').click();
  await expect(page.locator('#current-file')).toHaveText('greet/greet.go');
  await expect(page.locator('#phone-view')).toBeVisible();
  await expect.poll(() => page.evaluate(() => getSelection()!.toString())).toBe('Greet');

  await expect(item(page, 'report', 2)).toBeVisible();
  await fits(page, panel(page));
  await fits(page, page.locator('.toolbar'));
  await pageFits(page);
  await shot(page, testInfo, 'hierarchy-phone');
  await item(page, 'report', 2).locator(':scope > .hierarchy-row').click();
  await expect(page.locator('#current-file')).toHaveText('main.go');
  await expect.poll(() => page.evaluate(() => getSelection()!.toString())).toBe('Greet');
});
