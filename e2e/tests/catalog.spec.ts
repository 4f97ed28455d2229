import { demoTest, expect, openDemo, openFile, openSettings, closeSettings, putSettings, type Demo, lspMarkers } from './fixtures';
import { waitReady } from './editor';
import type { Page } from '@playwright/test';

// The open catalog, end to end: one file per built-in server, each served
// by the server the catalog names for it (found on the agent's PATH, or
// installed by the agent from its pinned lockfile into the task's managed
// cache), and the choice of server per language made in Settings reaching
// the open file without a reload.
const test = demoTest({ npmServers: true, sample: 'e2e/workspaces/catalog' });

const all = ['typescript', 'python', 'go', 'json', 'yaml', 'shell', 'dockerfile', 'c', 'php', 'svelte', 'graphql', 'terraform', 'sql', 'html', 'css', 'toml', 'vue'];

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: all, lsp_auto_install_languages: all.filter((l) => l !== 'c'), lsp_server_configs: {}, lsp_language_servers: {} });
  await openDemo(page);
});

/** started lists the agent's log lines of servers it started, each naming its catalog id (server=ID). */
const started = (demo: Demo) => demo.logs.join('').split('\n').filter((l) => l.includes('language server started'));

for (const [file, server, message] of [
  ['broken.json', 'vscode-json-language-server', /Trailing comma/i],
  ['config.yaml', 'yaml-language-server', /.+/],
  ['run.sh', 'bash-language-server', /Double quote to prevent globbing/],
  ['Dockerfile', 'dockerfile-language-server', /MAINTAINER.*deprecated/i],
  ['main.c', 'clangd', /undeclared identifier 'undefined_count'/],
  ['broken.php', 'intelephense', /Unexpected '\{'/],
  ['broken.svelte', 'svelte-language-server', /Type 'string' is not assignable to type 'number'/],
  ['graphql/broken.graphql', 'graphql-language-server', /Cannot query field "hellox" on type "Query"/],
  ['broken.tf', 'terraform-ls', /Invalid expression/],
  ['broken.sql', 'sql-language-server', /Expected .*"SELECT".* but "S" found/],
  ['broken.toml', 'tombi', /duplicate key: port/],
  ['broken.vue', 'vue-typescript', /Type 'string' is not assignable to type 'number'/],
  ['go.mod', 'gopls', /usage: require|malformed|unexpected/i],
] as const) {
  test(`${file} gets ${server}'s diagnostics`, async ({ page, demo }) => {
    await openFile(page, file);
    await waitReady(page);
    await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`), { timeout: 90_000 }).toContainEqual(expect.stringMatching(message));
    await expect.poll(() => started(demo).some((l) => l.includes(`server=${server} `))).toBe(true);
  });
}

test('choosing tsgo in Settings moves the open TypeScript file to it', async ({ page, demo }) => {
  await openFile(page, 'answer.ts');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${'answer.ts'}`), { timeout: 60_000 }).toEqual(["Type 'string' is not assignable to type 'number'."]);
  expect(started(demo).some((l) => l.includes('server=typescript-language-server '))).toBe(true);
  await openSettings(page);
  await page.locator('#server-typescript').selectOption('tsgo');
  await expect(page.locator('#card-note-typescript')).toContainText('tsgo');
  await closeSettings(page);
  // The old connection ended and tsgo serves the file: its error is pulled.
  await expect.poll(() => started(demo).some((l) => l.includes('server=tsgo ')), { timeout: 60_000 }).toBe(true);
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${'answer.ts'}`), { timeout: 60_000 }).toEqual(["Type 'string' is not assignable to type 'number'."]);
  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect(saved.lsp_language_servers).toEqual({ typescript: ['tsgo'] });
});

test('switching Python to basedpyright in Settings reaches the open file', async ({ page, demo }) => {
  await openFile(page, 'app.py');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${'app.py'}`), { timeout: 60_000 }).toContainEqual(expect.stringContaining('"int" is not assignable to return type "str"'));
  await openSettings(page);
  await page.locator('#server-python').selectOption('basedpyright');
  await closeSettings(page);
  await expect.poll(() => started(demo).some((l) => l.includes('server=basedpyright ')), { timeout: 120_000 }).toBe(true);
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, `kandev://demo/${'app.py'}`), { timeout: 60_000 }).toContainEqual(expect.stringContaining('"int" is not assignable to return type "str"'));
});

// Tailwind CSS beside the HTML server, as a user adds it in Settings: both
// serve the page, and Tailwind's own check (two classes setting the same
// property) is a marker beside whatever the HTML server says.
test('Tailwind CSS beside the HTML server flags conflicting classes', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: all, lsp_auto_install_languages: all.filter((l) => l !== 'c'), lsp_language_servers: { html: ['vscode-html-language-server', 'tailwindcss-language-server'] } });
  await openDemo(page);
  await openFile(page, 'tailwind/page.html');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/tailwind/page.html'), { timeout: 90_000 }).toContainEqual(expect.stringMatching(/'p-4' applies the same CSS properties as 'p-2'/));
  await expect.poll(() => started(demo).some((l) => l.includes('server=tailwindcss-language-server '))).toBe(true);
  expect(started(demo).some((l) => l.includes('server=vscode-html-language-server '))).toBe(true);
});

// python-lsp-server, another choice for Python where the task host has it
// (Debian's python3-pylsp with pyflakes): pyflakes' finding on the file.
test('choosing pylsp for Python reaches the open file with pyflakes', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: all, lsp_auto_install_languages: all.filter((l) => l !== 'c'), lsp_language_servers: { python: ['pylsp'] } });
  await openDemo(page);
  await openFile(page, 'unused.py');
  await waitReady(page);
  await expect.poll(() => lspMarkers(page, 'kandev://demo/unused.py'), { timeout: 60_000 }).toContainEqual(expect.stringMatching(/'os' imported but unused/));
  await expect.poll(() => started(demo).some((l) => l.includes('server=pylsp '))).toBe(true);
});

// Vue: its server and, beside it by default, the TypeScript server with
// Vue's plugin. Vue's server asks its client for TypeScript's answers
// (tsserver/request); the page runs each on the TypeScript server and
// hands the answer back (tsserver/response). Unanswered, Vue's server
// would hold its features: the outline it gives is the sign, and the
// answers it got came from the real TypeScript server, not nulls.
test('a .vue file gets the Vue server its TypeScript answers through the page', async ({ page, demo }) => {
  const answers: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => {
    const frame = typeof payload === 'string' ? payload : payload.toString('utf8');
    if (frame.includes('"method":"tsserver/response"')) answers.push(frame);
  }));
  await openFile(page, 'broken.vue');
  await waitReady(page);
  await expect(page.locator('#outline .outline-symbol').filter({ hasText: 'total' }).first()).toBeVisible({ timeout: 90_000 });
  await expect.poll(() => lspMarkers(page, 'kandev://demo/broken.vue'), { timeout: 90_000 }).toContainEqual(expect.stringMatching(/Type 'string' is not assignable to type 'number'/));
  const bodies = answers.map((f) => JSON.parse(f).params[0][1]);
  expect(bodies.filter((b) => b !== null).length, answers.join('\n')).toBeGreaterThan(0);
  expect(started(demo).some((l) => l.includes('server=vue-typescript '))).toBe(true);
  expect(started(demo).some((l) => l.includes('language=vue'))).toBe(true);
});
