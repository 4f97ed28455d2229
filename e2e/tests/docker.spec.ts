import { execFileSync } from 'node:child_process';
import { dockerTest as test, expect, openDemo, openFile, putSettings, type Demo } from './fixtures';
import { newLineAfter, suggestRows, waitReady } from './editor';

// The demo's Local Docker session: a task container of the task image
// (docker/build-image) over the demo's workspace, mounted at /workspace.
// The relay resumes the stopped container on the first stream, and gopls
// runs inside it. The test task sets KANDEV_DOCKER_IMAGE and
// KANDEV_REQUIRE_DOCKER=1: there, no engine is a failure, not a skip.

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();

// taskContainer is the demo's task container; without an engine or an
// image the test is skipped, unless KANDEV_REQUIRE_DOCKER=1 makes that a
// failure.
function taskContainer(demo: Demo): string {
  if (process.env.KANDEV_REQUIRE_DOCKER === '1') {
    expect(demo.container, `the demo made no task container:\n${demo.logs.join('')}`).toBeTruthy();
  }
  test.skip(!demo.container, 'no Docker engine or task image (KANDEV_DOCKER_IMAGE)');
  return demo.container!;
}

const markers = (page: any, uri: string) => page.evaluate((uri: string) => {
  const { monaco } = (window as any).demo;
  return monaco.editor.getModelMarkers({ resource: monaco.Uri.parse(uri) }).map((m: any) => m.message as string);
}, uri);

test('the Local Docker session: a gopls diagnostic and completion from the task container', async ({ page, demo }) => {
  const container = taskContainer(demo);
  expect(docker('container', 'inspect', '--format', '{{.State.Running}}', container)).toBe('false');

  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);
  await expect(page.locator('#session option[value="docker"]')).toHaveText('docker (Local Docker)');
  await page.locator('#session').selectOption('docker');
  await openFile(page, 'main.go');
  await waitReady(page);

  // The sample's mistake, reported by the gopls of the container's
  // /workspace: the relay resumed the container and gopls runs in it.
  await expect.poll(() => markers(page, 'kandev://docker/main.go')).toContainEqual(expect.stringContaining('cannot use "three"'));
  expect(docker('container', 'inspect', '--format', '{{.State.Running}}', container)).toBe('true');
  expect(docker('top', container)).toContain('/usr/local/bin/gopls');

  await newLineAfter(page, 'var count int');
  await page.keyboard.type('greet.');
  await expect(suggestRows(page).filter({ hasText: 'Hello' })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(suggestRows(page)).toHaveCount(0);
});

// Node is in the task image: the npm servers install inside the container
// (its own $HOME, the registry reached from it) and run there.
test('the Local Docker session: the TypeScript server and pyright installed and run in the task container', async ({ page, demo }) => {
  test.setTimeout(240_000);
  const container = taskContainer(demo);
  await putSettings(page, { lsp_auto_start_languages: ['typescript', 'python'], lsp_auto_install_languages: ['typescript', 'python'] });
  await openDemo(page);
  await page.locator('#session').selectOption('docker');
  const ready = () => expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready', { timeout: 150_000 });
  const typeAtEnd = (text: string) => page.evaluate((text) => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const end = model.getFullModelRange().getEndPosition();
    editor.executeEdits('e2e', [{ range: { startLineNumber: end.lineNumber, startColumn: end.column, endLineNumber: end.lineNumber, endColumn: end.column }, text }]);
  }, text);

  await openFile(page, 'ts/main.ts');
  await ready();
  await typeAtEnd('\nconst count: number = "three";\n');
  await expect.poll(() => markers(page, 'kandev://docker/ts/main.ts'), { timeout: 60_000 })
    .toContainEqual(expect.stringContaining("Type 'string' is not assignable to type 'number'"));
  expect(docker('top', container)).toContain('typescript-language-server');

  await openFile(page, 'py/app.py');
  await ready();
  await typeAtEnd('\ncount: int = "three"\n');
  await expect.poll(() => markers(page, 'kandev://docker/py/app.py'), { timeout: 60_000 })
    .toContainEqual(expect.stringContaining('is not assignable to declared type "int"'));
  expect(docker('top', container)).toContain('pyright-langserver');
});

// The newer npm entries in the container too: Vue's server with the
// TypeScript server and Vue's plugin beside it (one install each, in the
// container's own cache), and tombi's native binary for TOML.
test('the Local Docker session: Vue and TOML servers installed and run in the task container', async ({ page, demo }) => {
  test.setTimeout(240_000);
  const container = taskContainer(demo);
  await putSettings(page, { lsp_auto_start_languages: ['vue', 'toml'], lsp_auto_install_languages: ['vue', 'toml'] });
  await openDemo(page);
  await page.locator('#session').selectOption('docker');
  const symbol = (name: string) => page.locator('#outline .outline-symbol').filter({ hasText: name }).first();

  await openFile(page, 'web/Banner.vue');
  await expect(symbol('greet')).toBeVisible({ timeout: 150_000 });
  await expect.poll(() => docker('top', container), { timeout: 60_000 }).toContain('vue-language-server');
  expect(docker('top', container)).toMatch(/lsp-servers\/vue-typescript\/.*typescript-language-server/);

  await openFile(page, 'deploy/greeter.toml');
  await expect(symbol('server')).toBeVisible({ timeout: 150_000 }); // a table of the file: none of Banner.vue's
  expect(docker('top', container)).toContain('cli-linux-x64/tombi lsp');
});
