import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, openDemo, openFile, putSettings, lspMarkers } from './fixtures';
import { waitReady } from './editor';
import type { Page } from '@playwright/test';

// The Files tree creates, renames (moves) and deletes through the task
// host's file routes, and the language servers hear of it: the TypeScript
// server answers willRenameFiles with the edits that keep every import
// whole, which land in the importers — saved, as a refactoring's files are.
// Each test works in folders of its own, removed afterwards, so the
// worker's shared workspace stays as the other specs expect it.

test.use({
  expectedPageErrors: [{
    pattern: /^Failed to load resource: the server responded with a status of 409 \(Conflict\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/workspace\/move\?from=.*:0\)$/,
    why: 'the browser logs the refused move; the notice it leads to is what the test checks',
  }],
});

const row = (page: Page, p: string) => page.locator(`#files button.file[data-path="${p}"]`);
const folderRow = (page: Page, p: string) => page.locator(`#files button.folder[data-dir="${p}"]`);
const menuItem = (page: Page, action: string) => page.locator(`.tree-menu [role="menuitem"][data-action="${action}"]`);
const nameField = (page: Page) => page.locator('#files input.tree-name');

/** modelText is the text of the model with this URI, or null without one. */
const modelText = (page: Page, uri: string) => page.evaluate((uri) => {
  const { monaco } = (window as any).demo;
  const m = monaco.editor.getModel(monaco.Uri.parse(uri));
  return m ? (m.getValue() as string) : null;
}, uri);

const own = ['ts/ops', 'ts/shapes-kit', 'ts/moves', 'gomoves', 'py/ops', 'notes', 'scratch'];
test.afterEach(({ demo }) => {
  for (const dir of own) fs.rmSync(path.join(demo.workspace, dir), { recursive: true, force: true });
});

/** seed writes files into the workspace before the page lists it. */
function seed(workspace: string, files: Record<string, string>) {
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, p)), { recursive: true });
    fs.writeFileSync(path.join(workspace, p), text);
  }
}

