import { test, expect, openDemo, openFile, putSettings, view, openSettings, closeSettings, markerMessages } from './fixtures';
import type { Page } from '@playwright/test';

// Where the status control of the active editor is, on a desktop (fine
// pointer), against real gopls and pyright: the toolbar by default, the
// status bar when preferred and shown, the toolbar again when the status bar
// is off (the preference untouched), and nowhere for panels that are not a
// mounted Monaco text editor of a supported file.

const toolbar = (page: Page) => page.locator('#lsp-status');
const bar = (page: Page) => page.locator('#status-bar-lsp');
const popover = (page: Page) => page.locator('#lsp-popover');

// The demo (and its settings) is shared by the specs of this worker: put
// the location back for them.
test.afterEach(async ({ page }) => {
  await putSettings(page, { lsp_status_location: 'toolbar' });
});

async function savedLocation(page: Page) {
  return (await (await page.request.get('/api/v1/user/settings')).json()).lsp_status_location;
}

async function start(page: Page, location: string) {
  await putSettings(page, { lsp_auto_start_languages: ['go', 'python'], lsp_status_location: location });
  await openDemo(page);
}

test('toolbar is the default: the control names its language and opens an anchored popover', async ({ page }) => {
  // An invalid saved value normalizes to the toolbar.
  await start(page, 'sideways');
  expect(await savedLocation(page)).toBe('toolbar');
  await openFile(page, 'main.go');
  await expect(toolbar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(toolbar(page)).toHaveText(/^Go · Ready$/);
  await expect(bar(page)).toBeHidden();
  await expect(page.locator('#status-bar')).toBeVisible();

  await toolbar(page).click();
  await expect(popover(page)).toBeVisible();
  await expect(page.locator('#lsp-drawer')).toBeHidden();
  await expect(popover(page)).toContainText('Go language server');
  await expect(popover(page)).toContainText('gopls is initialized.');
  await expect(page.locator('#lsp-action')).toHaveText('Stop');
  // Anchored: just below the control, inside the window.
  const t = (await toolbar(page).boundingBox())!;
  const p = (await popover(page).boundingBox())!;
  expect(p.y).toBeGreaterThanOrEqual(t.y + t.height);
  expect(p.y - (t.y + t.height)).toBeLessThan(20);
  expect(p.x + p.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await page.keyboard.press('Escape');
  await expect(popover(page)).toBeHidden();
  await expect(toolbar(page)).toBeFocused();
});

test('status_bar moves the control into the status bar; the item follows the active tab', async ({ page }) => {
  await start(page, 'status_bar');
  await openFile(page, 'main.go');
  await expect(bar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(bar(page)).toHaveText('Go · Ready');
  await expect(toolbar(page)).toBeHidden();

  await openFile(page, 'py/app.py');
  await expect(bar(page)).toHaveText(/^Python · /);
  await expect(bar(page)).toHaveAttribute('data-language', 'python');
  await expect(bar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await page.locator('#tabs [role="tab"][data-path="main.go"]').click();
  await expect(bar(page)).toHaveText('Go · Ready');
  await expect(toolbar(page)).toBeHidden();

  // The same popover, anchored above the status-bar item, with the action.
  await bar(page).click();
  await expect(popover(page)).toBeVisible();
  await expect(popover(page)).toContainText('gopls is initialized.');
  await expect(page.locator('#lsp-action')).toHaveText('Stop');
  const b = (await bar(page).boundingBox())!;
  const p = (await popover(page).boundingBox())!;
  expect(p.y + p.height).toBeLessThanOrEqual(b.y);
  expect(b.y - (p.y + p.height)).toBeLessThan(20);
  // A click elsewhere closes it.
  await page.locator('#current-file').click();
  await expect(popover(page)).toBeHidden();
  expect(await savedLocation(page)).toBe('status_bar');
});

test('the status-bar item hides for an unsupported file, a non-file panel, a loading and a binary file', async ({ page }) => {
  await start(page, 'status_bar');
  await openFile(page, 'main.go');
  await expect(bar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });

  // An unsupported file: no item, and no inert control in the toolbar.
  await openFile(page, 'notes.txt');
  await expect(bar(page)).toBeHidden();
  await expect(toolbar(page)).toBeHidden();
  await page.locator('#tabs [role="tab"][data-path="main.go"]').click();
  await expect(bar(page)).toHaveText('Go · Ready');

  // A non-file panel: the Editors settings page.
  await openSettings(page);
  await expect(bar(page)).toBeHidden();
  await closeSettings(page);
  await expect(bar(page)).toHaveText('Go · Ready');

  // Loading: the file's content is held back until the test lets it through.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/api/v1/workspace/file?path=greet%2Fgreet.go', async (route) => { await held; await route.continue(); });
  await openFile(page, 'greet/greet.go', { loaded: false });
  await expect(page.locator('#loading-view')).toBeVisible();
  await expect(page.locator('#loading-view')).toHaveText('Loading greet/greet.go…');
  await expect(bar(page)).toBeHidden();
  await expect(toolbar(page)).toBeHidden();
  release();
  await expect(page.locator('#loading-view')).toBeHidden();
  await expect(bar(page)).toHaveText(/^Go · /);

  // A binary file of the workspace.
  await openFile(page, 'assets/logo.png');
  await expect(page.locator('#binary-view')).toContainText('assets/logo.png is a binary file');
  await expect(bar(page)).toBeHidden();
  await expect(toolbar(page)).toBeHidden();

  // A supported file name whose content is binary: no editor, no document,
  // no control.
  await page.route('**/api/v1/workspace/file?path=ts%2Fmain.ts', (route) =>
    route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]) }));
  await openFile(page, 'ts/main.ts');
  await expect(page.locator('#binary-view')).toContainText('ts/main.ts is a binary file (8 bytes)');
  await expect(bar(page)).toBeHidden();
  await expect(toolbar(page)).toBeHidden();
  const ts = await view(page, 'typescript');
  expect(ts.documents).toBe(0);
  expect(ts.state).toBe('off');
});

