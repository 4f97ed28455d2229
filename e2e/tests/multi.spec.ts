import { test, expect, openDemo, putSettings, modelMarkers as markers, openIn } from './fixtures';
import { newLineAfter, semanticSpans } from './editor';

// Several sessions of one language, and several editors of one file, with
// real gopls: each model keeps what its own connection gives it.

test('two sessions of Go side by side keep their semantic colours', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: { go: { gopls: { semanticTokens: true } } } });
  await openDemo(page);

  const functions = async () => (await semanticSpans(page, '#b5179e')).filter((s) => s === 'Hello').length;
  await openIn(page, 'demo', 'main.go');
  await expect.poll(functions).toBe(1);
  // The second session's providers are newer: Monaco asks them first for
  // every Go model, the first session's included.
  await openIn(page, 'twin', 'main.go');
  await expect.poll(functions).toBe(1);

  // Back in the first session, a new call is coloured: only a fresh token
  // answer for this model can colour it, and the other session's
  // providers must not win with an empty one.
  await page.locator('#session').selectOption('demo');
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
  await newLineAfter(page, 'fmt.Println(greet.Hello("Kandev"), count)');
  await page.keyboard.type('_ = greet.Hello("again")');
  await expect.poll(functions).toBe(2);
});

test('a second editor on the same file shows the same diagnostics', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);
  await openIn(page, 'demo', 'main.go');
  const first = 'kandev://demo/main.go', second = 'kandev://demo/main.go?editor=2';
  await expect.poll(() => markers(page, first)).toContainEqual(expect.stringContaining('cannot use "three"'));

  // A second Monaco editor with its own model of main.go, as a split view has.
  await page.evaluate((uri) => {
    const { monaco, lsp, editor } = (window as any).demo;
    const host = document.createElement('div');
    host.id = 'second-editor';
    host.style.cssText = 'position:fixed;left:0;bottom:0;width:50vw;height:30vh;z-index:40;background:#fff';
    document.body.append(host);
    const model = monaco.editor.createModel(editor.getModel().getValue(), undefined, monaco.Uri.parse(uri));
    monaco.editor.create(host, { model, automaticLayout: true });
    (window as any).secondDoc = lsp.openDocument({ sessionId: 'demo', path: 'main.go', model });
  }, second);
  await expect.poll(() => markers(page, second)).toEqual(await markers(page, first));

  // The server keeps one document for both: a new mistake typed in the
  // second editor shows in both.
  await page.evaluate((uri) => {
    const { monaco } = (window as any).demo;
    const model = monaco.editor.getModel(monaco.Uri.parse(uri));
    const m = model.findMatches('var count int = "three"', false, false, true, null, false)[0];
    model.pushEditOperations([], [{ range: m.range, text: 'var count int = "three"\n\tvar flag bool = 7' }], () => null);
  }, second);
  for (const uri of [first, second]) {
    await expect.poll(() => markers(page, uri)).toContainEqual(expect.stringContaining('cannot use 7'));
  }
});
