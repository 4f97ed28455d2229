import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, fakeTest, demoTest, expect, openDemo, openFile, putSettings, readRecord, writeScript } from './fixtures';
import { action, cursorAt, waitReady } from './editor';

// Real gopls behind the agent and the relay: the code lenses, document
// links and selection ranges lsp.wasm registers for what gopls advertises,
// on webdemo/sample/tools/tools.go. Then the scripted fake server (standing
// in for rust-analyzer) for what no server of the demo offers yet: colors,
// linked editing, VS Code's reference lenses and semantic-token deltas.

async function openGo(page: Page) {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'tools/tools.go');
  await waitReady(page);
}

test('gopls code lens on a go:generate line runs go generate on the server', async ({ page, demo }) => {
  await openGo(page);
  const generated = path.join(demo.workspace, 'tools', 'generated.txt');
  fs.rmSync(generated, { force: true });
  // gopls' generate lens: both of its commands, drawn above the directive.
  const lenses = page.locator('.monaco-editor .codelens-decoration');
  await expect(lenses.getByText('run go generate ./...')).toBeVisible({ timeout: 60_000 });
  const here = lenses.locator('a', { hasText: /^run go generate$/ });
  await expect(here).toBeVisible();
  // Clicking it runs gopls.generate through workspace/executeCommand: the
  // directive's touch makes the file on the task host.
  await here.click();
  await expect.poll(() => fs.existsSync(generated), { timeout: 30_000 }).toBe(true);
  fs.rmSync(generated, { force: true });
});

test('gopls document links: the address in a comment and the import path', async ({ page }) => {
  await openGo(page);
  const links = () => page.evaluate(() => {
    const model = (window as any).demo.editor.getModel();
    return model.getAllDecorations()
      .filter((d: any) => d.options.inlineClassName === 'detected-link')
      .map((d: any) => model.getValueInRange(d.range) as string);
  });
  // The import path is gopls' link alone (to pkg.go.dev): Monaco's own
  // link detection finds addresses in text, not import paths.
  await expect.poll(links, { timeout: 60_000 }).toContain('strings');
  expect(await links()).toContain('https://go.dev/ref/spec#Comments');
});

test('gopls selection ranges: Expand Selection grows through the expression', async ({ page }) => {
  await openGo(page);
  await cursorAt(page, 'strings.ToUpper', 2);
  const selected = () => page.evaluate(() => {
    const { editor } = (window as any).demo;
    return editor.getModel().getValueInRange(editor.getSelection()) as string;
  });
  // Monaco's own word and bracket ranges know nothing of a selector or a
  // call: strings.ToUpper and strings.ToUpper(s) come from gopls.
  const seen: string[] = [];
  await expect.poll(async () => {
    await action(page, 'editor.action.smartSelect.expand');
    seen.push(await selected());
    return seen;
  }, { timeout: 30_000 }).toContain('strings.ToUpper(s)');
  expect(seen).toContain('strings.ToUpper');
  expect(seen.indexOf('strings.ToUpper')).toBeLessThan(seen.indexOf('strings.ToUpper(s)'));
});

const rng = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });

// src/main.rs of the fake workspace, rewritten by the test: "tag" twice,
// for linked editing and the reference lens.
const rust = 'fn main() {\n    let tag = 1;\n    println!("{}", tag);\n}\n';

