import { demoTest, expect, openDemo, openFile, putSettings } from './fixtures';
import { action, activeModel, cursorAt, cursorLine, waitReady } from './editor';
import type { Page } from '@playwright/test';

// A task laid out as two checked-out repositories, api and lib (made Git
// repositories when the demo copies e2e/workspaces/repos), with a go.work
// over both: the task host's ready frame carries their subpaths, the Files
// tree names them, and gopls' definitions lead from api into lib — one of
// them into a file three folders deep.
const test = demoTest({ sample: 'e2e/workspaces/repos', repos: ['api', 'lib'] });

const tabs = (page: Page) => page.locator('#tabs [role="tab"]');

/** readyFrames records the task host's status frames that reach the page. */
async function readyFrames(page: Page) {
  const frames: any[] = [];
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const text = String(m);
      if (text.includes('"status"')) frames.push(JSON.parse(text));
      ws.send(m);
    });
  });
  return frames;
}

/** definitionAt runs go to definition at text until the editor leaves path:
 * gopls answers nothing while it still loads the workspace. */
async function definitionAt(page: Page, path: string, text: string) {
  await expect.poll(async () => {
    if ((await page.locator('#current-file').innerText()) !== path) return 'left';
    try {
      await cursorAt(page, text, 1);
      await action(page, 'editor.action.revealDefinition');
    } catch (err) {
      // The previous attempt's navigation switched tabs meanwhile: the
      // editor holds no model while the target loads.
      if ((await page.locator('#current-file').innerText()) !== path) return 'left';
      throw err;
    }
    return (await page.locator('#current-file').innerText()) !== path ? 'left' : 'stayed';
  }, { timeout: 60_000, intervals: [500, 1000, 2000] }).toBe('left');
}

test.beforeEach(async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
});

test('two repositories: the ready frame names them, the tree marks them, and a definition activates the open tab of the other repository', async ({ page }) => {
  const frames = await readyFrames(page);
  await page.reload();
  await openDemo(page);
  for (const repo of ['api', 'lib']) {
    await expect(page.locator(`#files button.folder[data-dir="${repo}"] .repo-badge`)).toHaveText('repository');
  }

  // lib/lib.go open from the tree (its task-root identity), then api's main.
  await openFile(page, 'lib/lib.go');
  // A folder inside a repository is no repository of its own.
  await expect(page.locator('#files button.folder[data-dir="lib/text"]')).toHaveText('text');
  await openFile(page, 'api/main.go');
  await waitReady(page);
  const ready = frames.find((f) => f.status === 'ready');
  expect(ready.repoSubpaths).toEqual(['api', 'lib']);

  await definitionAt(page, 'api/main.go', 'Name()');
  await expect(page.locator('#current-file')).toHaveText('lib/lib.go');
  await expect(tabs(page)).toHaveCount(2);
  await expect.poll(() => activeModel(page)).toBe('kandev://demo/lib/lib.go');
  await expect.poll(() => cursorLine(page)).toBe(5);
});

test('a definition three folders deep expands every folder above it and marks the file', async ({ page }) => {
  await page.reload();
  await openDemo(page);
  await openFile(page, 'api/main.go');
  await waitReady(page);
  // lib is closed and the folders below it not even loaded yet.
  await expect(page.locator('#files button.folder[data-dir="lib"]')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#files button.folder[data-dir="lib/text"]')).toHaveCount(0);
  await definitionAt(page, 'api/main.go', 'Upper(');
  await expect(page.locator('#current-file')).toHaveText('lib/text/style/upper.go');
  for (const dir of ['lib', 'lib/text', 'lib/text/style']) {
    await expect(page.locator(`#files button.folder[data-dir="${dir}"]`)).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(page.locator('#files button.file[data-path="lib/text/style/upper.go"]')).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#files button.file[data-path="api/main.go"]')).toHaveAttribute('aria-current', 'false');
  await expect.poll(() => cursorLine(page)).toBe(8);
});
