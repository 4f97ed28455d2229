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

// lsp.wasm has a content-hashed name and is served immutable, so a second
// load of the page in the same session takes it from the browser's cache:
// no bytes on the wire, and the client works as on the first load.
test('a second page load takes lsp.wasm from the browser cache', async ({ page }) => {
  const wasmLoads = () => page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.endsWith('.wasm'))
    .map((e) => {
      const r = e as PerformanceResourceTiming;
      return { name: new URL(r.name).pathname, transferred: r.transferSize, decoded: r.decodedBodySize };
    }));
  await openDemo(page);
  const first = await wasmLoads();
  expect(first).toHaveLength(1);
  expect(first[0].transferred).toBeGreaterThan(0);

  await openDemo(page);
  const second = await wasmLoads();
  expect(second).toEqual([{ name: first[0].name, transferred: 0, decoded: first[0].decoded }]);
  await page.getByRole('button', { name: 'main.go' }).click();
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => markerMessages(page)).toContainEqual(expect.stringContaining('cannot use "three"'));
});
