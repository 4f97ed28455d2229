import { bareTest as test, expect, openDemo, writeScript, putSettings, view, openFile } from './fixtures';

// A bare task host (fresh HOME, no npm servers on PATH; the fake stands in
// for rust-analyzer and kotlin-lsp). The browser renders categorical close
// codes and elapsed time from its own catalogs, never the task host's
// prose; with auto-install on, the agent installs the server for real.

const status = (page: any) => page.locator('#lsp-status');

async function openGerman(page: any) {
  await page.goto('/?locale=de');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

test('a missing auto-installable server shows the German catalog message, not transport prose', async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['python', 'rust'], lsp_auto_install_languages: [] });
  // The task host's 4001, passed on with English prose as its close
  // reason, as a backend that explains itself might send it: the browser
  // gets the reason; the page must show only its own catalog's words.
  const prose = 'exec: "pyright-langserver": executable file not found in $PATH';
  const closes: number[] = [];
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    const server = ws.connectToServer();
    server.onClose((code, reason) => {
      if (code !== undefined) closes.push(code);
      ws.close({ code, reason: code === 4001 ? prose : reason });
    });
  });
  await openGerman(page);
  await openFile(page, 'tool.py');
  await expect(status(page)).toHaveAttribute('data-close-code', '4001');
  await expect(status(page)).toContainText('ist auf dem Task-Host nicht installiert');
  await status(page).click();
  const popover = page.locator('#lsp-popover');
  await expect(popover).toContainText('automatische Installation');
  await expect(popover).not.toContainText('not installed');
  expect(closes).toContain(4001);
  await expect(popover).not.toContainText('executable file not found');
  await expect(status(page)).not.toContainText('executable file not found');
  // The task host can install it: Install comes first, with what it runs
  // there, as the Settings page shows it.
  await expect(page.locator('#lsp-install-action')).toHaveText('Installieren');
  await expect(page.locator('#lsp-install-action')).toBeFocused();
  await expect(page.locator('#command-popover')).toContainText('npm');
  await expect(page.locator('#destination-popover')).toContainText('pyright');
  const v = await view(page, 'python');
  expect(v.state).toBe('error');
});

test('a pending initialize shows increasing elapsed time in German units, with Stop and no ETA', async ({ page, demo }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['rust'] });
  writeScript(demo, { neverAnswerInitialize: true });
  await openGerman(page);
  await openFile(page, 'src/main.rs');
  await expect(status(page)).toHaveAttribute('data-state', 'starting');
  // The control names its language, then the German summary.
  await expect(status(page)).toHaveText(/^Rust · Initialisierung \(\d+ Sek\.\)$/);
  const seconds = async () => Number(/\((\d+) Sek\.\)/.exec(await status(page).innerText())?.[1] ?? -1);
  const first = await seconds();
  await expect.poll(seconds, { timeout: 10_000 }).toBeGreaterThan(first);
  await status(page).click();
  const popover = page.locator('#lsp-popover');
  await expect(popover).toContainText('Warte auf die Antwort auf initialize');
  await expect(page.locator('#lsp-action')).toBeVisible();
  expect((await view(page, 'rust')).action).toBe('stop');
  await expect(popover).not.toContainText(/%|verbleibend|remaining/);
});

test('Install in the popover turns auto-install on: the missing server is installed on the task host and comes up ready', async ({ page }) => {
  test.setTimeout(180_000);
  await putSettings(page, { lsp_auto_start_languages: ['python'], lsp_auto_install_languages: ['go'] });
  await openDemo(page);
  await page.evaluate(() => {
    const d = (window as any).demo;
    (window as any).states = [];
    d.lsp.onStatus(() => {
      const v = d.lsp.view(d.sessionId, 'python');
      const states = (window as any).states;
      if (v && states[states.length - 1] !== v.state) states.push(v.state);
    });
  });
  await openFile(page, 'tool.py');
  await expect(status(page)).toHaveAttribute('data-close-code', '4001');
  await status(page).click();
  await page.locator('#lsp-install-action').click();
  // A real npm install of pyright into the bare host's ~/.kandev/lsp-servers.
  await expect(status(page)).toHaveAttribute('data-state', 'ready', { timeout: 150_000 });
  const saved = await (await page.request.get('/api/v1/user/settings')).json();
  expect(saved.lsp_auto_install_languages).toEqual(['go', 'python']);
  // Installed: the popover offers Install no more.
  await expect(page.locator('#lsp-install')).toBeHidden();
  const states: string[] = await page.evaluate(() => (window as any).states);
  expect(states).toContain('installing');
  expect(states.indexOf('installing')).toBeLessThan(states.indexOf('ready'));
});

test('an install that fails without a detail shows the German fallback, never the close prose', async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['python'], lsp_auto_install_languages: ['python'] });
  // No task host sends a 4003 without its install_failed detail first, so
  // the page's socket is answered here: an installing frame, then the
  // close with English prose as its reason and no detail before it.
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    ws.send(JSON.stringify({ status: 'installing', language: 'python' }));
    setImmediate(() => ws.close({ code: 4003, reason: 'npm ERR! code E404 pyright@1.1.414 not found' }));
  });
  await openGerman(page);
  await openFile(page, 'tool.py');
  await expect(status(page)).toHaveAttribute('data-close-code', '4003');
  await expect(status(page)).toHaveText('Python · Die Installation von pyright-langserver ist fehlgeschlagen.');
  await status(page).click();
  const popover = page.locator('#lsp-popover');
  await expect(popover).toContainText('Der Task-Host konnte pyright-langserver nicht installieren.');
  await expect(popover).not.toContainText('npm ERR');
  await expect(page.locator('#lsp-action')).toHaveText('Erneut versuchen');
});
