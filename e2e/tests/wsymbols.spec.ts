import { test, expect, openDemo, openFile, putSettings } from './fixtures';
import { waitReady } from './editor';

// Go to Symbol in Workspace looks in the workspace: gopls is asked for the
// workspace's packages only (the catalog's symbolScope), so "Hello" finds
// greet.Hello and not the standard library's clientHelloMsg and its kin.
test('workspace symbols from gopls are the workspace\'s, not the standard library\'s', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);
  const found = () => page.evaluate(async () => {
    const { lsp, editor } = (window as any).demo;
    const syms = await lsp.workspaceSymbols(editor.getModel(), 'Hello');
    return syms.map((s: any) => `${s.name} ${s.model ?? s.location?.uri ?? ''}`) as string[];
  });
  await expect.poll(found, { timeout: 30_000 }).toContainEqual(expect.stringMatching(/^Hello kandev:\/\/demo\/greet\/greet\.go$/));
  const all = await found();
  expect(all.filter((s) => !/ kandev:\/\/demo\//.test(s)), `every symbol is the workspace's: ${all.join(', ')}`).toEqual([]);
});
