import { test, expect, openDemo, markerMessages } from './fixtures';

// The walking skeleton end to end: a Go type error in main.go travels from
// real gopls through the agent, the relay and lsp.wasm into a Monaco marker,
// and goes away when the user fixes the code by typing.
test('a Go type error becomes a Monaco marker and goes when fixed', async ({ page }, testInfo) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'main.go' }).click();

  const status = page.locator('#lsp-status');
  await expect(status).toHaveAttribute('data-state', 'ready');

  // gopls's own message, as a marker on this model and a squiggle on screen.
  await expect.poll(() => markerMessages(page)).toContainEqual(
    expect.stringContaining('cannot use "three" (untyped string constant) as int value'));
  const squiggle = page.locator('.monaco-editor .squiggly-error');
  await expect(squiggle).toHaveCount(1);

  // Hovering the squiggle shows the diagnostic to the user.
  await squiggle.hover({ force: true });
  await expect(page.locator('.monaco-hover:not(.hidden)')).toContainText('cannot use "three"');

  // Kept as a test artifact (test-results/ and the HTML report).
  const shot = testInfo.outputPath('type-error-marker.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('type-error-marker', { path: shot, contentType: 'image/png' });

  // Fix it by typing: select the string literal and type a number over it.
  await page.evaluate(() => {
    const { editor, monaco } = (window as any).demo;
    const model = editor.getModel();
    const match = model.findMatches('"three"', false, false, true, null, false)[0];
    editor.setSelection(match.range);
    editor.focus();
  });
  await page.keyboard.type('3');

  await expect.poll(() => markerMessages(page)).toEqual([]);
  await expect(squiggle).toHaveCount(0);
  await expect(status).toHaveAttribute('data-state', 'ready');
});