test('with Show status bar off the toolbar keeps the control and the saved preference is unchanged', async ({ page }) => {
  await start(page, 'status_bar');
  await openFile(page, 'main.go');
  await expect(bar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });

  await openSettings(page);
  await expect(page.locator('#location-status_bar')).toBeChecked();
  await expect(page.locator('#location-effective')).toHaveText('On this screen the control is in the status bar.');
  await page.locator('#show-status-bar').uncheck();
  await expect(page.locator('#location-effective')).toHaveAttribute('data-fallback', 'status_bar_hidden');
  await expect(page.locator('#location-effective')).toHaveText('The status bar is hidden, so the control stays in the editor toolbar.');
  await closeSettings(page);
  await expect(page.locator('#status-bar')).toBeHidden();
  await expect(toolbar(page)).toHaveText('Go · Ready');
  await expect(toolbar(page)).toBeVisible();
  expect(await savedLocation(page)).toBe('status_bar');

  // Kept in this browser across a reload; the preference still unchanged.
  await page.reload();
  await openDemo(page);
  await openFile(page, 'main.go');
  await expect(toolbar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(bar(page)).toBeHidden();
  await openSettings(page);
  await expect(page.locator('#location-status_bar')).toBeChecked();
  await expect(page.locator('#show-status-bar')).not.toBeChecked();
  await page.locator('#show-status-bar').check();
  await closeSettings(page);
  await expect(bar(page)).toHaveText('Go · Ready');
  await expect(toolbar(page)).toBeHidden();
  expect(await savedLocation(page)).toBe('status_bar');
});

test('choosing the location on the settings page saves it and moves the control', async ({ page }) => {
  await start(page, 'toolbar');
  await openFile(page, 'main.go');
  await expect(toolbar(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await openSettings(page);
  await page.locator('#location-status_bar').check();
  await expect(page.locator('#location-note')).toHaveText('Saved.');
  expect(await savedLocation(page)).toBe('status_bar');
  await closeSettings(page);
  await expect(bar(page)).toHaveText('Go · Ready');
  await expect(toolbar(page)).toBeHidden();
});

test('status-bar items can be reordered by drag and drop or the keyboard, and keep their order', async ({ page }) => {
  await start(page, 'status_bar');
  await openFile(page, 'main.go');
  // A label that still changes (Initializing → Ready) moves the items under
  // the pointer mid-drag: drag once the status has settled, and once gopls's
  // first diagnostics are in (the page redraws around them; a drag begun
  // before once picked up the item next to the one under the pointer).
  await expect(bar(page)).toHaveText('Go · Ready', { timeout: 60_000 });
  await expect.poll(() => markerMessages(page), { timeout: 60_000 }).not.toEqual([]);
  const order = () => page.locator('#status-bar-items > *').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.item));
  expect(await order()).toEqual(['session', 'lsp', 'cursor']);
  await bar(page).dragTo(page.locator('#status-bar-session'), { targetPosition: { x: 2, y: 5 } });
  await expect.poll(order).toEqual(['lsp', 'session', 'cursor']);
  await page.locator('#status-bar-cursor').focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect.poll(order).toEqual(['lsp', 'cursor', 'session']);
  await page.reload();
  await openDemo(page);
  expect(await order()).toEqual(['lsp', 'cursor', 'session']);
});

