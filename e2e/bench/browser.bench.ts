// The browser benchmark: lsp.wasm against Monaco's own LSP client
// (monaco.lsp) on the same page (webdemo/static/bench.html), through the
// same relay and agent to the same real gopls, the clients alternating
// load by load. It prints figures; nothing here is a time limit.
//
//   task bench:browser                      10 cold loads and 20 of each request per client
//   KANDEV_BENCH_LOADS=1 KANDEV_BENCH_REQUESTS=1 npx playwright test --config bench/playwright.config.ts
//   KANDEV_BENCH_BASELINE=early,caps,worker task bench:browser    the baseline's variants (below)
//   KANDEV_BENCH_WASM=late task bench:browser               lsp.wasm configured after Monaco
//
// Each step is split with the page's WebSocket probe: trigger → request
// sent, request → answer received in JavaScript, answer → shown.

import { test, type Browser, type Page } from '@playwright/test';
import http from 'node:http';
import { signIn, startDemo, stopDemo, type Demo } from '../tests/fixtures';
import { serverGone } from './server';

type Client = 'wasm' | 'monaco';
const clients: Client[] = ['wasm', 'monaco'];
const names: Record<Client, string> = { wasm: 'lsp.wasm', monaco: 'monaco.lsp' };

type Split = {
  total: number; toProvider: number | null; toRequest: number | null; toAnswer: number | null;
  toResolved: number | null; toShown: number | null; change: number | null;
  prefixChange: number | null; prefixHeld: boolean | null;
};
type Cold = Record<string, any>;
type Step = 'cold' | 'first' | 'byHand' | 'dot' | 'hover';
const steps: Record<Step, string> = {
  cold: 'cold page load → first error marker',
  first: 'first completion of the load (by hand) → rows',
  byHand: 'completion invoked by hand → rows',
  dot: 'completion after typing `.` → rows',
  hover: 'hover → shown',
};

const loads = Number(process.env.KANDEV_BENCH_LOADS ?? 10);
// Requests of each kind per load: 2 × 10 loads = 20 per client. Before
// them, each load's first completion is timed as its own step: gopls
// answers it from a cold cache (about 100 ms for either client, against
// about 12 ms later), and counted among the others it would move their
// median from run to run. One `.` completion after it is not counted,
// for the same reason.
const requests = Number(process.env.KANDEV_BENCH_REQUESTS ?? 2);
// Between two actions the page waits this long without a frame on the
// socket: past lsp.wasm's change debounce and gopls's delayed diagnostics.
const quietMs = Number(process.env.KANDEV_BENCH_QUIET ?? 1100);
// The baseline's variants (webdemo/static/bench.js), comma-separated, none
// by default: early (its socket dialled while Monaco loads), caps (the
// server asked for completion items as lsp.wasm asks), worker (the page
// also loads lsp.wasm in a Worker and leaves it unused).
const baseline = (process.env.KANDEV_BENCH_BASELINE ?? '').split(',').map((v) => v.trim()).filter(Boolean);
// KANDEV_BENCH_WASM=late: lsp.wasm configured once Monaco has loaded (as
// a page that does not hand it a promise of Monaco), its connection
// dialled when the document opens.
const wasmLate = process.env.KANDEV_BENCH_WASM === 'late';

// main.go of webdemo/sample: the line after fmt.Println is where the
// completions are typed; Println is what is hovered.
const insertLine = 14;
const hoverAt = { lineNumber: 13, column: 7 };

test('lsp.wasm against monaco.lsp', async ({ browser }) => {
  const demo = await startDemo({});
  try {
    const sizes = await wasmSizes(demo);
    const results: Record<Client, { cold: Cold[]; first: Split[]; byHand: Split[]; dot: Split[]; hover: Split[] }> = {
      wasm: { cold: [], first: [], byHand: [], dot: [], hover: [] },
      monaco: { cold: [], first: [], byHand: [], dot: [], hover: [] },
    };
    // One load of each first, not counted: gopls's file cache and the
    // machine's page cache are then warm for both alike.
    for (const c of clients) await session(browser, demo, c, 1);
    for (let i = 0; i < loads; i++) {
      for (const c of i % 2 === 0 ? clients : [...clients].reverse()) {
        const r = await session(browser, demo, c, requests);
        results[c].cold.push(r.cold);
        results[c].first.push(...r.first);
        results[c].byHand.push(...r.byHand);
        results[c].dot.push(...r.dot);
        results[c].hover.push(...r.hover);
      }
    }
    console.log(report(results, sizes));
  } finally {
    await stopDemo(demo);
  }
});

