import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, cursorAt, hover, waitReady } from './editor';

// The page's side of lsp.wasm's API with real gopls: localized labels, and
// a teardown that leaves Monaco as it found it.

test('a German page shows the German action label', async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await page.goto('/?locale=de');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await openFile(page, 'main.go');
  await waitReady(page);
  await page.locator('#lsp-status').click();
  await expect(page.locator('#lsp-action')).toHaveText('Beenden');
  await page.locator('#lsp-action').click();
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'off');
  await expect(page.locator('#lsp-action')).toHaveText('Starten');
});

test('dispose() then configure() leaves exactly one set of providers', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
  const ours = () => page.evaluate(() => (window as any).demo.monaco.editor.getModelMarkers({})
    .filter((m: any) => m.owner.startsWith('kandev-lsp')).length);
  await expect.poll(ours).toBeGreaterThan(0);

  await page.evaluate(() => (window as any).demo.reconfigure());
  await waitReady(page);
  await cursorAt(page, 'Hello(', 1);
  await action(page, 'editor.action.showHover');
  await expect(hover(page)).toContainText('func greet.Hello(name string) string');
  const text = await hover(page).innerText();
  expect(text.split('func greet.Hello(name string) string').length - 1).toBe(1);

  // dispose() alone: Monaco's register functions are its own again and
  // no marker of lsp.wasm is left.
  const after = await page.evaluate(() => {
    const { lsp, monaco } = (window as any).demo;
    lsp.dispose();
    return {
      wrapped: Object.getOwnPropertySymbols(monaco.languages).some((s) => s === Symbol.for('kandev.lsp.wrapped')),
    };
  });
  expect(after).toEqual({ wrapped: false });
  expect(await ours()).toBe(0);
});
