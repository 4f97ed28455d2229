// The browser benchmark: lsp.wasm against Monaco's own LSP client
// (monaco.lsp) on the same page (e2e/bench/page/bench.html) and against
// monaco-languageclient on its own production build (e2e/bench/mlc, served
// by the demo at /wasm/bench-mlc/), through the same relay and agent to the
// same real gopls, the clients taking turns load by load. Each load is a
// first visit (a new browser context: empty HTTP cache) followed by a
// repeat visit (the page loaded again in that context: HTTP cache warm,
// V8's cache of compiled code too). It prints figures; nothing here is a
// time limit.
//
//   task bench:browser                      10 loads (two passes of 5) and 20 of each request per client
//   KANDEV_BENCH_LOADS=1 KANDEV_BENCH_REQUESTS=1 npx playwright test --config bench/playwright.config.ts
//   KANDEV_BENCH_CLIENTS=wasm,monaco task bench:browser     some of the clients only
//   KANDEV_BENCH_BASELINE=early,caps,worker task bench:browser    the baseline's variants (below)
//   KANDEV_BENCH_WASM=late task bench:browser               lsp.wasm configured after Monaco
//   KANDEV_BENCH_WASM=after (or runafter, low)              lsp.wasm started after Monaco (bench.js says how)
//   KANDEV_BENCH_WASM=gogc200,gctrace KANDEV_BENCH_CONSOLE=1     lsp.wasm's Go collections, with a GOGC of its own
//   KANDEV_BENCH_WASM=hops,gctrace KANDEV_BENCH_CONSOLE=1        and when Monaco's markers were parsed and set, each scale step
//
// Each step is split with the page's WebSocket probe: trigger → request
// sent, request → answer received in JavaScript, answer → shown.
//
// The scale rows time what big answers cost the page, after each load's
// requests: gopls's diagnostics of 200 and 2,000 errors typed into main.go
// (the frame that carries them in JavaScript → the markers in Monaco), and
// a completion list of 500 and 5,000 package-level names (its answer in
// JavaScript → the rows on screen), and one more letter typed into that
// list (→ the list filtered to it: a client asks again when the server
// said the list is incomplete); then 40 keys typed into a 1,000- and a
// 50,000-line file (each keystroke → its didChange on the wire, and the
// main thread's long tasks until the answers are in), and 50 files of
// the workspace opened as tabs (the heap with them open, after GC).
//   KANDEV_BENCH_SCALE=0 task bench:browser          without them
//   KANDEV_BENCH_PROFILE=dir task bench:browser      each scale step under V8's CPU profiler (below)

