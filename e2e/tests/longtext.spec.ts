import { fakeTest as test, expect, openDemo, writeScript, putSettings, openFile } from './fixtures';
import { LONG_URL, longProgress, fits, fullText, pageFits } from './longtext';

// A server reports a work item titled with a long URL and a long path (the
// fake stands in for rust-analyzer): the desktop popover, opened from the
// toolbar or the status bar, wraps both in full, and nothing scrolls
// sideways.

// The demo (and its settings) is shared by the specs of this worker: put
// the location back for them.
test.afterEach(async ({ page }) => {
  await putSettings(page, { lsp_status_location: 'toolbar' });
});

for (const location of ['toolbar', 'status_bar']) {
  test(`the ${location} popover wraps a long URL and path in full`, async ({ page, demo }) => {
    writeScript(demo, longProgress);
    await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_status_location: location });
    await openDemo(page);
    await openFile(page, 'src/main.rs');
    const trigger = page.locator(location === 'toolbar' ? '#lsp-status' : '#status-bar-lsp');
    await expect(trigger).toContainText(`Rust · ${LONG_URL.slice(0, 30)}`);
    // The trigger itself is cut to its box (the popover has the full text)
    // and leaves the page as wide as the window.
    await pageFits(page);

    await trigger.click();
    const popover = page.locator('#lsp-popover');
    await expect(popover).toBeVisible();
    await expect(popover).toContainText('Server-reported work:');
    await fullText(popover);
    await fits(page, popover);
    await expect(page.locator('#lsp-action')).toBeVisible();
    await expect(page.locator('#lsp-action')).toHaveText('Stop');
  });
}