test('renaming a TypeScript module in the tree updates its importer, open or not, and the tab follows', async ({ page, demo }) => {
  seed(demo.workspace, {
    // A project of its own: the server knows report.ts without its being open.
    'ts/ops/tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "types": [] }, "include": ["*.ts"] }\n',
    'ts/ops/shapes.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
    'ts/ops/main.ts': "import { area } from './shapes';\n\nconsole.log(area(2, 3));\n",
    'ts/ops/report.ts': "import { area } from './shapes';\n\nexport const unit = area(1, 1);\n",
  });
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'ts/ops/shapes.ts');
  await openFile(page, 'ts/ops/main.ts');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/ts/ops/main.ts', { errorsOnly: true })).toEqual([]);
  // An unsaved change in the renamed file's tab goes with it.
  await page.locator('#tabs [role="tab"][data-path="ts/ops/shapes.ts"]').click();
  await page.evaluate(() => (window as any).demo.editor.getModel().applyEdits([{ range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 }, text: '// units: cm\n' }]));

  await row(page, 'ts/ops/shapes.ts').click({ button: 'right' });
  await menuItem(page, 'rename').click();
  await expect(nameField(page)).toBeFocused();
  await expect(nameField(page)).toHaveValue('shapes.ts');
  await page.keyboard.type('geometry'); // the name is selected, not its extension
  await page.keyboard.press('Enter');

  await expect(row(page, 'ts/ops/geometry.ts')).toBeVisible();
  await expect(row(page, 'ts/ops/shapes.ts')).toHaveCount(0);
  expect(fs.existsSync(path.join(demo.workspace, 'ts/ops/shapes.ts'))).toBe(false);
  // The open importer and the one that was not open both import the new
  // name, on disk too; the unopened one has no tab left over.
  await expect.poll(() => modelText(page, 'kandev://demo/ts/ops/main.ts')).toContain("from './geometry'");
  await expect.poll(() => fs.readFileSync(path.join(demo.workspace, 'ts/ops/main.ts'), 'utf8')).toContain("from './geometry'");
  await expect.poll(() => fs.readFileSync(path.join(demo.workspace, 'ts/ops/report.ts'), 'utf8')).toContain("from './geometry'");
  await expect(page.locator('#tabs [role="tab"][data-path="ts/ops/report.ts"]')).toHaveCount(0);
  // The tab moved, active, still dirty with the change; the old model is gone.
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toHaveAttribute('data-path', 'ts/ops/geometry.ts');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toContainText('●');
  expect(await modelText(page, 'kandev://demo/ts/ops/geometry.ts')).toMatch(/^\/\/ units: cm\nexport function area/);
  expect(await modelText(page, 'kandev://demo/ts/ops/shapes.ts')).toBeNull();
  // The server follows: the importer has no unresolved import.
  await page.locator('#tabs [role="tab"][data-path="ts/ops/main.ts"]').click();
  await expect.poll(() => lspMarkers(page, 'kandev://demo/ts/ops/main.ts', { errorsOnly: true })).toEqual([]);

  // Moving the folder: the imports inside it are relative and stay; the
  // tabs follow to the new paths.
  await folderRow(page, 'ts/ops').click({ button: 'right' });
  await menuItem(page, 'rename').click();
  await nameField(page).fill('shapes-kit');
  await page.keyboard.press('Enter');
  await expect(folderRow(page, 'ts/shapes-kit')).toBeVisible();
  await expect(folderRow(page, 'ts/ops')).toHaveCount(0);
  await expect(page.locator('#tabs [role="tab"][data-path="ts/shapes-kit/main.ts"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#tabs [role="tab"][data-path="ts/shapes-kit/geometry.ts"]')).toBeVisible();
  expect(fs.existsSync(path.join(demo.workspace, 'ts/shapes-kit/report.ts'))).toBe(true);
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/ts/shapes-kit/main.ts', { errorsOnly: true })).toEqual([]);
});