fakeTest('a scripted server\'s colors, linked editing, lenses and semantic-token deltas', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  const file = `file://${demo.workspace}/src/main.rs`;
  writeScript(demo, {
    recordFile: record,
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      colorProvider: true,
      linkedEditingRangeProvider: true,
      codeLensProvider: {},
      executeCommandProvider: { commands: ['fake.run'] },
      semanticTokensProvider: { legend: { tokenTypes: ['function'], tokenModifiers: [] }, full: { delta: true } },
    },
    answers: {
      'textDocument/documentColor': [{ range: rng(1, 8, 11), color: { red: 1, green: 0, blue: 0, alpha: 1 } }],
      'textDocument/colorPresentation': [{ label: 'red' }],
      'textDocument/linkedEditingRange': { ranges: [rng(1, 8, 11), rng(2, 19, 22)] },
      'textDocument/codeLens': [
        { range: rng(1, 4, 7), command: { title: '1 reference', command: 'editor.action.showReferences', arguments: [file, { line: 1, character: 8 }, [{ uri: file, range: rng(2, 19, 22) }]] } },
        { range: rng(1, 4, 7), command: { title: 'run it', command: 'fake.run', arguments: [7] } },
        { range: rng(1, 4, 7), command: { title: 'client only', command: 'client.only' } },
      ],
      'workspace/executeCommand': null,
      'textDocument/semanticTokens/full': { resultId: '1', data: [0, 3, 4, 0, 0] },
      'textDocument/semanticTokens/full/delta': { resultId: '2', edits: [] },
    },
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);
  await page.evaluate((text) => {
    const { editor } = (window as any).demo;
    editor.updateOptions({ linkedEditing: true });
    editor.getModel().setValue(text);
  }, rust);
  const requests = (method: string) => readRecord(record).filter((r) => r.kind === 'request' && r.method === method).map((r) => r.message.params);

  // Semantic tokens: once the whole document's tokens are in, the next
  // change asks for a delta from their resultId.
  await expect.poll(() => requests('textDocument/semanticTokens/full').length).toBeGreaterThan(0);
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.executeEdits('e2e', [{ range: { startLineNumber: 5, startColumn: 1, endLineNumber: 5, endColumn: 1 }, text: '// more\n' }]);
  });
  await expect.poll(() => requests('textDocument/semanticTokens/full/delta').map((p) => p.previousResultId)).toContain('1');

  // The color: Monaco's decorator in front of the range.
  await expect(page.locator('.monaco-editor .colorpicker-color-decoration')).toHaveCount(1);

  // Lenses: the server's own command runs on the server, the reference
  // lens opens Monaco's peek, the unknown command is plain text.
  const lenses = page.locator('.monaco-editor .codelens-decoration');
  await expect(lenses.locator('a', { hasText: 'run it' })).toBeVisible();
  await expect(lenses.locator('span', { hasText: 'client only' })).toBeVisible();
  await expect(lenses.locator('a', { hasText: 'client only' })).toHaveCount(0);
  await lenses.locator('a', { hasText: 'run it' }).click();
  await expect.poll(() => requests('workspace/executeCommand')).toContainEqual({ command: 'fake.run', arguments: [7] });
  await lenses.locator('a', { hasText: '1 reference' }).click();
  await expect(page.locator('.peekview-widget')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(requests('workspace/executeCommand')).toHaveLength(1);

  // Linked editing: typing at the end of one "tag" changes the other.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.setPosition({ lineNumber: 2, column: 12 });
    editor.focus();
  });
  await expect.poll(() => requests('textDocument/linkedEditingRange').length).toBeGreaterThan(0);
  await expect(page.locator('.monaco-editor .linked-editing-decoration')).toHaveCount(2);
  await page.keyboard.type('s');
  await expect.poll(() => page.evaluate(() => (window as any).demo.editor.getModel().getLineContent(3))).toBe('    println!("{}", tags);');
});

// gopls' test lens (off by default, turned on in its configuration) over a
// test function of a _test.go file.
const lensTest = demoTest({ npmServers: true, sample: 'e2e/workspaces/golens' });

lensTest('gopls code lens in a test file: run test, turned on in its configuration', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: { go: { gopls: { codelenses: { test: true } } } } });
  await openDemo(page);
  await openFile(page, 'lens_test.go');
  await waitReady(page);
  const lenses = page.locator('.monaco-editor .codelens-decoration');
  await expect(lenses.getByText(/run test/)).toBeVisible({ timeout: 60_000 });
});

