import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorLine, waitReady } from './editor';

// A Monaco built-in (or any provider of the page) that answers with a
// task-host file:// location: lsp.wasm's editor opener maps a target inside
// the session's workspace to its tab and leaves one outside unhandled, so
// Monaco does nothing with it. The provider here stands in for a built-in
// (no built-in of Monaco answers with file:// URIs on demand); the opener,
// the mapping and the page's tabs are the real ones.
test('a file:// definition opens the task file inside the workspace; one outside stays unhandled', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);
  // A live connection tells lsp.wasm where the session's workspace is.
  await openFile(page, 'main.go');
  await waitReady(page);
  await openFile(page, 'notes.txt');
  await page.evaluate((ws) => {
    const { monaco } = (window as any).demo;
    const w = window as any;
    w.definitionTarget = monaco.Uri.file('/etc/hostname');
    monaco.languages.registerDefinitionProvider('plaintext', {
      provideDefinition: () => [{ uri: w.definitionTarget, range: new monaco.Range(5, 6, 5, 11) }],
    });
    w.insideTarget = monaco.Uri.file(`${ws}/greet/greet.go`);
  }, demo.workspace);

  // Outside the workspace: nothing opens.
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 1, column: 1 }));
  await action(page, 'editor.action.revealDefinition');
  // Then inside: the task file's tab, at the location. That it opens is
  // the barrier: the first request was handled before it.
  await page.evaluate(() => { const w = window as any; w.definitionTarget = w.insideTarget; });
  await action(page, 'editor.action.revealDefinition');
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/greet/greet.go');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toHaveAttribute('data-path', 'greet/greet.go');
  await expect.poll(() => cursorLine(page)).toBe(5);
  // The outside target opened no tab, and made no model of its own.
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(3);
  expect(await page.evaluate(() => (window as any).demo.monaco.editor.getModels().map((m: any) => m.uri.toString()).filter((u: string) => u.includes('hostname')))).toEqual([]);
});
