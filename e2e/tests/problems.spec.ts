import fs from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { demoTest, expect, openDemo, openFile, openIn, putSettings } from './fixtures';
import { waitReady } from './editor';
import { fits, pageFits } from './longtext';

// The demo's Problems panel: every file of the active session with
// diagnostics, open or not (lsp.problems), grouped by file; a row opens its
// file at the problem. Real gopls over e2e/workspaces/problems: main.go is
// correct, shapes/perimeter.go (another package, never opened by the test
// until it clicks the row) has a type error, report/report.go a printf
// warning. TypeScript 7 (tsgo) stands in for typescript-language-server
// for the pull-diagnostics case.
const test = demoTest({ npmServers: true, path: ['e2e/servers/tsgo'], sample: 'e2e/workspaces/problems' });

const perimeter = 'shapes/perimeter.go';
const typeError = 'cannot use "four" (untyped string constant) as int value in variable declaration';
const printfWarning = 'fmt.Printf format %d has arg name of wrong type string';

const panel = (page: Page) => page.locator('#problems-panel');
const badge = (page: Page) => page.locator('#problems-badge');
/** rows are the problems listed for a file. */
const rows = (page: Page, file: string) => page.locator(`#problems .problem-file[data-path="${file}"] .problem`);
/** listed is the files the panel lists, in order. */
const listed = (page: Page) => page.locator('#problems .problem-file').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.path));

async function showProblems(page: Page) {
  const toggle = page.locator('#toggle-problems');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(panel(page)).toBeVisible();
}

/** counts is what the toggle's badge says: errors and warnings. */
async function expectCounts(page: Page, errors: number, warnings: number) {
  await expect(badge(page)).toHaveAttribute('data-errors', String(errors));
  await expect(badge(page)).toHaveAttribute('data-warnings', String(warnings));
  await expect(badge(page).locator('.count[data-severity="error"]')).toHaveText(String(errors));
  await expect(badge(page).locator('.count[data-severity="warning"]')).toHaveText(String(warnings));
}

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

/** hasModel tells whether Monaco holds a model for the URI. */
function hasModel(page: Page, uri: string) {
  return page.evaluate((uri) => {
    const { monaco } = (window as any).demo;
    return !!monaco.editor.getModel(monaco.Uri.parse(uri));
  }, uri);
}