test('New File and New Folder create on the task host; Delete removes, and the Python importer hears of it', async ({ page, demo }) => {
  seed(demo.workspace, { 'py/ops/app.py': 'import helpers\n\nprint(helpers.NAME)\n', 'py/ops/helpers.py': 'NAME = "x"\n' });
  await putSettings(page, { lsp_auto_start_languages: ['python'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'py/ops/app.py');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/py/ops/app.py', { errorsOnly: true })).toEqual([]);

  // A folder, then a file in it: the file opens in a tab.
  await folderRow(page, 'py/ops').click({ button: 'right' });
  await menuItem(page, 'newFolder').click();
  await nameField(page).fill('extra');
  await page.keyboard.press('Enter');
  await expect(folderRow(page, 'py/ops/extra')).toBeVisible();
  expect(fs.statSync(path.join(demo.workspace, 'py/ops/extra')).isDirectory()).toBe(true);
  await folderRow(page, 'py/ops/extra').click({ button: 'right' });
  await menuItem(page, 'newFile').click();
  await nameField(page).fill('notes.py');
  await page.keyboard.press('Enter');
  await expect(page.locator('#current-file')).toHaveText('py/ops/extra/notes.py');
  await expect(row(page, 'py/ops/extra/notes.py')).toHaveAttribute('aria-current', 'true');
  expect(fs.readFileSync(path.join(demo.workspace, 'py/ops/extra/notes.py'), 'utf8')).toBe('');
  // A name that is taken is refused in place: the field stays, marked.
  await folderRow(page, 'py/ops').click({ button: 'right' });
  await menuItem(page, 'newFile').click();
  await nameField(page).fill('helpers.py');
  await page.keyboard.press('Enter');
  await expect(nameField(page)).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(nameField(page)).toHaveCount(0);

  // Delete, confirmed: the file goes, and pyright, told by the task
  // host's watcher, reports the import it broke.
  page.once('dialog', (d) => d.accept());
  await row(page, 'py/ops/helpers.py').focus();
  await page.keyboard.press('Delete');
  await expect(row(page, 'py/ops/helpers.py')).toHaveCount(0);
  expect(fs.existsSync(path.join(demo.workspace, 'py/ops/helpers.py'))).toBe(false);
  await page.locator('#tabs [role="tab"][data-path="py/ops/app.py"]').click();
  await expect.poll(() => lspMarkers(page, 'kandev://demo/py/ops/app.py', { errorsOnly: true }), { timeout: 30_000 })
    .toContainEqual(expect.stringContaining('"helpers" could not be resolved'));

  // Deleting a folder closes its open tabs.
  page.once('dialog', (d) => d.accept());
  await folderRow(page, 'py/ops/extra').click({ button: 'right' });
  await menuItem(page, 'delete').click();
  await expect(folderRow(page, 'py/ops/extra')).toHaveCount(0);
  await expect(page.locator('#tabs [role="tab"][data-path="py/ops/extra/notes.py"]')).toHaveCount(0);
  expect(fs.existsSync(path.join(demo.workspace, 'py/ops/extra'))).toBe(false);
});

test('a rename the task host refuses changes nothing and says why', async ({ page, demo }) => {
  seed(demo.workspace, { 'notes/ops/a.txt': 'a\n' });
  await openDemo(page);
  await openFile(page, 'notes/ops/a.txt');
  // Behind the tree's back, the name gets taken.
  fs.writeFileSync(path.join(demo.workspace, 'notes/ops/b.txt'), 'b\n');
  await row(page, 'notes/ops/a.txt').focus();
  await page.keyboard.press('F2');
  await nameField(page).fill('b.txt');
  await page.keyboard.press('Enter');
  await expect(page.locator('.fileop-notice')).toContainText('b.txt already exists.');
  await expect(nameField(page)).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(row(page, 'notes/ops/a.txt')).toBeVisible();
  await expect(page.locator('#current-file')).toHaveText('notes/ops/a.txt');
  expect(fs.readFileSync(path.join(demo.workspace, 'notes/ops/b.txt'), 'utf8')).toBe('b\n');
  expect(fs.readFileSync(path.join(demo.workspace, 'notes/ops/a.txt'), 'utf8')).toBe('a\n');
});

test('files a script creates or deletes on the task host come and go in the tree without a reload', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page); // the agent's watcher reports over the session's live connection
  const before = await page.evaluate(() => performance.getEntriesByType('navigation').length);

  // A generator writes a folder with a file: the folder appears, and so
  // does a second file written into it once it is open.
  seed(demo.workspace, { 'scratch/gen/api.go': 'package gen\n' });
  await expect(folderRow(page, 'scratch')).toBeVisible({ timeout: 15_000 });
  await folderRow(page, 'scratch').click();
  await folderRow(page, 'scratch/gen').click();
  await expect(row(page, 'scratch/gen/api.go')).toBeVisible();
  fs.writeFileSync(path.join(demo.workspace, 'scratch/gen/types.go'), 'package gen\n');
  await expect(row(page, 'scratch/gen/types.go')).toBeVisible({ timeout: 15_000 });
  await expect(folderRow(page, 'scratch/gen')).toHaveAttribute('aria-expanded', 'true');

  // A file removed there goes; then the whole folder.
  fs.rmSync(path.join(demo.workspace, 'scratch/gen/api.go'));
  await expect(row(page, 'scratch/gen/api.go')).toHaveCount(0, { timeout: 15_000 });
  await expect(row(page, 'scratch/gen/types.go')).toBeVisible();
  fs.rmSync(path.join(demo.workspace, 'scratch'), { recursive: true });
  await expect(folderRow(page, 'scratch')).toHaveCount(0, { timeout: 15_000 });
  await expect(row(page, 'main.go')).toBeVisible();
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(before);
});