import { test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { signIn, startDemo, stopDemo, type Demo } from '../tests/fixtures';
import { serverGone } from './server';

type Client = 'wasm' | 'monaco' | 'mlc';
const allClients: Client[] = ['wasm', 'monaco', 'mlc'];
const clients = (process.env.KANDEV_BENCH_CLIENTS ?? allClients.join(',')).split(',').map((c) => c.trim()).filter((c): c is Client => (allClients as string[]).includes(c));
const names: Record<Client, string> = { wasm: 'lsp.wasm', monaco: 'monaco.lsp', mlc: 'monaco-languageclient' };

type Split = {
  total: number; toProvider: number | null; toRequest: number | null; toAnswer: number | null;
  toResolved: number | null; toShown: number | null; change: number | null;
  prefixChange: number | null; prefixHeld: boolean | null;
};
type Cold = Record<string, any>;
type Step = 'cold' | 'repeat' | 'first' | 'byHand' | 'dot' | 'hover';
const steps: Record<Step, string> = {
  cold: 'first visit: page load → first error marker',
  repeat: 'repeat visit (HTTP cache warm) → first error marker',
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
// The baseline's variants (e2e/bench/page/bench.js), comma-separated, none
// by default: early (its socket dialled while Monaco loads), caps (the
// server asked for completion items as lsp.wasm asks), worker (the page
// also loads lsp.wasm in a Worker and leaves it unused).
const baseline = (process.env.KANDEV_BENCH_BASELINE ?? '').split(',').map((v) => v.trim()).filter(Boolean);
// KANDEV_BENCH_WASM=late: lsp.wasm configured once Monaco has loaded (as
// a page that does not hand it a promise of Monaco), its connection
// dialled when the document opens; after, runafter and low start it later
// or fetch it at low priority (e2e/bench/page/bench.js).
const wasmVariant = process.env.KANDEV_BENCH_WASM ?? '';
// KANDEV_BENCH_CONSOLE=1 prints what the pages log (with
// KANDEV_BENCH_WASM=gctrace, lsp.wasm's Go collections).
const pageConsole = process.env.KANDEV_BENCH_CONSOLE === '1';

// main.go of webdemo/sample: the line after fmt.Println is where the
// completions are typed; Println is what is hovered.
const mainLine = 14;
const hoverAt = { lineNumber: 13, column: 7 };

// Loads are split into two passes (the first half of the loads, then the
// second): the report gives each pass's median beside the run's, which
// shows how far a figure moves within one run on this noisy machine.
const passes = 2;
const passOf = (i: number) => (i < Math.ceil(loads / passes) ? 0 : 1);

type Heap = { used: number; backing: number; goHeap: number };
// A scale step: ms from the answer in JavaScript to what the user sees,
// and the answer's size.
// For a completion, also one more letter typed: ms from its keydown until
// the list's first row is filtered to it, whether the server had said the
// list is incomplete, and whether the client asked again.
// When it asked: keydown → Monaco called the provider (where probed),
// → request sent, → its answer in JavaScript. sent: what the client sent
// from the keydown until the list was filtered.
type More = { ms: number; incomplete: boolean | null; asked: boolean; toProvider: number | null; toRequest: number | null; toAnswer: number | null; sent: string[] };
type Scaled = { kind: 'diagnostics' | 'completion'; n: number; ms: number; bytes: number; window?: number[]; more?: More };
// Typing into a file of lines lines: each keystroke → its didChange (ms;
// held counts keystrokes whose change had not gone out by the next one),
// and the ms of long main-thread tasks from the first key until the
// server's answers are in.
type Typed = { lines: number; keys: number; latency: number[]; held: number; busy: number };
// The heap before and with many files open (a fresh collection each).
type Files = { files: number; before: Heap; after: Heap };
type Results = { cold: Cold[]; repeat: Cold[]; first: Split[]; byHand: Split[]; dot: Split[]; hover: Split[]; heap: Heap[]; scale: Scaled[]; typing: Typed[]; files: Files[] };
const empty = (): Results => ({ cold: [], repeat: [], first: [], byHand: [], dot: [], hover: [], heap: [], scale: [], typing: [], files: [] });

// The scale rows' sizes (see the top of this file).
const scaleOn = process.env.KANDEV_BENCH_SCALE !== '0';
// KANDEV_BENCH_SMALL=1 keeps each row's small size only: the quick round
// of task test drives every row's code with less of the machine's time.
const small = process.env.KANDEV_BENCH_SMALL === '1';
const scaleSizes = (all: number[]) => (small ? all.slice(0, 1) : all);
const diagnosticSizes = scaleSizes([200, 2000]);
const completionSizes = scaleSizes([500, 5000]);
const typingSizes = scaleSizes([1000, 50000]);
// 40 keys, in a comment: no completion or signature popup on any client.
const typedKeys = '// the quick brown fox jumps over the la';
// A fast typist's pace: about 12 keys a second.
const keyDelayMs = 80;
// The files opened as tabs: a package of their own, written into the
// workspace before the first load, so that every client's server loads
// the same workspace.
const benchFiles = Array.from({ length: 50 }, (_, i) => `benchfiles/f${String(i).padStart(2, '0')}.go`);

test('lsp.wasm against monaco.lsp and monaco-languageclient', async ({ browser }) => {
  // A page the bench closes may lose its socket without a close frame,
  // and the agent then holds its gopls for a resume (a minute by
  // default): the next load would wait for it (serverGone) and fail.
  process.env.KANDEV_AGENT_RESUME_GRACE ??= '1s';
  const demo = await startDemo({});
  try {
    writeBenchFiles(demo.workspace);
    const sizes = await wasmSizes(demo);
    // results[pass][client]
    const results = Array.from({ length: passes }, () => Object.fromEntries(clients.map((c) => [c, empty()])) as Record<Client, Results>);
    // One load of each first, not counted: gopls's file cache and the
    // machine's page cache are then warm for all alike. It also counts the
    // bytes each page downloads, which takes time (bodies read back,
    // compressed here) that must not fall in a timed load.
    // A single load (the quick round in task test:e2e, whose figures mean
    // nothing) skips it and counts the bytes in that load, to save a
    // minute of CI.
    const bytes = {} as Record<Client, Bytes>;
    const warmUp = loads > 1;
    if (warmUp) for (const c of clients) bytes[c] = (await session(browser, demo, c, 1, true)).bytes!;
    for (let i = 0; i < loads; i++) {
      // Each client in turn, the order rotated load by load.
      const order = clients.map((_, k) => clients[(k + i) % clients.length]);
      for (const c of order) {
        const r = await session(browser, demo, c, requests, !warmUp);
        if (!warmUp) bytes[c] = r.bytes!;
        const into = results[passOf(i)][c];
        into.cold.push(r.cold);
        into.repeat.push(r.repeat);
        into.first.push(...r.first);
        into.byHand.push(...r.byHand);
        into.dot.push(...r.dot);
        into.hover.push(...r.hover);
        into.heap.push(r.heap);
        into.scale.push(...r.scale);
        into.typing.push(...r.typing);
        into.files.push(...r.files);
      }
    }
    // The raw figures too, for reading a run again.
    fs.mkdirSync(test.info().outputDir, { recursive: true });
    fs.writeFileSync(test.info().outputPath('results.json'), JSON.stringify({ results, sizes, bytes }));
    console.log(report(results, sizes, bytes));
  } finally {
    await stopDemo(demo);
  }
});

const pageURL = (demo: Demo, client: Client) => {
  if (client === 'mlc') return `${demo.url}/wasm/bench-mlc/index.html`;
  const variant = client === 'monaco' ? (baseline.length ? `&baseline=${baseline.join(',')}` : '') : (wasmVariant ? `&wasm=${encodeURIComponent(wasmVariant)}` : '');
  return `${demo.url}/bench/bench.html?client=${client}${variant}`;
};

// load opens the client's page in context and waits for its first error
// marker; it returns the page and the load's figures.
async function load(context: BrowserContext, demo: Demo, client: Client, onRequest?: (r: Request) => void) {
  await serverGone(demo.workspace);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`${client} page error:`, e));
  if (pageConsole) page.on('console', (m) => console.log(`${client} console: ${m.text()}`));
  if (onRequest) page.on('requestfinished', onRequest);
  await page.goto(pageURL(demo, client));
  await page.waitForFunction(() => (window as any).benchProbe.marks.firstError, null, { timeout: 120_000 });
  const cold: Cold = await page.evaluate(() => (window as any).bench.cold());
  return { page, cold };
}