/** shot keeps a screenshot of the page as a test artifact. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test.beforeEach(async ({ page }) => {
  await openDemo(page);
});

test('gopls: a type error in a file nobody opened is listed, with the counts on the toggle', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  // Closed, the toggle still counts.
  await expect(panel(page)).toBeHidden();
  await expectCounts(page, 1, 0);
  await expect(page.locator('#toggle-problems')).toHaveAccessibleName('Problems: 1 error, 0 warnings');

  await showProblems(page);
  // gopls type-checks every package of the workspace and reports its
  // errors, opened or not; analyzer findings such as report/report.go's
  // printf warning only come for open files. main.go itself is clean.
  await expect.poll(() => listed(page)).toEqual([perimeter]);
  const row = rows(page, perimeter);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-severity', 'error');
  await expect(row.locator('.severity-icon')).toHaveAttribute('aria-label', 'Error');
  await expect(row.locator('.problem-message')).toHaveText(typeError);
  await expect(row.locator('.problem-source')).toHaveText('compiler(IncompatibleAssign)');
  await expect(row.locator('.problem-position')).toHaveText('5:18');
  await expect(page.locator(`#problems .problem-file[data-path="${perimeter}"] .problem-path`)).toHaveText(perimeter);
  // Listed, not opened: no tab and no model for it.
  await expect(page.locator(`#tabs .tab[data-path="${perimeter}"]`)).toHaveCount(0);
  expect(await hasModel(page, `kandev://demo/${perimeter}`)).toBe(false);

  // Its texts are the catalog's: German.
  await page.locator('#locale').selectOption('de');
  await expect(panel(page).locator('h2')).toHaveText('Probleme');
  await expect(page.locator('#toggle-problems .label')).toHaveText('Probleme');
  await expect(page.locator('#toggle-problems')).toHaveAccessibleName('Probleme: 1 Fehler, 0 Warnungen');
  await expect(row.locator('.severity-icon')).toHaveAttribute('aria-label', 'Fehler');

  // The page remembers the panel open, then closed.
  await page.reload();
  await openDemo(page);
  await expect(panel(page)).toBeVisible();
  await page.locator('#toggle-problems').click();
  await expect(panel(page)).toBeHidden();
  await expect(page.locator('#toggle-problems')).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await openDemo(page);
  await expect(panel(page)).toBeHidden();
});

test('gopls: a row opens its file in a tab with the problem selected', async ({ page }) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  await showProblems(page);
  await rows(page, perimeter).click();

  await expect(page.locator('#current-file')).toHaveText(perimeter);
  await expect(page.locator(`#tabs .tab[data-path="${perimeter}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(`#files button.file[data-path="${perimeter}"]`)).toHaveAttribute('aria-current', 'true');
  await expect.poll(() => editorState(page)).toEqual({
    uri: `kandev://demo/${perimeter}`,
    selection: { startLineNumber: 5, startColumn: 18, endLineNumber: 5, endColumn: 24 },
    text: '"four"',
  });
  await expect(page.locator('#status-bar-cursor')).toHaveText('Ln 5, Col 24');
  // Now open, the same problem is also the editor's marker, and still listed once.
  await expect(page.locator('.monaco-editor .squiggly-error')).toHaveCount(1);
  await expect(rows(page, perimeter)).toHaveCount(1);
  await expectCounts(page, 1, 0);

  // A second click on the open file's row moves back to the problem.
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 1, column: 1 }));
  await rows(page, perimeter).click();
  await expect.poll(() => editorState(page).then((s) => s.text)).toBe('"four"');
  await expect(page.locator('#tabs .tab')).toHaveCount(2);
});

test('gopls: fixing the error and saving takes its row away; the counts follow', async ({ page, demo }, testInfo) => {
  const file = path.join(demo.workspace, perimeter);
  const original = fs.readFileSync(file, 'utf8');
  try {
    await openFile(page, 'main.go');
    await waitReady(page);
    // report/report.go open: gopls adds its printf warning.
    await openFile(page, 'report/report.go');
    await showProblems(page);
    await expect.poll(() => listed(page)).toEqual(['report/report.go', perimeter]);
    await expect(rows(page, 'report/report.go')).toHaveAttribute('data-severity', 'warning');
    await expect(rows(page, 'report/report.go').locator('.problem-message')).toHaveText(printfWarning);
    await expectCounts(page, 1, 1);
    await shot(page, testInfo, 'problems-desktop');

    await rows(page, perimeter).click();
    await expect.poll(() => editorState(page).then((s) => s.text)).toBe('"four"');
    await page.keyboard.type('4'); // over the selection
    await page.keyboard.press('Control+s');
    await expect(page.locator('#save-state')).toHaveText('Saved');
    expect(fs.readFileSync(file, 'utf8')).toContain('var sides int = 4');

    await expect(rows(page, perimeter)).toHaveCount(0);
    await expect.poll(() => listed(page)).toEqual(['report/report.go']);
    await expectCounts(page, 0, 1);
    await expect(page.locator('.monaco-editor .squiggly-error')).toHaveCount(0);
  } finally {
    fs.writeFileSync(file, original); // the next tests' gopls sees the error again
  }
});

test('gopls: the panel shows the active session\'s problems', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await page.reload();
  await openDemo(page);
  await openIn(page, 'demo', 'main.go');
  await showProblems(page);
  await expect.poll(() => listed(page)).toEqual([perimeter]);

  // twin: the same workspace, but no server yet in that session.
  await page.locator('#session').selectOption('twin');
  await expect(page.locator('#problems .problem-file')).toHaveCount(0);
  await expect(page.locator('#problems-empty')).toHaveText('No problems have been detected in this session.');
  await expectCounts(page, 0, 0);
  // Its own gopls reports its own list; a click opens twin's tab.
  await openIn(page, 'twin', 'main.go');
  await expect.poll(() => listed(page)).toEqual([perimeter]);
  await rows(page, perimeter).click();
  await expect.poll(() => editorState(page).then((s) => [s.uri, s.text])).toEqual([`kandev://twin/${perimeter}`, '"four"']);
  expect(await hasModel(page, `kandev://demo/${perimeter}`)).toBe(false);

  // demo2 has no language servers: nothing to list.
  await page.locator('#session').selectOption('demo2');
  await expect(page.locator('#problems-empty')).toBeVisible();
  await expectCounts(page, 0, 0);
  await page.locator('#session').selectOption('demo');
  await expect.poll(() => listed(page)).toEqual([perimeter]);
  await expectCounts(page, 1, 0);
});

test('narrow screens: the panel fits, and on a phone a row opens the read-only viewer', async ({ page }, testInfo) => {
  await openFile(page, 'main.go');
  await waitReady(page);
  await showProblems(page);
  await expect.poll(() => listed(page)).toEqual([perimeter]);

  // A tablet's width: the Files tree is a panel on demand; the problems stay.
  await page.setViewportSize({ width: 800, height: 1000 });
  await expect(page.locator('#files')).toBeHidden();
  await expect(rows(page, perimeter)).toBeVisible();
  await fits(page, panel(page));
  await pageFits(page);
  await shot(page, testInfo, 'problems-tablet-width');

  // A phone: files open in the read-only viewer, without language servers;
  // the list the page already has stays, and its rows still open files.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(rows(page, perimeter)).toBeVisible();
  await fits(page, panel(page));
  await fits(page, page.locator('.toolbar'));
  await pageFits(page);
  await shot(page, testInfo, 'problems-phone-width');
  await rows(page, perimeter).click();
  await expect(page.locator('#current-file')).toHaveText(perimeter);
  await expect(page.locator('#phone-view')).toBeVisible();
  await expect(page.locator('#phone-viewer')).toContainText('var sides int = "four"');
  // The viewer selects the problem's text.
  await expect.poll(() => page.evaluate(() => getSelection()!.toString())).toBe('"four"');
  await pageFits(page);
});

test('tsgo: a call broken by a change in another file is listed under that file', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['typescript', 'go'], lsp_server_configs: {} });
  await page.reload();
  await openDemo(page);
  // tsgo reports only by pull diagnostics, for open documents: b.ts is
  // open in a background tab, a.ts on screen.
  await openFile(page, 'ts/b.ts');
  await waitReady(page);
  await openFile(page, 'ts/a.ts');
  await waitReady(page);
  await showProblems(page);
  await expect(page.locator('#problems-empty')).toBeVisible();

  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches('n: number)', false, false, true, null, false)[0];
    editor.setSelection(m.range);
    editor.focus();
  });
  await page.keyboard.type('n: number, times: number)');
  // b.ts's call is an error; a.ts's unused parameter is only a hint, which
  // the panel leaves out as the editor's Problems views do.
  await expect.poll(() => listed(page)).toEqual(['ts/b.ts']);
  const row = rows(page, 'ts/b.ts');
  await expect(row.locator('.problem-message')).toHaveText('Expected 2 arguments, but got 1.');
  await expect(row.locator('.problem-source')).toHaveText('ts(2554)');
  await expectCounts(page, 1, 0);
  await expect(page.locator('#current-file')).toHaveText('ts/a.ts');

  await row.click();
  await expect(page.locator('#current-file')).toHaveText('ts/b.ts');
  await expect.poll(() => editorState(page).then((s) => [s.uri, s.text])).toEqual(['kandev://demo/ts/b.ts', 'twice']);
});
