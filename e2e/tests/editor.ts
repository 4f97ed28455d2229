import { expect, type Page } from '@playwright/test';

// Helpers that drive the demo's one Monaco editor the way a user does, or
// read what it shows. Positions are found by text, never by coordinates.

/** cursorAt puts the cursor at the first match of text, plus offset columns. */
export async function cursorAt(page: Page, text: string, offset = 0) {
  await page.evaluate(({ text, offset }) => {
    const { editor } = (window as any).demo;
    const m = editor.getModel().findMatches(text, false, false, true, null, false)[0];
    if (!m) throw new Error(`no ${text} in the model`);
    const pos = { lineNumber: m.range.startLineNumber, column: m.range.startColumn + offset };
    editor.setPosition(pos);
    editor.revealPositionInCenter(pos);
    editor.focus();
  }, { text, offset });
}

/** newLineAfter puts the cursor on a new line after the line holding text. */
export async function newLineAfter(page: Page, text: string) {
  await page.evaluate((text) => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const m = model.findMatches(text, false, false, true, null, false)[0];
    const line = m.range.startLineNumber;
    const col = model.getLineMaxColumn(line);
    editor.executeEdits('e2e', [{ range: { startLineNumber: line, startColumn: col, endLineNumber: line, endColumn: col }, text: '\n' }]);
    editor.setPosition({ lineNumber: line + 1, column: 1 });
    editor.focus();
  }, text);
}

/** action runs a Monaco editor action by id. */
export async function action(page: Page, id: string) {
  await page.evaluate((id) => {
    const { editor } = (window as any).demo;
    editor.focus();
    const a = editor.getAction(id);
    if (a) return a.run();
    editor.trigger('e2e', id, null);
  }, id);
}

/** suggestRows is the completion list on screen. */
export const suggestRows = (page: Page) => page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');

/** hover is the visible hover widget. */
export const hover = (page: Page) => page.locator('.monaco-hover:not(.hidden)');

/** cursorLine is the line of the cursor. */
export const cursorLine = (page: Page) => page.evaluate(() => (window as any).demo.editor.getPosition().lineNumber);

/** activeModel is the URI of the model on screen, null while a tab waits for its content. */
export const activeModel = (page: Page) => page.evaluate(() => (window as any).demo.editor.getModel()?.uri.toString() ?? null);

/**
 * semanticSpans returns the texts on screen drawn in a colour that only the
 * theme's semantic-token rules use (Monaco renders tokens as spans whose
 * mtkN class maps to a colour in its generated style sheet).
 */
export async function semanticSpans(page: Page, hex: string) {
  return page.evaluate((hex) => {
    const want = hex.toLowerCase();
    const classes: string[] = [];
    for (const sheet of Array.from(document.styleSheets)) {
      let rules: CSSRuleList;
      try { rules = sheet.cssRules; } catch { continue; }
      for (const r of Array.from(rules)) {
        const m = /^\.(mtk\d+)$/.exec((r as CSSStyleRule).selectorText || '');
        if (m && ((r as CSSStyleRule).style.color || '').toLowerCase() === hexToRgb(want)) classes.push(m[1]);
      }
    }
    function hexToRgb(h: string) {
      const n = parseInt(h.replace('#', ''), 16);
      return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
    }
    const out: string[] = [];
    for (const c of classes) {
      for (const el of Array.from(document.querySelectorAll(`.monaco-editor .view-lines span.${c}`))) out.push(el.textContent || '');
    }
    return out;
  }, hex);
}

/** waitReady waits for the active file's language server. */
export async function waitReady(page: Page) {
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
}

/**
 * hoverUntil shows the hover at text until it contains want: a server that
 * is still loading its project answers with less (tsserver says `any`).
 */
export async function hoverUntil(page: Page, text: string, want: string, offset = 1) {
  await expect.poll(async () => {
    await page.keyboard.press('Escape');
    await cursorAt(page, text, offset);
    await action(page, 'editor.action.showHover');
    return hover(page).innerText({ timeout: 2_000 }).catch(() => '');
  }, { timeout: 60_000, intervals: [500, 1000, 2000] }).toContain(want);
}