// session is one user's two visits with client, in a new browser context
// (an empty HTTP cache): the first visit measures the load, then n
// requests of each kind and the heap; once it is closed (its server gone),
// the repeat visit loads the page again with the cache the first left.
// With countBytes, what each visit downloaded is counted as well.
async function session(browser: Browser, demo: Demo, client: Client, n: number, countBytes: boolean) {
  const context = await browser.newContext();
  try {
    await signIn(context, demo);
    const firstReqs: Request[] = [];
    const repeatReqs: Request[] = [];
    const first = await load(context, demo, client, countBytes ? (r) => firstReqs.push(r) : undefined);
    const page = first.page;
    const out = { cold: first.cold, repeat: {} as Cold, first: [] as Split[], byHand: [] as Split[], dot: [] as Split[], hover: [] as Split[], heap: { used: NaN, backing: NaN, goHeap: NaN } as Heap, scale: [] as Scaled[], typing: [] as Typed[], files: [] as Files[], bytes: null as Bytes | null };
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
    out.heap = await heap(page, client);
    if (scaleOn) {
      for (const n of diagnosticSizes) out.scale.push(await profiled(page, `${client}-diagnostics-${n}`, () => diagnostics(page, client, n)));
      for (const n of completionSizes) out.scale.push(await profiled(page, `${client}-completion-${n}`, () => bigCompletion(page, client, n)));
      if (pageConsole) {
        const kept: [number, string][] = await page.evaluate(() => (window as any).benchLog ?? []);
        for (const x of out.scale) {
          if (!x.window) continue;
          console.log(`${client} ${x.kind} ${x.n}: @${x.window[0].toFixed(1)}–@${x.window[1].toFixed(1)}`);
          for (const [t, line] of kept) if (t >= x.window[0] - 5 && t <= x.window[1] + 5) console.log(`  +${(t - x.window[0]).toFixed(1)} ${line}`);
        }
      }
      for (const n of typingSizes) out.typing.push(await typing(page, client, n));
      out.files.push(await openMany(page, client));
    }
    // Bodies can be read back only while their page is open.
    const firstBytes = countBytes ? await downloaded(firstReqs, true) : null;
    await page.close();
    const repeat = await load(context, demo, client, countBytes ? (r) => repeatReqs.push(r) : undefined);
    out.repeat = repeat.cold;
    if (firstBytes) out.bytes = { first: firstBytes, repeat: await downloaded(repeatReqs, false) };
    await repeat.page.close();
    return out;
  } finally {
    await context.close();
  }
}

// KANDEV_BENCH_PROFILE=dir records the page's main thread with V8's CPU
// profiler through each scale step (which slows it: the figures of such
// a run are not comparable) and writes dir/<client>-<step>-<n>.cpuprofile,
// for Chromium's DevTools, and prints the functions of most self time.
const profileDir = process.env.KANDEV_BENCH_PROFILE ?? '';

async function profiled<T extends { window?: number[] }>(page: Page, label: string, step: () => Promise<T>): Promise<T> {
  if (!profileDir) return step();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const startedAt = await page.evaluate(() => performance.now());
    const out = await step();
    const { profile }: any = await cdp.send('Profiler.stop');
    // Samples' times are the profiler's clock; the page's performance.now()
    // read right after the start maps the step's window onto it (to within
    // that call's round trip).
    const inWindow = (t: number) => !out.window || (t >= out.window[0] && t <= out.window[1]);
    fs.mkdirSync(profileDir, { recursive: true });
    fs.writeFileSync(`${profileDir}/${label}.cpuprofile`, JSON.stringify({ ...profile, kandevStartedAt: startedAt, kandevWindow: out.window }));
    const dt = profile.timeDeltas as number[];
    const self = new Map<number, number>();
    let t = 0;
    profile.samples.forEach((id: number, i: number) => {
      t += dt[i] ?? 0;
      if (inWindow(startedAt + t / 1000)) self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
    });
    const byName = new Map<string, number>();
    for (const node of profile.nodes) {
      const f = node.callFrame;
      const name = `${f.functionName || '(anonymous)'} ${(f.url || '').split('/').pop()}:${f.lineNumber}`;
      byName.set(name, (byName.get(name) ?? 0) + (self.get(node.id) ?? 0));
    }
    const top = [...byName].filter(([n]) => !n.startsWith('(idle)') && !n.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 25);
    const sum = (f: (n: string) => boolean) => ([...byName].filter(([n]) => f(n)).reduce((a, [, us]) => a + us, 0) / 1000).toFixed(1);
    console.log(`profile ${label}${out.window ? ` (${(out.window[1] - out.window[0]).toFixed(1)} ms window)` : ''}: busy ${sum((n) => !n.startsWith('(idle)') && !n.startsWith('(program)'))} ms, WebAssembly ${sum((n) => n.includes('.wasm:'))} ms, GC ${sum((n) => n.startsWith('(garbage'))} ms\n${top.map(([n, us]) => `  ${(us / 1000).toFixed(1).padStart(7)} ms  ${n}`).join('\n')}`);
    return out;
  } finally {
    await cdp.detach();
  }
}

