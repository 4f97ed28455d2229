// Where a cold load's time goes (task bench:trace): the same page, clients
// and server as the browser benchmark, each load recorded with Chromium's
// tracing, and per client the medians of what the browser's main thread
// did until the first error marker. It prints figures; nothing here is a
// time limit.
//
//   task bench:trace                                5 cold loads per client
//   KANDEV_BENCH_TRACE=1 KANDEV_BENCH_LOADS=3 npx playwright test --config bench/playwright.config.ts trace.bench.ts
//   KANDEV_BENCH_TRACE_DIR=/tmp/t ...               keep each load's trace (chrome://tracing, Perfetto)
//   KANDEV_BENCH_WASM=late task bench:trace         lsp.wasm configured after Monaco
//
// Main-thread time is the union of the renderer main thread's top-level
// tasks; lsp.wasm's own compile work is V8's lazy (first-call) compiles
// of its functions on that thread, and its optimizing recompiles on
// background threads.

import { test, type Browser } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signIn, startDemo, stopDemo, type Demo } from '../tests/fixtures';
import { serverGone } from './server';

test.skip(!process.env.KANDEV_BENCH_TRACE, 'KANDEV_BENCH_TRACE=1 (task bench:trace) records traced cold loads');

type Client = 'wasm' | 'monaco';
const names: Record<Client, string> = { wasm: 'lsp.wasm', monaco: 'monaco.lsp' };
const loads = Number(process.env.KANDEV_BENCH_LOADS ?? 5);
const keep = process.env.KANDEV_BENCH_TRACE_DIR;
// As in the browser benchmark: KANDEV_BENCH_WASM=late configures lsp.wasm
// once Monaco has loaded, so its connection (and the server's start) waits
// for Monaco as the baseline's does.
const wasmLate = process.env.KANDEV_BENCH_WASM === 'late';
// V8's sampling profiler says whose code the main thread runs (see split).
const categories = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.wasm', 'disabled-by-default-v8.cpu_profiler'];

type Figures = Record<string, number>;

test('where a cold load spends the main thread', async ({ browser }) => {
  const demo = await startDemo({});
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kandev-trace-'));
  try {
    const results: Record<Client, Figures[]> = { wasm: [], monaco: [] };
    // One load of each first, not counted (gopls's and the page cache warm).
    for (const c of ['wasm', 'monaco'] as Client[]) await load(browser, demo, c, `${dir}/warm-${c}.json`);
    for (let i = 0; i < loads; i++) {
      for (const c of (i % 2 === 0 ? ['wasm', 'monaco'] : ['monaco', 'wasm']) as Client[]) {
        results[c].push(await load(browser, demo, c, `${dir}/${c}-${i}.json`));
      }
    }
    console.log(report(results));
  } finally {
    await stopDemo(demo);
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
});

// load traces one cold load of the bench page with client and returns its
// figures (ms since navigation start, or ms of work).
async function load(browser: Browser, demo: Demo, client: Client, file: string): Promise<Figures> {
  await serverGone(demo.workspace);
  const context = await browser.newContext();
  try {
    await signIn(context, demo);
    const page = await context.newPage();
    await browser.startTracing(page, { path: file, categories });
    await page.goto(`${demo.url}/bench/bench.html?client=${client}${client === 'wasm' && wasmLate ? '&wasm=late' : ''}`);
    await page.waitForFunction(() => (window as any).benchProbe.marks.firstError, null, { timeout: 120_000 });
    // A user-timing mark ties the trace's clock to performance.now().
    const { sync, cold } = await page.evaluate(() => ({
      sync: performance.mark('kandev-trace-sync').startTime,
      cold: (window as any).bench.cold(),
    }));
    await browser.stopTracing();
    // Beside a kept trace, the page's own moments, for reading it later.
    if (keep) fs.writeFileSync(file.replace(/\.json$/, '.cold.json'), JSON.stringify({ sync, cold }));
    return figures(JSON.parse(fs.readFileSync(file, 'utf8')), sync, cold);
  } finally {
    await context.close();
  }
}

type Event = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; id?: string; args?: any };

