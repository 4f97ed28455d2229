import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, waitReady } from './editor';

// go.mod is a language of its own in the page (Monaco has none): it is
// coloured, and gopls serves it — here, Format Document tidies a
// directive through gopls's go.mod formatting.
test('go.mod gets its own language, colours and gopls: Format Document tidies it', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'go.mod');
  await waitReady(page);
  const model = () => page.evaluate(() => {
    const m = (window as any).demo.editor.getModel();
    return { language: m.getLanguageId() as string, text: m.getValue() as string };
  });
  expect((await model()).language).toBe('go.mod');
  await expect(page.locator('.view-line span', { hasText: /^module$/ }).first()).toBeVisible();
  const keywordClass = await page.locator('.view-line span', { hasText: /^module$/ }).first().getAttribute('class');
  const plainClass = await page.locator('.view-line span', { hasText: /example\.com\/greeter/ }).first().getAttribute('class');
  expect(keywordClass, 'the directive is coloured apart from the module path').not.toBe(plainClass);

  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const m = editor.getModel();
    const match = m.findMatches('go 1.26', false, false, true, null, false)[0];
    editor.executeEdits('e2e', [{ range: match.range, text: 'go     1.26' }]);
  });
  await action(page, 'editor.action.formatDocument');
  await expect.poll(async () => (await model()).text).toContain('\ngo 1.26');
});