// heap is the page's V8 heap after a full garbage collection: the JS heap
// in use, and ArrayBuffer backing stores (where lsp.wasm's linear memory
// lives, which only grows). Workers' heaps are not counted, for any
// client. For lsp.wasm, also its Go runtime's live heap (memory()), after
// a collection of its own: what the WebAssembly memory holds now.
async function heap(page: Page, client: Client): Promise<Heap> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const h: any = await cdp.send('Runtime.getHeapUsage');
    const goHeap = client === 'wasm'
      ? await page.evaluate(() => (globalThis as any).kandevLSP?.memory?.().goHeapInUse ?? NaN)
      : NaN;
    return { used: h.usedSize, backing: h.backingStorageSize ?? NaN, goHeap };
  } finally {
    await cdp.detach();
  }
}

type Downloaded = { requests: number; wire: number; fromCache: number; revalidated: number; raw: number; gzip: number; br: number };
type Bytes = { first: Downloaded; repeat: Downloaded };

// downloaded sums what a visit's HTTP requests (the page's and its
// workers'; blob: and data: URLs are no download) brought: bytes on the
// wire as served, headers and bodies; requests answered from the HTTP
// cache (nothing on the wire) and revalidated (headers only: a 304, which
// Chromium shows the page as the cached 200); and with bodies, every body
// raw, gzip -9 and Brotli 11, each file on its own, so that the clients
// compare whatever the demo compresses.
async function downloaded(reqs: Request[], bodies: boolean): Promise<Downloaded> {
  const d: Downloaded = { requests: 0, wire: 0, fromCache: 0, revalidated: 0, raw: 0, gzip: 0, br: 0 };
  for (const r of reqs) {
    if (!/^https?:/.test(r.url())) continue;
    const res = await r.response();
    if (!res) continue;
    d.requests++;
    const s = await r.sizes();
    const onWire = s.responseHeadersSize + s.responseBodySize;
    if (onWire <= 0) d.fromCache++;
    else if (s.responseBodySize === 0 || res.status() === 304) d.revalidated++;
    d.wire += Math.max(0, onWire);
    if (!bodies || res.status() !== 200) continue;
    const body = await res.body().catch(() => null);
    if (!body) continue;
    d.raw += body.length;
    if (!compress) continue;
    const c = compressed(body);
    d.gzip += c.gzip;
    d.br += c.br;
  }
  return d;
}

// KANDEV_BENCH_COMPRESS=0 leaves out the gzip and Brotli sizes (a minute
// of CPU here): the quick round in task test:e2e.
const compress = process.env.KANDEV_BENCH_COMPRESS !== '0';

// compressed sizes a body; Brotli 11 takes seconds a megabyte here, so
// each content (Monaco's files are on two pages) is compressed once.
const sizesByHash = new Map<string, { gzip: number; br: number }>();
function compressed(body: Buffer) {
  const key = crypto.createHash('sha256').update(body).digest('hex');
  let c = sizesByHash.get(key);
  if (!c) {
    c = {
      gzip: zlib.gzipSync(body, { level: 9 }).length,
      br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length,
    };
    sizesByHash.set(key, c);
  }
  return c;
}

const quiet = (page: Page) => page.evaluate((ms) => (window as any).bench.quiet(ms), quietMs);

// completion types prefix on a new line (not timed), waits for quiet, then
// presses keys and times until a row containing label (any row for '') is
// on screen. The trigger is the keydown of key.
// With more, one more letter is typed once the rows are shown and timed
// until the list's first row is filtered to label + more.
async function completion(page: Page, prefix: string, keys: string, key: string, label: string, insertLine = mainLine, more = ''): Promise<Split & { more?: More }> {
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
  let typedMore: More | undefined;
  if (more) {
    const from2 = await page.evaluate((label) => {
      (window as any).benchMore = (window as any).bench.firstRow(label);
      return performance.now();
    }, label + more);
    await page.keyboard.press(more);
    typedMore = await page.evaluate(async ({ from, key, incomplete }) => {
      const b = (window as any).bench;
      const shown: number = await (window as any).benchMore;
      const t0: number = b.probe.keys.find((k: any) => k.t >= from && k.key === key).t;
      const req = b.probe.frames.find((f: any) => f.out && f.t >= t0 && f.t <= shown && f.data.includes('"method":"textDocument/completion"'));
      const id = req ? JSON.parse(req.data).id : null;
      const ans = req ? b.probe.frames.find((f: any) => !f.out && f.t >= req.t && f.data.includes('"id":') && JSON.parse(f.data).id === id) : null;
      const sent = b.probe.frames.filter((f: any) => f.out && f.t >= t0 && f.t <= shown)
        .map((f: any) => { try { return JSON.parse(f.data).method ?? 'a response'; } catch { return '?'; } });
      const call = (b.probe.calls || []).find((c: any) => c.method === 'provideCompletionItems' && c.called >= t0 && c.called <= shown);
      return { ms: shown - t0, incomplete, asked: !!req, toProvider: call ? call.called - t0 : null, toRequest: req ? req.t - t0 : null, toAnswer: req && ans ? ans.t - req.t : null, sent };
    }, { from: from2, key: more, incomplete: (split as any).incomplete ?? null });
  }
  await page.keyboard.press('Escape');
  await page.evaluate((line) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(line, 1, line + 1, 1), '');
  }, insertLine);
  await quiet(page);
  return typedMore ? { ...split, more: typedMore } : split;
}