function figures(trace: { traceEvents: Event[] } | Event[], sync: number, cold: any): Figures {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mark = events.find((e) => e.name === 'kandev-trace-sync');
  if (!mark) throw new Error('the trace has no sync mark');
  const offset = mark.ts / 1000 - sync; // trace ms = page ms + offset
  const at = (e: Event) => e.ts / 1000 - offset;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === mark.pid && e.args?.name === 'CrRendererMain');
  if (!main) throw new Error('the trace has no renderer main thread');
  const onMain = (e: Event) => e.pid === mark.pid && e.tid === main.tid && e.ph === 'X';
  const end = cold.total as number;

  // The main thread's busy intervals: top-level tasks, merged.
  const tasks = events.filter((e) => onMain(e) && e.name === 'RunTask').map((e) => [at(e), at(e) + (e.dur ?? 0) / 1000]).sort((a, b) => a[0] - b[0]);
  const busy: number[][] = [];
  for (const t of tasks) {
    const last = busy[busy.length - 1];
    if (last && t[0] <= last[1]) last[1] = Math.max(last[1], t[1]);
    else busy.push([...t]);
  }
  const busyIn = (from: number, to: number) => busy.reduce((s, [a, b]) => s + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);

  const sum = (es: Event[], k: 'dur' | 'tdur') => es.reduce((s, e) => s + (e[k] ?? e.dur ?? 0) / 1000, 0);
  const lazy = events.filter((e) => onMain(e) && e.name === 'wasm.CompileLazy' && at(e) <= end);
  const background = events.filter((e) => e.ph === 'X' && e.pid === mark.pid && e.tid !== main.tid && e.name === 'wasm.ExecuteCompilationUnits' && at(e) <= end);
  // When Monaco's scripts had arrived: the last /monaco/ script received
  // before Monaco was there.
  const finished = new Map<string, number>();
  const urls = new Map<string, string>();
  for (const e of events) {
    const d = e.args?.data;
    if (!d?.requestId) continue;
    if (e.name === 'ResourceSendRequest') urls.set(d.requestId, d.url);
    if (e.name === 'ResourceFinish') finished.set(d.requestId, at(e));
  }
  let scripts = 0;
  for (const [id, url] of urls) {
    const t = finished.get(id);
    if (t !== undefined && /\/monaco\/.*\.js$/.test(url) && t <= cold.monaco) scripts = Math.max(scripts, t);
  }
  return {
    scripts,
    monaco: cold.monaco,
    didOpen: cold.didOpen,
    diagnostics: cold.diagnostics,
    marker: end,
    busyToMonaco: busyIn(0, cold.monaco),
    busyToDidOpen: busyIn(cold.monaco, cold.didOpen),
    busyToDiagnostics: busyIn(cold.didOpen, cold.diagnostics),
    busyTotal: busyIn(0, end),
    lazyCount: lazy.length,
    lazyWall: sum(lazy, 'dur'),
    lazyCPU: sum(lazy, 'tdur'),
    background: sum(background, 'dur'),
    ...split(events, mark.pid, main.tid, offset, [['ToMonaco', 0, cold.monaco], ['ToDidOpen', cold.monaco, cold.didOpen], ['ToDiagnostics', cold.didOpen, cold.diagnostics]]),
  };
}

// Whose code the main thread ran in each window, from V8's CPU samples
// there: lsp.wasm (a wasm frame or wasm_exec.js on the stack: Go, its
// first-call compiles, what it calls), Monaco (a frame of /monaco/, not
// under lsp.wasm), the page's own script, V8's garbage collector, and the
// browser's native work ("(program)": parsing, style, layout, paint, IPC,
// WebAssembly compilation outside a call). Each sample weighs the time
// since the one before it. Keys: <part><window>, e.g. goToDiagnostics.
type Frame = { functionName?: string; url?: string };
function split(events: Event[], pid: number, tid: number, offset: number, windows: [string, number, number][]): Figures {
  const profiles = new Map<string, number>(); // profile id → time (µs)
  for (const e of events) if (e.name === 'Profile' && e.pid === pid && e.tid === tid) profiles.set(e.id!, e.args.data.startTime);
  const frames = new Map<number, { frame: Frame; parent?: number }>();
  const out: Figures = {};
  for (const [w] of windows) for (const part of ['go', 'monaco', 'page', 'gc', 'native']) out[part + w] = 0;
  const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.pid === pid && profiles.has(e.id!)).sort((a, b) => a.ts - b.ts);
  for (const c of chunks) {
    const profile = c.args.data.cpuProfile ?? {};
    for (const n of profile.nodes ?? []) frames.set(n.id, { frame: n.callFrame, parent: n.parent });
    const deltas: number[] = c.args.data.timeDeltas ?? [];
    let t = profiles.get(c.id!)!;
    (profile.samples ?? []).forEach((node: number, i: number) => {
      t += deltas[i] ?? 0;
      const ms = t / 1000 - offset;
      const part = whose(frames, node);
      if (!part) return;
      for (const [w, from, to] of windows) if (ms > from && ms <= to) out[part + w] += (deltas[i] ?? 0) / 1000;
    });
    profiles.set(c.id!, t);
  }
  return out;
}