// session loads the bench page cold (a new browser context: no cache) with
// client, measures the load, then n requests of each kind.
async function session(browser: Browser, demo: Demo, client: Client, n: number) {
  await serverGone(demo.workspace);
  const context = await browser.newContext();
  try {
    await signIn(context, demo);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`${client} page error:`, e));
    const variant = client === 'monaco' ? (baseline.length ? `&baseline=${baseline.join(',')}` : '') : (wasmLate ? '&wasm=late' : '');
    await page.goto(`${demo.url}/bench.html?client=${client}${variant}`);
    await page.waitForFunction(() => (window as any).benchProbe.marks.firstError, null, { timeout: 120_000 });
    const cold = await page.evaluate(() => (window as any).bench.cold());
    const out = { cold, first: [] as Split[], byHand: [] as Split[], dot: [] as Split[], hover: [] as Split[] };
    await quiet(page);
    out.first.push(await completion(page, '\tfm', 'Control+Space', ' ', 'fmt'));
    // gopls's first member list of fmt is cold as well: one `.` completion
    // ahead, not counted, so that the rows below compare the clients.
    await completion(page, '\tfmt', '.', '.', '');
    for (let i = 0; i < n; i++) {
      out.byHand.push(await completion(page, '\tfm', 'Control+Space', ' ', 'fmt'));
      out.dot.push(await completion(page, '\tfmt', '.', '.', ''));
      out.hover.push(await hover(page));
    }
    return out;
  } finally {
    await context.close();
  }
}

const quiet = (page: Page) => page.evaluate((ms) => (window as any).bench.quiet(ms), quietMs);

// completion types prefix on a new line (not timed), waits for quiet, then
// presses keys and times until a row containing label (any row for '') is
// on screen. The trigger is the keydown of key.
async function completion(page: Page, prefix: string, keys: string, key: string, label: string): Promise<Split> {
  const editedAt = await page.evaluate(({ line, prefix }) => {
    const b = (window as any).bench;
    const t = performance.now();
    b.edit(new b.monaco.Range(line, 1, line, 1), prefix + '\n');
    b.editor.setPosition({ lineNumber: line, column: prefix.length + 1 });
    return t;
  }, { line: insertLine, prefix });
  await quiet(page);
  const from = await page.evaluate((label) => {
    (window as any).benchShown = (window as any).bench.rows(label);
    return performance.now();
  }, label);
  await page.keyboard.press(keys);
  const split = await page.evaluate(async ({ from, key, editedAt }) => {
    const b = (window as any).bench;
    const shown = await (window as any).benchShown;
    const t0 = b.probe.keys.find((k: any) => k.t >= from && k.key === key).t;
    return b.split('textDocument/completion', t0, shown, editedAt);
  }, { from, key, editedAt });
  await page.keyboard.press('Escape');
  await page.evaluate((line) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(line, 1, line + 1, 1), '');
  }, insertLine);
  await quiet(page);
  return split;
}

// hover places the cursor on Println, waits for quiet, then times the
// hover action until its widget is on screen.
async function hover(page: Page): Promise<Split> {
  await page.evaluate((at) => (window as any).bench.editor.setPosition(at), hoverAt);
  await quiet(page);
  const split = await page.evaluate(async () => {
    const b = (window as any).bench;
    const shown = b.hover('Println');
    const t0 = performance.now();
    b.editor.trigger('bench', 'editor.action.showHover', {});
    return b.split('textDocument/hover', t0, await shown);
  });
  await page.keyboard.press('Escape');
  await quiet(page);
  return split;
}

// wasmSizes fetches lsp.wasm once per Accept-Encoding and returns what the
// server sent: the encoding it chose and the bytes on the wire.
async function wasmSizes(demo: Demo) {
  const cookie = await signInCookie(demo);
  const out: { asked: string; served: string; bytes: number }[] = [];
  for (const asked of ['identity', 'gzip', 'br', 'zstd', 'gzip, deflate, br, zstd']) {
    out.push(await new Promise((resolve, reject) => {
      http.get(`${demo.url}/lsp.wasm`, { headers: { 'Accept-Encoding': asked, Cookie: cookie } }, (res) => {
        let bytes = 0;
        res.on('data', (b: Buffer) => { bytes += b.length; });
        res.on('end', () => resolve({ asked, served: String(res.headers['content-encoding'] ?? 'identity'), bytes }));
        res.on('error', reject);
      }).on('error', reject);
    }));
  }
  return out;
}

// signInCookie signs in as a browser would and returns the Cookie header.
async function signInCookie(demo: Demo): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(demo.signIn, (res) => {
      res.resume();
      const set = res.headers['set-cookie'] ?? [];
      resolve(set.map((c) => c.split(';')[0]).join('; '));
    }).on('error', reject);
  });
}

// --- the report ---------------------------------------------------------------

function quantile(xs: number[], p: number) {
  const s = xs.filter((x) => x !== null && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}
const med = (xs: number[]) => quantile(xs, 0.5);
const ms = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(1));