// diagnostics types n lines into main(), each using an undefined name,
// and times gopls's diagnostics of them: from the frame that carries the
// last one, when JavaScript has it (a publishDiagnostics, or the answer to
// a pull), until n of them are error markers on the model. The lines go
// again, and their markers with them, before the next step.
async function diagnostics(page: Page, client: Client, n: number): Promise<Scaled> {
  const lines = Array.from({ length: n }, (_, i) => `\t_ = benchMissing${i}\n`).join('');
  // monaco-languageclient keeps VS Code's cap of 1,000 markers per file
  // (the diagnostics collection's: 999 of the server's and one saying
  // more were left out), whatever the server sent.
  const shownAll = client === 'mlc' ? Math.min(n, 999) : n;
  const r = await page.evaluate(async ({ line, lines, n, shownAll }) => {
    const b = (window as any).bench;
    const last = `benchMissing${n - 1}`;
    const count = () => b.monaco.editor.getModelMarkers({ resource: b.model.uri })
      .filter((m: any) => m.severity === b.monaco.MarkerSeverity.Error && m.message.includes('benchMissing')).length;
    let sub: any;
    const shown = new Promise<number>((resolve) => {
      sub = b.monaco.editor.onDidChangeMarkers(() => { if (count() >= shownAll) resolve(performance.now()); });
    });
    const from = performance.now();
    b.edit(new b.monaco.Range(line, 1, line, 1), lines);
    const at = await Promise.race([shown, new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000))]);
    sub.dispose();
    if (at === null) return { error: `${count()} error markers after a minute` };
    const frame = b.probe.frames.filter((f: any) => !f.out && f.t >= from && f.t <= at && typeof f.data === 'string' && f.data.includes(last)).pop();
    return frame ? { ms: at - frame.t, bytes: frame.data.length, window: [frame.t, at] } : { error: `no frame carrying ${last} before the markers` };
  }, { line: mainLine, lines, n, shownAll });
  await page.evaluate(({ line, n }) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(line, 1, line + n, 1), '');
  }, { line: mainLine, n });
  await quiet(page);
  if ('error' in r) throw new Error(`${names[client]}, ${n} errors: ${r.error}`);
  return { kind: 'diagnostics', n, ms: r.ms, bytes: r.bytes, window: r.window };
}

// bigCompletion declares n package-level names above main() and times a
// completion by hand of their common prefix: from its answer in
// JavaScript until the suggest widget shows their rows. The names go
// again before the next step.
async function bigCompletion(page: Page, client: Client, n: number): Promise<Scaled> {
  // Unpadded numbers: the letter typed next ('4') narrows the list.
  const decl = `var (\n${Array.from({ length: n }, (_, i) => `\tbenchName${i} = ${i}\n`).join('')})\n\n`;
  const at = 11; // func main's line: the block goes above it
  await page.evaluate(({ at, decl }) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(at, 1, at, 1), decl);
  }, { at, decl });
  await quiet(page);
  const added = n + 3;
  const split = await completion(page, '\tbenchName', 'Control+Space', ' ', 'benchName', mainLine + added, '4');
  await page.evaluate(({ at, added }) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(at, 1, at + added, 1), '');
  }, { at, added });
  await quiet(page);
  if (split.toAnswer === null || split.total === null) throw new Error(`${names[client]}: no completion answer of ${n} names`);
  // From the answer in JavaScript to the rows: the provider's own time
  // (answer → resolved) and Monaco's (resolved → shown).
  const ms = (split.toResolved ?? 0) + (split.toShown ?? 0);
  return { kind: 'completion', n, ms, bytes: (split as any).answerBytes ?? NaN, more: split.more };
}

