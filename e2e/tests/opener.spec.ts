import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorLine, waitReady } from './editor';

test.use({
  expectedPageErrors: [{
    pattern: /^Failed to load resource: the server responded with a status of 403 \(Forbidden\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/library\/file\?path=%2Fetc%2Fhostname:0\)$/,
    why: 'the browser logs the library route refusing a file outside the library roots; that nothing opens is what the test checks',
  }],
});

// A Monaco built-in (or any provider of the page) that answers with a
// task-host file:// location: lsp.wasm's editor opener maps a target inside
// the session's workspace to its tab and leaves one outside unhandled, so
// Monaco does nothing with it. The provider here stands in for a built-in
// (no built-in of Monaco answers with file:// URIs on demand); the opener,
// the mapping and the page's tabs are the real ones. The page reads files
// outside the workspace through the task host's library route, which
// refuses /etc/hostname: the target stays unhandled.
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

  // Outside the workspace: the page asks the library route, which refuses;
  // nothing opens. Its answer is the barrier before the target changes.
  await page.evaluate(() => (window as any).demo.editor.setPosition({ lineNumber: 1, column: 1 }));
  const refused = page.waitForResponse((r) => r.url().includes('/api/v1/library/file?path=%2Fetc%2Fhostname'));
  await action(page, 'editor.action.revealDefinition');
  expect((await refused).status()).toBe(403);
  // Then inside: the task file's tab, at the location.
  await page.evaluate(() => { const w = window as any; w.definitionTarget = w.insideTarget; });
  await action(page, 'editor.action.revealDefinition');
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/greet/greet.go');
  await expect(page.locator('#tabs [role="tab"][aria-selected="true"]')).toHaveAttribute('data-path', 'greet/greet.go');
  await expect.poll(() => cursorLine(page)).toBe(5);
  // The outside target opened no tab, and made no model of its own.
  await expect(page.locator('#tabs [role="tab"]')).toHaveCount(3);
  expect(await page.evaluate(() => (window as any).demo.monaco.editor.getModels().map((m: any) => m.uri.toString()).filter((u: string) => u.includes('hostname')))).toEqual([]);
});
