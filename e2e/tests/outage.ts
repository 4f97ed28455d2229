import { expect, type Page } from '@playwright/test';
import { markerMessages, openDemo } from './fixtures';

// Helpers of the specs that cut the path under an open editor
// (reconnect.spec.ts, resume.spec.ts): the sample's main.go with its one
// type error, and the fix a user types while the path is down.

/** The marker gopls puts on the sample's main.go. */
export const threeError = expect.stringContaining('cannot use "three" (untyped string constant) as int value');

/** openMainGo opens the sample's main.go and waits for Ready and its marker. */
export async function openMainGo(page: Page) {
  await openDemo(page);
  await page.getByRole('button', { name: 'main.go' }).click();
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => markerMessages(page)).toContainEqual(threeError);
}

/** typeFix replaces "three" with 3 in the editor, as a user would type it. */
export async function typeFix(page: Page) {
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const match = model.findMatches('"three"', false, false, true, null, false)[0];
    editor.setSelection(match.range);
    editor.focus();
  });
  await page.keyboard.type('3');
}