// typing makes main.go a file of lines lines (a function of statements
// at its end), waits for quiet, then types typedKeys on a new line of
// main() at a typist's pace and measures each keystroke until its
// didChange is on the wire, and the long tasks until the server's answers
// are in. The line and the function go again before the next step.
async function typing(page: Page, client: Client, lines: number): Promise<Typed> {
  const added = await page.evaluate((lines) => {
    const b = (window as any).bench;
    const end = b.model.getLineCount();
    const col = b.model.getLineMaxColumn(end);
    const n = Math.max(0, lines - end - 2);
    b.edit(new b.monaco.Range(end, col, end, col), `\nfunc benchBody() {\n${Array.from({ length: n }, (_, i) => `\t_ = ${i}\n`).join('')}}`);
    return { end, col };
  }, lines);
  await quiet(page);
  await page.evaluate((line) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(line, 1, line, 1), '\t\n');
    b.editor.setPosition({ lineNumber: line, column: 2 });
  }, mainLine);
  await quiet(page);
  const from = await page.evaluate(() => performance.now());
  await page.keyboard.type(typedKeys, { delay: keyDelayMs });
  await quiet(page);
  const r = await page.evaluate((from) => {
    const b = (window as any).bench;
    const keys = b.probe.keys.filter((k: any) => k.t >= from);
    const changes = b.probe.frames.filter((f: any) => f.out && f.t >= from && f.data.includes('"method":"textDocument/didChange"'));
    const latency: number[] = [];
    let held = 0;
    keys.forEach((k: any, i: number) => {
      const next = i + 1 < keys.length ? keys[i + 1].t : Infinity;
      const c = changes.find((f: any) => f.t >= k.t && f.t < next);
      if (c) latency.push(c.t - k.t);
      else held++;
    });
    const last = b.probe.frames[b.probe.frames.length - 1].t;
    const busy = b.probe.longTasks.reduce((sum: number, lt: any) => sum + Math.max(0, Math.min(lt.end, last) - Math.max(lt.start, from)), 0);
    return { keys: keys.length, latency, held, busy };
  }, from);
  await page.evaluate(({ line, added }) => {
    const b = (window as any).bench;
    b.edit(new b.monaco.Range(line, 1, line + 1, 1), '');
    const end = b.model.getLineCount();
    b.edit(new b.monaco.Range(added.end, added.col, end, b.model.getLineMaxColumn(end)), '');
  }, { line: mainLine, added });
  await quiet(page);
  if (r.keys !== typedKeys.length) throw new Error(`${names[client]}: ${r.keys} of ${typedKeys.length} keys seen typing into ${lines} lines`);
  return { lines, ...r };
}

// openMany opens benchFiles as tabs, waits until the client has opened
// each and the server's answers are in, and takes the heap before and
// with them open; then closes them again.
async function openMany(page: Page, client: Client): Promise<Files> {
  const before = await heap(page, client);
  await page.evaluate((paths) => (window as any).bench.openFiles(paths), benchFiles);
  await quiet(page);
  const after = await heap(page, client);
  await page.evaluate(() => (window as any).bench.closeFiles());
  await quiet(page);
  return { files: benchFiles.length, before, after };
}