test('the locale switch changes the control, its popover and the settings page', async ({ page }) => {
  await start(page, 'toolbar');
  await openFile(page, 'main.go');
  await expect(toolbar(page)).toHaveText('Go · Ready', { timeout: 60_000 });
  await page.locator('#locale').selectOption('de');
  await expect(toolbar(page)).toHaveText('Go · Bereit');
  await toolbar(page).click();
  await expect(page.locator('#lsp-action')).toHaveText('Beenden');
  await expect(popover(page)).toContainText('Go-Sprachserver');
  await page.keyboard.press('Escape');
  await openSettings(page);
  await expect(page.locator('#settings-title')).toHaveText('Editoren');
  await expect(page.locator('#open-settings')).toHaveText('Einstellungen');
  // The pseudo locale: every text of the page is from a catalog.
  await page.locator('#locale').selectOption('en-XA');
  await expect(page.locator('#settings-title')).toHaveText(/^\[Éđîţöŕš ~+\]$/);
  await expect(page.locator('#card-go')).toContainText('[Šţåŕţ');
  await closeSettings(page);
  await expect(toolbar(page)).toHaveText(/^\[Go · \[Ŕéåđý ~+\] ~+\]$/);
  // Kept across a reload (the URL and this browser), then back to English.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#locale')).toHaveValue('en-XA');
  await page.locator('#locale').selectOption('en');
  await expect(page.locator('#open-settings')).toHaveText('Settings');
});

test('at 1280 px the toolbar stays one row, whatever the status, the file name and the locale say', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await start(page, 'toolbar');
  await openFile(page, 'main.go');
  await expect(toolbar(page)).toHaveText('Go · Ready', { timeout: 60_000 });
  const bar = page.locator('.toolbar');
  const height = async () => (await bar.boundingBox())!.height;
  // One row: less than two of its buttons high.
  const oneRow = 2 * (await page.locator('#open-settings').boundingBox())!.height;
  expect(await height()).toBeLessThan(oneRow);
  // The longest texts the page has: the pseudo locale, unsaved changes and
  // a status that says at length what is wrong (written into the control
  // as a status would; the control shows a view's label as it comes).
  await page.locator('#locale').selectOption('en-XA');
  await page.evaluate(() => {
    (window as any).demo.editor.trigger('test', 'type', { text: ' ' });
    document.getElementById('lsp-status')!.textContent =
      'TypeScript · vscode-json-language-server is not installed on the task host; turn on auto-install in Settings or install it yourself';
    document.getElementById('current-file')!.textContent = 'internal/very/deeply/nested/package/with/a/long/name/handlers_generated_test.go';
  });
  await expect(page.locator('#save-state')).not.toBeEmpty();
  expect(await height()).toBeLessThan(oneRow);
  // Every action is still on screen; in English and German, whole.
  const actions = ['close-file', 'toggle-diff', 'toggle-tab-focus', 'open-symbols', 'toggle-search', 'toggle-problems', 'open-settings'];
  const onScreen = async (whole: boolean) => {
    const right = (await bar.boundingBox())!.x + (await bar.boundingBox())!.width;
    for (const id of [...actions, 'lsp-status']) {
      const el = page.locator('#' + id);
      if (!(await el.isVisible())) continue;
      const box = (await el.boundingBox())!;
      expect(box.x + box.width, id).toBeLessThanOrEqual(right + 0.5);
      expect(box.width, id).toBeGreaterThan(20);
      if (whole && id !== 'lsp-status') {
        // Whole: as wide as it is when nothing else needs room.
        const cut = await el.evaluate((e) => {
          const w = e.getBoundingClientRect().width;
          e.style.flex = 'none';
          const full = e.getBoundingClientRect().width;
          e.style.flex = '';
          return full - w;
        });
        expect(cut, `${id} whole`).toBeLessThan(0.01);
      }
    }
    expect((await page.locator('#current-file').boundingBox())!.width, 'the file name keeps a place').toBeGreaterThan(60);
  };
  await onScreen(false);
  for (const locale of ['de', 'en']) {
    await page.locator('#locale').selectOption(locale);
    await page.evaluate(() => {
      document.getElementById('lsp-status')!.textContent = 'Go · ' + 'a long account of what went wrong '.repeat(4);
    });
    expect(await height(), locale).toBeLessThan(oneRow);
    await onScreen(true);
  }
  await page.locator('#locale').selectOption('en');
  await page.evaluate(() => (window as any).demo.editor.trigger('test', 'undo', null));
});