test('the TypeScript server\'s "Move to a new file": the edit fills the file it wrote, and a change on disk never reloads over it', async ({ page, demo }) => {
  seed(demo.workspace, {
    'ts/moves/tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "types": [] }, "include": ["*.ts"] }\n',
    'ts/moves/main.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n\nconsole.log(twice(21));\n',
  });
  await putSettings(page, { lsp_auto_start_languages: ['typescript'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'ts/moves/main.ts');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/ts/moves/main.ts', { errorsOnly: true })).toEqual([]);
  // The function selected, the server's refactoring applied as Monaco's
  // Refactor menu would: typescript-language-server writes the new file,
  // empty, then sends the edit that fills it; the task host's watcher then
  // reports the file, which must not reload the model's edit away.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.setSelection({ startLineNumber: 1, startColumn: 1, endLineNumber: 3, endColumn: 2 });
    editor.focus();
  });
  await expect.poll(async () => {
    await page.evaluate(() => (window as any).demo.editor.trigger('test', 'editor.action.codeAction', { kind: 'refactor.move.newFile', apply: 'first' }));
    return fs.existsSync(path.join(demo.workspace, 'ts/moves/twice.ts'));
  }, { timeout: 30_000, intervals: [1000, 2000] }).toBe(true);
  await expect(row(page, 'ts/moves/twice.ts')).toBeVisible();
  await expect.poll(() => modelText(page, 'kandev://demo/ts/moves/twice.ts')).toContain('export function twice(n: number)');
  await expect.poll(() => modelText(page, 'kandev://demo/ts/moves/main.ts')).toContain('import { twice } from "./twice"');
  // The edits are the user's to save, as any refactoring's: dirty tabs,
  // with no notice of a change on disk for the file the server wrote.
  await expect(page.locator('#tabs [role="tab"][data-path="ts/moves/twice.ts"]')).toContainText('●');
  await page.locator('#tabs [role="tab"][data-path="ts/moves/twice.ts"]').click();
  await page.keyboard.press('Control+s');
  await expect.poll(() => fs.readFileSync(path.join(demo.workspace, 'ts/moves/twice.ts'), 'utf8')).toContain('export function twice(n: number)');
  expect(await modelText(page, 'kandev://demo/ts/moves/twice.ts')).toContain('export function twice(n: number)');
  await expect(page.locator('#lsp-notices .notice', { hasText: 'twice.ts' })).toHaveCount(0);
});

test('gopls\'s "Extract declarations to new file": the edit\'s CreateFile is made on the task host, then filled', async ({ page, demo }) => {
  seed(demo.workspace, {
    'gomoves/calc.go': 'package gomoves\n\nfunc Twice(n int) int {\n\treturn n * 2\n}\n\nfunc Half(n int) int {\n\treturn n / 2\n}\n',
  });
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'gomoves/calc.go');
  await waitReady(page);
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.setSelection({ startLineNumber: 3, startColumn: 1, endLineNumber: 5, endColumn: 2 });
    editor.focus();
  });
  // gopls answers with a workspace edit whose first change creates the
  // file (documentChanges: CreateFile, then its text): the page's
  // createFile makes it on the task host, lsp.wasm fills its model.
  await expect.poll(async () => {
    await page.evaluate(() => (window as any).demo.editor.trigger('test', 'editor.action.codeAction', { kind: 'refactor.extract.toNewFile', apply: 'first' }));
    return fs.readdirSync(path.join(demo.workspace, 'gomoves')).filter((f) => f !== 'calc.go');
  }, { timeout: 30_000, intervals: [1000, 2000] }).toEqual(['twice.go']);
  await expect(row(page, 'gomoves/twice.go')).toBeVisible();
  await expect.poll(() => modelText(page, 'kandev://demo/gomoves/twice.go')).toContain('func Twice(n int) int');
  await expect.poll(() => modelText(page, 'kandev://demo/gomoves/calc.go')).not.toContain('func Twice');
  await expect(page.locator('#lsp-notices .notice', { hasText: 'twice.go' })).toHaveCount(0);
});