// writeBenchFiles writes openMany's files into the workspace: a package of
// small types, methods and functions, each file's names its own.
function writeBenchFiles(workspace: string) {
  fs.mkdirSync(`${workspace}/benchfiles`, { recursive: true });
  benchFiles.forEach((p, i) => {
    const k = String(i).padStart(2, '0');
    const funcs = Array.from({ length: 8 }, (_, j) => `
// Score${k}x${j} weighs an item's tags by their length and the item's count.
func Score${k}x${j}(it *Item${k}) int {
	total := it.Count * ${j + 1}
	for _, tag := range it.Tags {
		if strings.HasPrefix(tag, "${k}") {
			total += len(tag)
		}
	}
	return total
}
`).join('');
    fs.writeFileSync(`${workspace}/${p}`, `// Package benchfiles is the browser benchmark's many open files.
package benchfiles

import (
	"fmt"
	"strings"
)

// Item${k} is a named, tagged counter.
type Item${k} struct {
	Name  string
	Count int
	Tags  []string
}

// NewItem${k} makes an item of name with tags.
func NewItem${k}(name string, tags ...string) *Item${k} { return &Item${k}{Name: name, Tags: tags} }

// Add counts n more.
func (it *Item${k}) Add(n int) { it.Count += n }

// String is the item as a line.
func (it *Item${k}) String() string {
	return fmt.Sprintf("%s (%d): %s", it.Name, it.Count, strings.Join(it.Tags, ", "))
}
${funcs}`);
  });
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

type Sizes = { asked: string; served: string; bytes: number }[];

function report(perPass: Record<Client, Results>[], sizes: Sizes, bytes: Record<Client, Bytes>) {
  const lines: string[] = [];
  const row = (...cells: (string | number)[]) => lines.push(`| ${cells.join(' | ')} |`);
  // The run's results per client, both passes together.
  const results = Object.fromEntries(clients.map((c) => [c, Object.fromEntries(
    (Object.keys(empty()) as (keyof Results)[]).map((k) => [k, perPass.flatMap((p) => p[c][k] as any[])]),
  )])) as Record<Client, Results>;
  const totals = (r: Results, s: Step): number[] => (r[s] as any[]).map((x) => x.total);
  const mb = (x: number) => (Number.isNaN(x) ? '–' : (x / 1e6).toFixed(1));
  // A figure of the run, then each pass's in brackets: (first pass, second).
  const rowsOf: [string, (r: Results) => number[], (x: number) => string][] = [
    ...(Object.keys(steps) as Step[]).map((s): [string, (r: Results) => number[], (x: number) => string] => [steps[s], (r) => totals(r, s), ms]),
    ['JS heap after the requests, after GC (MB)', (r) => r.heap.map((h) => h.used), mb],
    ['ArrayBuffers, lsp.wasm\'s memory among them (MB)', (r) => r.heap.map((h) => h.backing), mb],
    ['lsp.wasm\'s live Go heap, in that memory (MB)', (r) => r.heap.map((h) => h.goHeap), mb],
  ];
  const used = perPass.filter((p) => clients.some((c) => p[c].cold.length));
  const base: Client | undefined = clients.includes('monaco') ? 'monaco' : undefined;
  // A figure of the run, then each pass's in brackets when there are two.
  const cell = (f: (r: Record<Client, Results>) => number, fmt: (x: number) => string) =>
    fmt(f(results)) + (used.length > 1 ? ` (${used.map((p) => fmt(f(p))).join(', ')})` : '');
  lines.push('', `${clients.map((c) => names[c]).join(', ')}: ${loads} loads per client in ${used.length} pass${used.length > 1 ? 'es' : ''}, each a first visit (empty HTTP cache) then a repeat visit (cache warm), and ${loads * requests} requests of each kind per client after each load's first completion. Medians (ms unless said), each pass's in brackets; ratio = client ÷ monaco.lsp in the same run${baseline.length ? `; monaco.lsp with ${baseline.join(', ')}` : ''}${wasmVariant ? `; lsp.wasm with ?wasm=${wasmVariant}` : ''}`, '');
  const columns = clients.flatMap((c) => (base && c !== base ? [names[c], '÷ monaco.lsp'] : [names[c]]));
  row('step', ...columns);
  row('---', ...columns.map(() => '---:'));
  for (const [label, values, fmt] of rowsOf) {
    const cells: string[] = [];
    for (const c of clients) {
      cells.push(cell((r) => med(values(r[c])), fmt));
      if (base && c !== base) cells.push(cell((r) => med(values(r[c])) / med(values(r[base])), (x) => (Number.isNaN(x) ? '–' : x.toFixed(2))));
    }
    row(label, ...cells);
  }

  if (clients.some((c) => results[c].scale.length)) {
    lines.push('', 'what big answers cost the page (medians, ms): the answer in JavaScript → what the user sees; diagnostics: the frame carrying the errors → the markers in Monaco (monaco-languageclient shows at most 1,000 per file, VS Code\'s cap); completion: the answer → the suggest widget\'s rows; answer size in kB', '');
    const scaleColumns = clients.flatMap((c) => (base && c !== base ? [names[c], '÷ monaco.lsp', 'kB'] : [names[c], 'kB']));
    row('step', ...scaleColumns);
    row('---', ...scaleColumns.map(() => '---:'));
    const sizes2: [Scaled['kind'], number[], string][] = [['diagnostics', diagnosticSizes, 'errors'], ['completion', completionSizes, 'names']];
    for (const [kind, ns, unit] of sizes2) {
      for (const n of ns) {
        const of = (r: Results) => r.scale.filter((x) => x.kind === kind && x.n === n);
        const cells: string[] = [];
        for (const c of clients) {
          cells.push(cell((r) => med(of(r[c]).map((x) => x.ms)), ms));
          if (base && c !== base) cells.push(cell((r) => med(of(r[c]).map((x) => x.ms)) / med(of(r[base]).map((x) => x.ms)), (x) => x.toFixed(2)));
          cells.push((med(of(results[c]).map((x) => x.bytes)) / 1000).toFixed(0));
        }
        row(`${kind}, ${n.toLocaleString('en')} ${unit}`, ...cells);
      }
    }
  }

  if (clients.some((c) => results[c].typing.length || results[c].files.length)) {
    lines.push('', `what work as it grows costs the page (medians): one more letter typed into the list above → its first row filtered to it; ${typedKeys.length} keys typed at ${keyDelayMs} ms a key into a file of that many lines, each keystroke → its didChange on the wire, and the long main-thread tasks (≥ 50 ms) from the first key until the server's answers are in; the heap after GC with the ${benchFiles.length} files of a package open as tabs, and its growth over the one file before`, '');
    const columns2 = clients.flatMap((c) => (base && c !== base ? [names[c], '÷ monaco.lsp'] : [names[c]]));
    row('step', ...columns2);
    row('---', ...columns2.map(() => '---:'));
    const rows2: [string, (r: Results) => number[], (x: number) => string][] = [
      ...completionSizes.map((n): [string, (r: Results) => number[], (x: number) => string] => [`one more letter → the list filtered, ${n.toLocaleString('en')} names (ms)`,
        (r) => r.scale.filter((x) => x.kind === 'completion' && x.n === n && x.more).map((x) => x.more!.ms), ms]),
      ...typingSizes.flatMap((n): [string, (r: Results) => number[], (x: number) => string][] => [
        [`keystroke → didChange, ${n.toLocaleString('en')} lines (ms)`, (r) => r.typing.filter((x) => x.lines === n).flatMap((x) => x.latency), (x) => (Number.isNaN(x) ? '–' : x.toFixed(2))],
        [`long tasks while typing, ${n.toLocaleString('en')} lines (ms)`, (r) => r.typing.filter((x) => x.lines === n).map((x) => x.busy), ms],
      ]),
      [`JS heap, ${benchFiles.length} files open (MB)`, (r) => r.files.map((f) => f.after.used), mb],
      [`its growth over one file (MB)`, (r) => r.files.map((f) => f.after.used - f.before.used), (x) => (Number.isNaN(x) ? '–' : (x / 1e6).toFixed(2))],
      [`ArrayBuffers, ${benchFiles.length} files open (MB)`, (r) => r.files.map((f) => f.after.backing), mb],
      [`lsp.wasm's live Go heap, ${benchFiles.length} files open (MB)`, (r) => r.files.map((f) => f.after.goHeap), (x) => (Number.isNaN(x) ? '–' : (x / 1e6).toFixed(2))],
    ];
    for (const [label, values, fmt] of rows2) {
      const cells: string[] = [];
      for (const c of clients) {
        cells.push(cell((r) => med(values(r[c])), fmt));
        if (base && c !== base) cells.push(cell((r) => med(values(r[c])) / med(values(r[base])), (x) => (Number.isNaN(x) ? '–' : x.toFixed(2))));
      }
      row(label, ...cells);
    }
    lines.push('');
    for (const c of clients) {
      const said = completionSizes.map((n) => {
        const ms2 = results[c].scale.filter((x) => x.kind === 'completion' && x.n === n && x.more).map((x) => x.more!);
        const asked = ms2.filter((m) => m.asked);
        const split = asked.length ? ` (keydown → provider called ${ms(med(asked.map((m) => m.toProvider ?? NaN)))} ms, → request ${ms(med(asked.map((m) => m.toRequest!)))} ms, → answer ${ms(med(asked.map((m) => m.toAnswer ?? NaN)))} ms)` : '';
        const sent = ms2.length ? `, sending ${ms2[ms2.length - 1].sent.join(', ') || 'nothing'}` : '';
        return `${n.toLocaleString('en')} names: the server said incomplete ${ms2.filter((m) => m.incomplete).length} of ${ms2.length} times, the client asked again ${asked.length} times${split}${sent}`;
      });
      const held = typingSizes.map((n) => {
        const t = results[c].typing.filter((x) => x.lines === n);
        return `${t.reduce((a, x) => a + x.held, 0)} of ${t.reduce((a, x) => a + x.keys, 0)} keystrokes at ${n.toLocaleString('en')} lines had no didChange before the next key`;
      });
      lines.push(`- ${names[c]}: ${[...said, ...held].join('; ')}`);
    }
  }

  lines.push('', 'bytes each page downloads (the page\'s requests and its workers\', WebSocket frames aside): on the wire as the demo serves them (Monaco\'s files under /monaco/ uncompressed, lsp.wasm and the monaco-languageclient build Brotli), and every body raw, gzip -9 and Brotli 11; the repeat visit\'s answers from the HTTP cache and revalidations (304)', '');
  row('client', 'requests', 'first visit: on the wire (MB)', 'raw', 'gzip', 'Brotli', 'repeat visit: on the wire (MB)', 'from cache', 'revalidated');
  row('---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:');
  for (const c of clients) {
    const b = bytes[c];
    const mb2 = (x: number) => (compress || x ? (x / 1e6).toFixed(2) : '–');
    row(names[c], b.first.requests, mb2(b.first.wire), mb2(b.first.raw), mb2(b.first.gzip), mb2(b.first.br), mb2(b.repeat.wire), `${b.repeat.fromCache} of ${b.repeat.requests}`, b.repeat.revalidated);
  }

  lines.push('', 'requests, split (medians, ms): trigger → Monaco calls the provider → request sent → answer in JavaScript → provider resolves → shown', '');
  row('step', 'client', 'trigger → provider', 'provider → request', 'request → answer', 'answer → resolved', 'resolved → shown', 'total');
  row('---', '---', '---:', '---:', '---:', '---:', '---:', '---:');
  const col = (rs: Split[], k: keyof Split) => ms(med(rs.map((r) => r[k] as number).filter((x) => x !== null)));
  for (const s of ['first', 'byHand', 'dot', 'hover'] as Step[]) {
    for (const c of clients) {
      const rs = results[c][s] as Split[];
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

  lines.push('', 'cold load, split (medians, ms since navigation start; lsp: lsp.wasm running, before configure; client: lsp.wasm configured with a promise of Monaco and its pair prepared, so before Monaco on a cold load, or the monaco.lsp or monaco-languageclient client made, after Monaco; busy: ms of long main-thread tasks between the socket\'s creation and the ready frame, and in all)', '');
  const marks = ['monaco', 'lsp', 'client', 'socket', 'ready', 'initializeSent', 'initializeAnswered', 'initialized', 'didOpen', 'diagnostics', 'total', 'busyBeforeReady', 'busyTotal'];
  const heads: Record<string, string> = { total: 'first error marker', busyBeforeReady: 'busy before ready', busyTotal: 'busy' };
  row('client', ...marks.map((m) => heads[m] ?? m));
  row('---', ...marks.map(() => '---:'));
  for (const c of clients) row(names[c], ...marks.map((m) => ms(med(results[c].cold.map((r: Cold) => r[m] ?? NaN)))));
  for (const c of clients) row(`${names[c]}, repeat visit`, ...marks.map((m) => ms(med(results[c].repeat.map((r: Cold) => r[m] ?? NaN)))));

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
  const wasm = (results.wasm?.cold ?? []).map((r: Cold) => r.wasm).filter(Boolean);
  if (wasm.length) {
    const w = wasm[wasm.length - 1];
    lines.push('', `in Chromium (cold load): transferred ${w.transferSize} bytes, body ${w.encodedBodySize} encoded, ${w.decodedBodySize} decoded`);
  }
  return lines.join('\n');
}
