import { test, expect, openDemo, putSettings, openSettings, closeSettings } from './fixtures';
import type { Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

// The Editors settings page against this machine as the task host: the
// installer details come from the agent, through the relay's installers
// route; the configuration is checked before anything is saved.

const onPath = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
// The managed npm cache of the task host: the agent runs with this HOME.
const managed = (name: string) => path.join(os.homedir(), '.kandev', 'lsp-servers', name);

// The demo (and its settings) is shared by the specs of this worker: put
// back the demo's own defaults.
test.afterEach(async ({ page }) => {
  const auto = ['go', 'typescript', 'python'];
  await putSettings(page, { lsp_auto_start_languages: auto, lsp_auto_install_languages: auto, lsp_server_configs: {} });
});

async function installers(page: Page) {
  const res = await page.request.get('/api/v1/sessions/demo/lsp/installers');
  expect(res.ok()).toBeTruthy();
  const body = await res.json();
  return Object.fromEntries(body.languages.map((l: any) => [l.language, l]));
}

test('the language cards show the task host installer command, prerequisites and destination, and Kotlin guidance', async ({ page }) => {
  await openDemo(page);
  await openSettings(page);
  await expect(page.locator('#installers-host')).toHaveText(/^Task host of session demo: linux\//);
  const answer = await installers(page);

  for (const [lang, pkg, dir] of [
    ['typescript', 'typescript-language-server@5.3.0 typescript@6.0.3', 'typescript-language-server'],
    ['python', 'pyright@1.1.414', 'pyright'],
  ]) {
    const card = page.locator(`#card-${lang}`);
    // Visible as they are, no hover needed.
    const command = card.locator(`#command-${lang}`);
    await expect(command).toBeVisible();
    await expect(command).toHaveText(`npm install --no-audit --no-fund --save-exact ${pkg}`);
    expect(answer[lang].installCommand.join(' ')).toBe(await command.innerText());
    await expect(card).toContainText(`Runs in ${managed(dir)}`);
    await expect(card.locator(`#destination-${lang}`)).toBeVisible();
    await expect(card.locator(`#destination-${lang}`)).toHaveText(path.join(managed(dir), 'node_modules', '.bin'));
    for (const tool of ['node', 'npm']) {
      const li = card.locator(`#prereqs-${lang} li[data-name="${tool}"]`);
      await expect(li).toBeVisible();
      await expect(li).toHaveText(onPath(tool) ? `${tool}: found` : `${tool}: missing on this task host`);
    }
    await expect(card.locator(`#auto-install-${lang}`)).toBeVisible();
  }
  // Go: `go install` into the Go bin directory, go found or missing.
  await expect(page.locator('#command-go')).toHaveText('go install golang.org/x/tools/gopls@v0.23.0');
  await expect(page.locator('#prereqs-go li[data-name="go"]')).toHaveText(onPath('go') ? 'go: found' : 'go: missing on this task host');
  await expect(page.locator('#destination-go')).toHaveText(answer.go.destination);

  // Kotlin: never installed; says why and what to do instead.
  const kotlin = page.locator('#card-kotlin');
  await expect(kotlin.locator('.badge')).toHaveText('Experimental');
  await expect(kotlin.locator('#guidance-kotlin')).toHaveText(
    "Kandev never installs kotlin-lsp. Install it on the task host and make it available on the task host's PATH; auto-start then uses it.");
  await expect(kotlin.locator('#auto-install-kotlin-none')).toHaveText('Never installed automatically.');
  await expect(kotlin.locator('input.auto-install')).toHaveCount(0);
  await expect(kotlin.locator('#command-kotlin')).toHaveCount(0);
  await expect(kotlin.locator('#auto-start-kotlin')).toBeVisible();

  // The same details in German.
  await page.locator('#locale').selectOption('de');
  await expect(page.locator('#card-python')).toContainText('Installationsbefehl');
  await expect(page.locator('#card-python')).toContainText('Zielort');
  await expect(page.locator('#card-kotlin #guidance-kotlin')).toContainText('Kandev installiert kotlin-lsp nie.');
  await page.locator('#locale').selectOption('en');
});

test('a bad JSON configuration is refused next to its field, naming it, and nothing is saved', async ({ page }) => {
  await putSettings(page, { lsp_server_configs: { go: { gopls: { staticcheck: true } } } });
  await openDemo(page);
  const puts: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PUT' && r.url().endsWith('/api/v1/user/settings')) puts.push(r.postData() ?? ''); });
  await openSettings(page);
  const field = page.locator('#config-go');
  await expect(field).toHaveValue(/"staticcheck": true/);

  await field.fill('{"gopls": {"staticcheck": fals');
  await page.locator('#save-config-go').click();
  const error = page.locator('#config-error-go');
  await expect(error).toContainText('Go configuration (lsp_server_configs.go) is not valid JSON');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#config-saved-go')).toHaveText('');
  // Next to the field: right below it, in the same card.
  const f = (await field.boundingBox())!;
  const e = (await error.boundingBox())!;
  expect(e.y).toBeGreaterThanOrEqual(f.y + f.height);
  expect(e.y - (f.y + f.height)).toBeLessThan(30);

  await field.fill('["gopls"]');
  await page.locator('#save-config-go').click();
  await expect(error).toHaveText('Go configuration (lsp_server_configs.go) must be a JSON object.');
  // A locale switch redraws the page: the refusal is said again in German.
  await page.locator('#locale').selectOption('de');
  await expect(error).toHaveText('Die Go-Konfiguration (lsp_server_configs.go) muss ein JSON-Objekt sein.');
  await page.locator('#locale').selectOption('en');
  await expect(error).toHaveText('Go configuration (lsp_server_configs.go) must be a JSON object.');

  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect(saved.lsp_server_configs).toEqual({ go: { gopls: { staticcheck: true } } });
  expect(puts).toEqual([]);

  // A valid object is saved; the error goes.
  await field.fill('{"gopls": {"staticcheck": false}}');
  await page.locator('#save-config-go').click();
  await expect(page.locator('#config-saved-go')).toHaveText('Saved.');
  await expect(error).toHaveText('');
  // And "Saved." too.
  await page.locator('#locale').selectOption('de');
  await expect(page.locator('#config-saved-go')).toHaveText('Gespeichert.');
  await page.locator('#locale').selectOption('en');
  await expect(page.locator('#config-saved-go')).toHaveText('Saved.');
  await expect(field).toHaveAttribute('aria-invalid', 'false');
  expect((await (await page.request.get('/api/v1/user/settings')).json()).lsp_server_configs).toEqual({ go: { gopls: { staticcheck: false } } });
  expect(puts.length).toBe(1);
});

test('auto-start and auto-install save one control at a time', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'], lsp_auto_install_languages: [] });
  await openDemo(page);
  await openSettings(page);
  await expect(page.locator('#auto-start-go')).toBeChecked();
  await page.locator('#auto-start-python').check();
  await expect(page.locator('#card-note-python')).toHaveText('Saved.');
  await page.locator('#auto-install-typescript').check();
  await expect(page.locator('#card-note-typescript')).toHaveText('Saved.');
  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect([...saved.lsp_auto_start_languages].sort()).toEqual(['go', 'python']);
  expect(saved.lsp_auto_install_languages).toEqual(['typescript']);
});

test.describe(() => {
  test.use({
    expectedPageErrors: [{
      pattern: /^Failed to load resource: the server responded with a status of 409 \(Conflict\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/sessions\/demo\/lsp\/installers:0\)$/,
      why: 'the test answers the installers route with 409 itself (a relay refusing the session); Chromium logs every 4xx answer',
    }],
  });

  test('a host without an installer says why and what to do instead; a refused session says so', async ({ page }) => {
    await openDemo(page);
    // The task host's own answer for a Windows host: no rust-analyzer installer there.
    const real = await (await page.request.get('/api/v1/sessions/demo/lsp/installers')).json();
    const windows = {
      ...real, goos: 'windows', goarch: 'amd64',
      languages: real.languages.map((l: any) => (l.language === 'rust'
        ? { language: 'rust', command: 'rust-analyzer', found: false, installable: false, reason: 'unsupported_os', guidance: 'No automatic installer.' }
        : l)),
    };
    await page.route('**/api/v1/sessions/demo/lsp/installers', (route) => route.fulfill({ json: windows }));
    await openSettings(page);
    await expect(page.locator('#installers-host')).toHaveText('Task host of session demo: windows/amd64');
    await expect(page.locator('#guidance-rust')).toHaveText(
      "This task host (windows/amd64) has no installer for rust-analyzer. Install rust-analyzer manually on the task host's PATH; a manually installed server still runs.");
    // The preference itself stays offered: the task host is the final authority.
    await expect(page.locator('#auto-install-rust')).toBeVisible();
    await expect(page.locator('#command-rust')).toHaveCount(0);
    await closeSettings(page);

    // The relay refuses the session (its executor is not served): the page
    // says so in the stream's words for that code.
    await page.unroute('**/api/v1/sessions/demo/lsp/installers');
    await page.route('**/api/v1/sessions/demo/lsp/installers', (route) => route.fulfill({ status: 409, json: { error: 'x', code: 4004 } }));
    await openSettings(page);
    await expect(page.locator('#installers-host')).toHaveText('This task host is not supported.');
    await expect(page.locator('#card-python .installer')).toBeEmpty();
  });
});

test('a server picked to add and the focus survive a redraw of the page (the task host\'s answer, a locale switch)', async ({ page }) => {
  await putSettings(page, { lsp_language_servers: {} });
  await openDemo(page);
  await openSettings(page);
  const pick = page.locator('#add-server-typescript');
  await pick.selectOption('eslint');
  await pick.focus();
  // A redraw, as the installers answer or a locale switch makes one.
  await page.evaluate(() => {
    const locale = document.getElementById('locale') as HTMLSelectElement;
    locale.value = 'de';
    locale.dispatchEvent(new Event('change'));
  });
  await expect(page.locator('#settings-title')).toHaveText('Editoren');
  await expect(pick).toHaveValue('eslint');
  await expect(pick).toBeFocused();
  await page.locator('#locale').selectOption('en');
});

test('a save\'s "Saved." stays when the task host\'s answer redraws the page after it', async ({ page }) => {
  await openDemo(page);
  // The installers answer held back until the save has been shown, as a
  // slow task host does.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/api/v1/sessions/demo/lsp/installers', async (route) => {
    await held;
    await route.continue();
  });
  await openSettings(page);
  await expect(page.locator('#installers-host')).not.toHaveText(/^Task host of session demo: linux\//);
  await page.locator('#auto-start-python').uncheck();
  await expect(page.locator('#card-note-python')).toHaveText('Saved.');
  await page.locator('#config-go').fill('{"gofumpt": true}');
  await page.locator('#save-config-go').click();
  await expect(page.locator('#config-saved-go')).toHaveText('Saved.');
  release();
  // The redraw the answer makes: the host line names the task host.
  await expect(page.locator('#installers-host')).toHaveText(/^Task host of session demo: linux\//);
  await expect(page.locator('#card-note-python')).toHaveText('Saved.');
  await expect(page.locator('#config-saved-go')).toHaveText('Saved.');
  await expect(page.locator('#auto-start-python')).not.toBeChecked();
});

test('a redraw between selecting a configuration and typing keeps the selection: the typing replaces it', async ({ page }) => {
  await openDemo(page);
  await openSettings(page);
  const config = page.locator('#config-go');
  await config.fill('{"old": true}');
  await config.focus();
  await config.press('ControlOrMeta+a');
  // A redraw, as the task host's answer makes one.
  await page.evaluate(() => {
    const locale = document.getElementById('locale') as HTMLSelectElement;
    locale.value = 'de';
    locale.dispatchEvent(new Event('change'));
  });
  await expect(page.locator('#settings-title')).toHaveText('Editoren');
  await page.keyboard.insertText('{"new": true}');
  await expect(config).toHaveValue('{"new": true}');
  await page.locator('#locale').selectOption('en');
});