// LSP 3.18 from the scripted fake (no server here offers these yet):
// inline completions, a code action tagged LLM-generated with its kind's
// documentation and a snippet edit, and a definition in a document the
// server provides itself.
fakeTest('a scripted server\'s 3.18 inline completions, code-action tags and documentation, snippet edits and server documents', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  const file = `file://${demo.workspace}/src/main.rs`;
  writeScript(demo, {
    recordFile: record,
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      inlineCompletionProvider: {},
      definitionProvider: true,
      codeActionProvider: { codeActionKinds: ['refactor'], documentation: [{ kind: 'refactor', command: { title: 'About refactorings', command: 'fake.learn' } }] },
      executeCommandProvider: { commands: ['fake.learn', 'fake.accepted'] },
      workspace: { textDocumentContent: { schemes: ['fake-doc'] } },
    },
    answers: {
      'textDocument/inlineCompletion': { items: [{ insertText: 'let ghost = 3;', command: { title: 'accepted', command: 'fake.accepted', arguments: ['ghost'] } }] },
      'textDocument/codeAction': [{
        title: 'Name it (suggested)', kind: 'refactor.rewrite', tags: [1],
        edit: { documentChanges: [{ textDocument: { uri: file, version: null }, edits: [{ range: rng(3, 0, 0), snippet: { kind: 'snippet', value: '    let ${1:named} = 2;\n' } }] }] },
      }],
      'textDocument/definition': [{ uri: 'fake-doc:///std/prelude.rs', range: rng(1, 7, 12) }],
      'workspace/textDocumentContent': { text: '// provided by the server\npub fn print() {}\n' },
      'workspace/executeCommand': null,
    },
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);
  await page.evaluate((text) => (window as any).demo.editor.getModel().setValue(text), rust);
  const requests = (method: string) => readRecord(record).filter((r) => r.kind === 'request' && r.method === method).map((r) => r.message.params);
  const line = (n: number) => page.evaluate((n) => (window as any).demo.editor.getModel().getLineContent(n), n);

  // Inline completion: ghost text on the empty line, Tab takes it and the
  // server's command runs.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    editor.executeEdits('e2e', [{ range: { startLineNumber: 4, startColumn: 1, endLineNumber: 4, endColumn: 1 }, text: '    \n' }]);
    editor.setPosition({ lineNumber: 4, column: 5 });
    editor.focus();
  });
  await action(page, 'editor.action.inlineSuggest.trigger');
  await expect(page.locator('.monaco-editor .ghost-text-decoration').first()).toBeVisible();
  expect(requests('textDocument/inlineCompletion').at(-1).context.triggerKind).toBe(1);
  await page.keyboard.press('Tab');
  await expect.poll(() => line(4)).toBe('    let ghost = 3;');
  await expect.poll(() => requests('workspace/executeCommand')).toContainEqual({ command: 'fake.accepted', arguments: ['ghost'] });

  // The refactor menu: the tagged action carries the sparkle, the kind's
  // documentation is the menu's link and runs on the server.
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 2, column: 9 }));
  await action(page, 'editor.action.refactor');
  const menu = page.locator('.action-widget');
  await expect(menu.getByText('Name it (suggested)')).toBeVisible();
  await expect(menu.locator('.codicon-sparkle')).toHaveCount(1);
  await menu.getByText('About refactorings').click();
  await expect.poll(() => requests('workspace/executeCommand')).toContainEqual({ command: 'fake.learn' });

  // Choosing the action: its snippet edit runs as a snippet in the editor,
  // so typing replaces the placeholder.
  await action(page, 'editor.action.refactor');
  await menu.getByText('Name it (suggested)').click();
  await expect.poll(() => line(4)).toBe('    let named = 2;');
  await expect.poll(() => page.evaluate(() => {
    const { editor } = (window as any).demo;
    return editor.getModel().getValueInRange(editor.getSelection());
  })).toBe('named');
  await page.keyboard.type('renamed');
  await expect.poll(() => line(4)).toBe('    let renamed = 2;');

  // A definition in the server's own document opens it read-only, its text
  // asked of the server.
  await page.keyboard.press('Escape');
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 2, column: 9 }));
  await action(page, 'editor.action.revealDefinition');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toHaveText('std/prelude.rs');
  await expect.poll(() => page.evaluate(() => (window as any).demo.editor.getModel().getValue())).toBe('// provided by the server\npub fn print() {}\n');
  expect(await page.evaluate(() => (window as any).demo.editor.getModel().uri.scheme)).toBe('kandev-doc');
  expect(await page.evaluate(() => (window as any).demo.editor.getRawOptions().readOnly)).toBe(true);
  expect(requests('workspace/textDocumentContent')).toContainEqual({ uri: 'fake-doc:///std/prelude.rs' });
});
