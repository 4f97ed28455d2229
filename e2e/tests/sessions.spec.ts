import { test, expect, openDemo, putSettings, view, modelMarkers as markers, openIn } from './fixtures';
import { action, cursorAt, hover } from './editor';

// Two sessions whose task hosts share a workspace path (as two Docker tasks
// rooted at /workspace do): "demo" and "twin" have separate agents and gopls
// processes over the same directory, so both servers see the same file URIs.

test('two sessions with the same task-host path keep their own models, content and servers; stopping one leaves the other working', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);

  await openIn(page, 'demo', 'main.go');
  await openIn(page, 'twin', 'main.go');
  const demoURI = 'kandev://demo/main.go', twinURI = 'kandev://twin/main.go';
  await expect.poll(() => markers(page, demoURI)).toContainEqual(expect.stringContaining('cannot use "three"'));
  await expect.poll(() => markers(page, twinURI)).toContainEqual(expect.stringContaining('cannot use "three"'));

  // Fix the mistake in twin only: its server gets twin's content, demo's keeps its own.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches('"three"', false, false, true, null, false)[0];
    editor.setSelection(m.range);
    editor.focus();
  });
  await page.keyboard.type('3');
  await expect.poll(() => markers(page, twinURI)).toEqual([]);
  await expect.poll(() => markers(page, demoURI)).toContainEqual(expect.stringContaining('cannot use "three"'));
  const texts = await page.evaluate(() => {
    const { monaco } = (window as any).demo;
    return ['demo', 'twin'].map((s) => monaco.editor.getModel(monaco.Uri.parse(`kandev://${s}/main.go`)).getValue().includes('"three"'));
  });
  expect(texts).toEqual([true, false]);

  // Stop demo's gopls: only its markers go; twin keeps working.
  await page.locator('#session').selectOption('demo');
  await page.locator('#lsp-status').click();
  await page.locator('#lsp-action').click(); // Stop
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'off');
  await expect.poll(() => markers(page, demoURI)).toEqual([]);
  expect((await view(page, 'go')).state).toBe('off');
  expect(await page.evaluate(() => (window as any).demo.lsp.view('twin', 'go').state)).toBe('ready');

  await page.locator('#session').selectOption('twin');
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('func greet.Hello(name string) string');
  // And its diagnostics still flow: a new mistake gets a new marker.
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches('var count int = 3', false, false, true, null, false)[0];
    editor.setSelection({ ...m.range, startColumn: m.range.endColumn - 1 });
    editor.focus();
  });
  await page.keyboard.type('true');
  await expect.poll(() => markers(page, twinURI)).toContainEqual(expect.stringContaining('cannot use true'));
});