function whose(frames: Map<number, { frame: Frame; parent?: number }>, node: number): string | null {
  let monaco = false;
  let js = false;
  for (let n: number | undefined = node; n !== undefined; n = frames.get(n)?.parent) {
    const f = frames.get(n)?.frame;
    if (!f) break;
    const url = f.url ?? '';
    if (url.endsWith('.wasm') || url.endsWith('/wasm_exec.js')) return 'go';
    if (url.includes('/monaco/')) monaco = true;
    else if (url) js = true;
    if (n === node) {
      if (f.functionName === '(idle)') return null;
      if (f.functionName === '(garbage collector)') return 'gc';
      if (f.functionName === '(program)') return 'native';
    }
  }
  return monaco ? 'monaco' : js ? 'page' : 'native';
}

function median(xs: number[]) {
  const s = xs.filter((x) => x !== null && x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

function report(results: Record<Client, Figures[]>) {
  const cols: [string, string][] = [
    ['scripts', "Monaco's scripts received"], ['monaco', 'Monaco there'], ['didOpen', 'didOpen'], ['diagnostics', 'diagnostics'], ['marker', 'first error marker'],
    ['busyToMonaco', 'busy until Monaco'], ['busyToDidOpen', 'busy Monaco → didOpen'], ['busyToDiagnostics', 'busy didOpen → diagnostics'], ['busyTotal', 'busy in all'],
    ['lazyCount', 'lazy wasm compiles'], ['lazyWall', 'their ms'], ['lazyCPU', 'their CPU ms'], ['background', 'background wasm compile ms'],
  ];
  const parts: [string, string][] = [['go', 'lsp.wasm'], ['monaco', 'Monaco'], ['page', 'page script'], ['gc', 'GC'], ['native', 'browser (native)']];
  const windows: [string, string][] = [['ToMonaco', 'until Monaco'], ['ToDidOpen', 'Monaco → didOpen'], ['ToDiagnostics', 'didOpen → diagnostics']];
  const whoseLines = ['', 'whose work the main thread did (ms of CPU samples, medians per load; lsp.wasm includes what it calls into Monaco)', '', `| client, window | ${parts.map((p) => p[1]).join(' | ')} |`, `| --- | ${parts.map(() => '---:').join(' | ')} |`];
  for (const c of ['wasm', 'monaco'] as Client[]) {
    for (const [w, label] of windows) {
      whoseLines.push(`| ${names[c]}, ${label} | ${parts.map(([p]) => Math.max(0, median(results[c].map((r) => r[p + w]))).toFixed(0)).join(' | ')} |`);
    }
  }
  const lines = ['', `cold loads traced: ${loads} per client${wasmLate ? ', lsp.wasm configured after Monaco' : ''} (medians; moments in ms since navigation start, busy = ms of the main thread in top-level tasks; tracing itself slows a load, so compare the clients, not these figures with task bench:browser)`, ''];
  lines.push(`| client | ${cols.map((c) => c[1]).join(' | ')} |`, `| --- | ${cols.map(() => '---:').join(' | ')} |`);
  for (const c of ['wasm', 'monaco'] as Client[]) {
    lines.push(`| ${names[c]} | ${cols.map(([k]) => { const m = median(results[c].map((r) => r[k])); return Number.isNaN(m) ? '–' : k === 'lazyCount' ? String(m) : m.toFixed(0); }).join(' | ')} |`);
  }
  return [...lines, ...whoseLines].join('\n');
}
