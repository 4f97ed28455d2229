import { demoTest, expect, openDemo, openFile, putSettings, lspMarkers } from './fixtures';
import { action, newLineAfter, suggestRows, waitReady } from './editor';
import type { Page } from '@playwright/test';

// The demo's own sample, opened as a new user would: the files a real
// repository has beside its code each get their server, with the mistake
// the sample keeps on purpose shown as a marker.
const test = demoTest({ npmServers: true });

const languages = ['css', 'shell', 'c', 'json', 'yaml', 'dockerfile', 'markdown', 'html', 'php', 'svelte', 'graphql', 'terraform', 'sql', 'toml', 'vue'];

test.beforeEach(async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: languages, lsp_auto_install_languages: languages.filter((l) => l !== 'c') });
  await openDemo(page);
});

for (const [file, message] of [
  ['web/style.css', /Unknown property: 'colr'/],
  ['scripts/greet.sh', /Double quote to prevent globbing/],
] as const) {
  test(`the sample's ${file} shows its server's warning`, async ({ page }) => {
    await openFile(page, file);
    await waitReady(page);
    await expect.poll(() => lspMarkers(page, `kandev://demo/${file}`), { timeout: 90_000 }).toContainEqual(expect.stringMatching(message));
    if (file !== 'web/style.css') return;
    // Monaco's own CSS checker marks the same line in the same editor: the
    // Problems count and list hold its warning beside the server's.
    const own = () => page.evaluate(() => {
      const { monaco } = (window as any).demo;
      return monaco.editor.getModelMarkers({ owner: 'css' }).filter((m: any) => m.severity === 4).map((m: any) => m.message);
    });
    await expect.poll(own).toContainEqual(expect.stringMatching(message));
    const warnings = await page.evaluate(() => {
      const { monaco } = (window as any).demo;
      return monaco.editor.getModelMarkers({}).filter((m: any) => m.severity === 4 && m.resource.scheme === 'kandev').length;
    });
    expect(warnings).toBeGreaterThanOrEqual(2);
    await expect(page.locator('#problems-badge')).toHaveAttribute('data-warnings', String(warnings));
    await page.locator('#toggle-problems').click();
    await expect(page.locator(`#problems .problem-file[data-path="${file}"] .problem[data-severity="warning"]`)).toHaveCount(warnings);
    await page.locator('#toggle-problems').click(); // closed again for the next test
  });
}

// The rest have no mistake to show; their server's outline of the file is
// what a user sees of them.
for (const [file, symbol] of [
  ['package.json', 'scripts'],
  ['deploy/service.yaml', 'replicas'],
  ['Dockerfile', 'ENTRYPOINT'],
  ['native/greet.c', 'greet'],
  ['web/index.html', 'main.card'],
  ['api/Greeter.php', 'hello'],
  ['web/Counter.svelte', 'increment'],
  ['api/schema.graphql', 'Greeting'],
  ['deploy/main.tf', 'replicas'],
  ['deploy/greeter.toml', 'greeting'],
  ['web/Banner.vue', 'greet'],
] as const) {
  test(`the sample's ${file} gets its server's outline`, async ({ page }) => {
    await openFile(page, file);
    await waitReady(page);
    await expect(page.locator('#outline .outline-symbol').filter({ hasText: symbol }).first()).toBeVisible({ timeout: 60_000 });
    expect(await lspMarkers(page, `kandev://demo/${file}`)).toEqual([]);
  });
}

// The Markdown server parses through its client (markdown/parse) and reads
// the workspace through it (markdown/fs/*): the headings are the outline,
// and the README's link to a file that does not exist is its warning.
test("the sample's README.md gets the Markdown server's outline and its broken link", async ({ page }) => {
  await openFile(page, 'README.md');
  await waitReady(page);
  await expect(page.locator('#lsp-status')).toContainText('Markdown');
  for (const heading of ['greeter', 'Files that are not code']) {
    await expect(page.locator('#outline .outline-symbol').filter({ hasText: heading }).first()).toBeVisible({ timeout: 60_000 });
  }
  await expect.poll(() => lspMarkers(page, 'kandev://demo/README.md'), { timeout: 60_000 })
    .toEqual([expect.stringMatching(/File does not exist at path: .*deploy\/NOTES\.md/)]);
});

// The SQL server has no outline; what a user gets of it without a database
// is its keywords and its syntax check: the half-typed statement is the one
// marker, the sample's schema above it none.
test("the sample's db/schema.sql gets the SQL server's keywords", async ({ page }) => {
  await openFile(page, 'db/schema.sql');
  await waitReady(page);
  await newLineAfter(page, 'WHERE id = 1;');
  await page.keyboard.type('SEL');
  await expect.poll(async () => {
    if (await suggestRows(page).count() === 0) await action(page, 'editor.action.triggerSuggest');
    return suggestRows(page).allInnerTexts();
  }, { timeout: 60_000 }).toContainEqual(expect.stringContaining('SELECT'));
  await expect.poll(() => lspMarkers(page, 'kandev://demo/db/schema.sql'), { timeout: 30_000 }).toEqual([expect.stringMatching(/but "S" found/)]);
});