function report(results: Record<Client, any>, sizes: { asked: string; served: string; bytes: number }[]) {
  const lines: string[] = [];
  const row = (...cells: (string | number)[]) => lines.push(`| ${cells.join(' | ')} |`);
  const totals = (c: Client, s: Step): number[] => results[c][s].map((r: any) => r.total);

  lines.push('', `lsp.wasm against monaco.lsp: ${loads} cold loads and ${loads * requests} requests of each kind per client after each load's first completion (ms; ratio = lsp.wasm ÷ monaco.lsp medians)${baseline.length ? `; monaco.lsp with ${baseline.join(', ')}` : ''}${wasmLate ? '; lsp.wasm configured after Monaco' : ''}`, '');
  row('step', 'monaco.lsp median', 'p90', 'lsp.wasm median', 'p90', 'ratio');
  row('---', '---:', '---:', '---:', '---:', '---:');
  for (const s of Object.keys(steps) as Step[]) {
    const b = totals('monaco', s), w = totals('wasm', s);
    row(steps[s], ms(med(b)), ms(quantile(b, 0.9)), ms(med(w)), ms(quantile(w, 0.9)), (med(w) / med(b)).toFixed(2));
  }

  lines.push('', 'requests, split (medians, ms): trigger → Monaco calls the provider → request sent → answer in JavaScript → provider resolves → shown', '');
  row('step', 'client', 'trigger → provider', 'provider → request', 'request → answer', 'answer → resolved', 'resolved → shown', 'total');
  row('---', '---', '---:', '---:', '---:', '---:', '---:', '---:');
  const col = (rs: Split[], k: keyof Split) => ms(med(rs.map((r) => r[k] as number).filter((x) => x !== null)));
  for (const s of ['first', 'byHand', 'dot', 'hover'] as Step[]) {
    for (const c of clients) {
      const rs: Split[] = results[c][s];
      row(steps[s], names[c], col(rs, 'toProvider'), col(rs, 'toRequest'), col(rs, 'toAnswer'), col(rs, 'toResolved'), col(rs, 'toShown'), col(rs, 'total'));
    }
  }

  lines.push('', 'document changes (ms): a change typed, then quiet, then a completion trigger — when did its didChange go out; and after the trigger, a didChange ahead of the request', '');
  row('client', 'edit → didChange (median, max)', 'still held at the trigger', 'trigger → didChange, `.` (median)');
  row('---', '---:', '---:', '---:');
  for (const c of clients) {
    const rs: Split[] = [...results[c].byHand, ...results[c].dot];
    const sent = rs.filter((r) => r.prefixHeld === false).map((r) => r.prefixChange!);
    const held = rs.filter((r) => r.prefixHeld === true).length;
    const dot = (results[c].dot as Split[]).map((r) => r.change).filter((x): x is number => x !== null);
    row(names[c], sent.length ? `${ms(med(sent))}, ${ms(Math.max(...sent))}` : '–', `${held} of ${rs.length}`, dot.length ? ms(med(dot)) : '–');
  }

  lines.push('', 'cold load, split (medians, ms since navigation start; lsp: lsp.wasm running, before configure; client: lsp.wasm configured with a promise of Monaco and its pair prepared, so before Monaco on a cold load, or the monaco.lsp client made, after it; busy: ms of long main-thread tasks between the socket\'s creation and the ready frame, and in all)', '');
  const marks = ['monaco', 'lsp', 'client', 'socket', 'ready', 'initializeSent', 'initializeAnswered', 'initialized', 'didOpen', 'diagnostics', 'total', 'busyBeforeReady', 'busyTotal'];
  const heads: Record<string, string> = { total: 'first error marker', busyBeforeReady: 'busy before ready', busyTotal: 'busy' };
  row('client', ...marks.map((m) => heads[m] ?? m));
  row('---', ...marks.map(() => '---:'));
  for (const c of clients) row(names[c], ...marks.map((m) => ms(med(results[c].cold.map((r: Cold) => r[m] ?? NaN)))));

  lines.push('', 'sent between the didOpen and the first diagnostics (each load)', '');
  for (const c of clients) {
    for (const r of results[c].cold as Cold[]) {
      if (r.askedBeforeDiagnostics) lines.push(`- ${names[c]}: ${r.askedBeforeDiagnostics.join(', ') || 'nothing'}`);
    }
  }

  lines.push('', 'lsp.wasm as served (bytes on the wire per Accept-Encoding)', '');
  row('Accept-Encoding', 'served as', 'bytes');
  row('---', '---', '---:');
  for (const s of sizes) row(s.asked, s.served, s.bytes);
  const wasm = results.wasm.cold.map((r: Cold) => r.wasm).filter(Boolean);
  if (wasm.length) {
    const w = wasm[wasm.length - 1];
    lines.push('', `in Chromium (cold load): transferred ${w.transferSize} bytes, body ${w.encodedBodySize} encoded, ${w.decodedBodySize} decoded`);
  }
  return lines.join('\n');
}
