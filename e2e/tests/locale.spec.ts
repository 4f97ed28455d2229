import { bareTest as test, expect, openDemo, writeScript, putSettings, view, openFile } from './fixtures';

// The browser renders categorical close codes and elapsed time from its own
// catalogs, never the task host's prose.

const status = (page: any) => page.locator('#lsp-status');

async function openGerman(page: any) {
  await page.goto('/?locale=de');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

test('a missing auto-installable server shows the German catalog message, not transport prose', async ({ page }) => {
  await openDemo(page);
  await putSettings(page, { lsp_auto_start_languages: ['python', 'rust'], lsp_auto_install_languages: [] });
  await openGerman(page);
  await openFile(page, 'tool.py');
  await expect(status(page)).toHaveAttribute('data-close-code', '4001');
  await expect(status(page)).toContainText('ist auf dem Task-Host nicht installiert');
  await status(page).click();
  const popover = page.locator('#lsp-popover');
  await expect(popover).toContainText('automatische Installation');
  await expect(popover).not.toContainText('not installed');
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
  await expect(status(page)).toHaveText(/^Initialisierung \(\d+ Sek\.\)$/);
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
