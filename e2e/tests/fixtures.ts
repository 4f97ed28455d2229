import { test as base, expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import crypto from 'node:crypto';
import { waitReady } from './editor';

const root = path.resolve(__dirname, '..', '..');

/** A running demo server: its URL, the task workspace its agent serves, the
 * sign-in URL it printed (it carries the browser token), and its Local Docker
 * task container when it has one. */
export type Demo = {
  url: string; workspace: string; signIn: string; proc: ChildProcess; logs: string[]; container?: string;
  /** With externalAgent: the page's session's agent, a process of its own,
   * and how it was launched, for restartAgent. */
  agent?: ChildProcess;
  /** What the current agent process wrote to stderr (its log). */
  agentLogs?: string[];
  agentLaunch?: { args: string[]; env: NodeJS.ProcessEnv; cwd: string };
  /** How the demo was launched, for restartDemo. */
  launch: { cmd: string; args: string[]; env: NodeJS.ProcessEnv };
};

export type DemoOptions = {
  /** Put e2e/node_modules/.bin (typescript-language-server, pyright) on the agent's PATH. */
  npmServers?: boolean;
  /** Folders (relative to the repository) put first on the agent's PATH,
   * before npmServers' one: wrappers named after a catalog command, such as
   * e2e/servers/tsgo, stand in for that server. */
  path?: string[];
  /** The sample tree copied into the workspace (relative to the repository). */
  sample?: string;
  /** Let the fake language server stand in for rust-analyzer and kotlin-lsp. */
  fake?: boolean;
  /** Give the task host a fresh, empty HOME: no managed servers, no Go bin directory. */
  freshHome?: boolean;
  /** Add the Local Docker session: a container of the task image $KANDEV_DOCKER_IMAGE. */
  docker?: boolean;
  /** The relay's cap of active streams (KANDEV_LSP_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Commands planted first on the task PATH as files that cannot run. */
  unlaunchable?: string[];
  /** Folders of the sample made Git repositories in the workspace copy. */
  repos?: string[];
  /** Run the page's session's agent apart from the demo, as a task host
   * of its own, on a workspace copy the test makes; the demo listens on a
   * fixed port with a fixed browser secret, so restartDemo brings the
   * relay back where the page expects it, with the page still signed in. */
  externalAgent?: boolean;
};

// firstLine resolves with the first stdout line of proc matching re.
function firstLine(proc: ChildProcess, re: RegExp, what: string, logs: string[]): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${logs.join('')}`)), 30_000);
    proc.once('exit', (code) => reject(new Error(`${what} exited ${code}:\n${logs.join('')}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const m = re.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
  });
}

// freeAddr is a loopback address nothing listens on now.
async function freeAddr(): Promise<string> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
}

// startDemo runs the built demo server (bin/webdemo, which starts its own
// Local PC agent over a fresh copy of the sample workspace) on a free port
// and resolves once it prints its address, workspace and sign-in URL.
export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const args = [
    '-addr', '127.0.0.1:0',
    '-agent', path.join(root, 'bin', 'kandev-agent'),
    '-assets', path.join(root, 'bin'),
    '-esm', path.join(root, 'bin', 'esm'),
    '-bench', path.join(root, 'e2e', 'bench', 'page'),
    '-package', path.join(root, 'wasm', 'js'),
    '-monaco', path.join(root, 'webdemo', 'node_modules', 'monaco-editor', 'min'),
    '-sample', path.join(root, opts.sample ?? 'webdemo/sample'),
    // A fresh settings database per demo: tests never see each other's saves.
    '-db', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kandev-e2e-')), 'settings.db'),
  ];
  if (opts.fake) args.push('-fake-lsp', path.join(root, 'bin', 'fakelsp'));
  const toolDirs = (opts.path ?? []).map((d) => path.join(root, d));
  if (opts.npmServers) toolDirs.push(path.join(root, 'e2e', 'node_modules', '.bin'));
  if (toolDirs.length) args.push('-path', toolDirs.join(path.delimiter));
  if (opts.docker && process.env.KANDEV_DOCKER_IMAGE) args.push('-docker-image', process.env.KANDEV_DOCKER_IMAGE);
  if (opts.unlaunchable) args.push('-unlaunchable', opts.unlaunchable.join(','));
  if (opts.repos) args.push('-repos', opts.repos.join(','));
  // npx puts e2e/node_modules/.bin (typescript-language-server, pyright)
  // first on PATH; a bare host must not inherit them.
  const base = opts.maxConnections ? { ...process.env, KANDEV_LSP_MAX_CONNECTIONS: String(opts.maxConnections) } : process.env;
  const env = opts.freshHome
    ? {
      ...base,
      HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'kandev-e2e-home-')),
      PATH: (process.env.PATH ?? '').split(path.delimiter).filter((d) => !d.includes('node_modules')).join(path.delimiter),
    }
    : base;
  // KANDEV_DEMO_CPUS (e.g. 1) runs the demo, and so the task host's agent
  // and language servers, on those CPUs only: with the browser pinned to
  // the others (taskset -c 0 npx playwright ...), the two sides do not take
  // each other's cores, as on separate machines (the browser benchmark).
  const demoCPUs = process.env.KANDEV_DEMO_CPUS;
  let demoEnv: NodeJS.ProcessEnv = env;
  let agent: ChildProcess | undefined;
  let agentLogs: string[] | undefined;
  let agentLaunch: Demo['agentLaunch'];
  if (opts.externalAgent) {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kandev-e2e-ws-')));
    fs.cpSync(path.join(root, opts.sample ?? 'webdemo/sample'), ws, { recursive: true });
    const token = crypto.randomUUID();
    const agentEnv: NodeJS.ProcessEnv = { ...env, KANDEV_AGENT_TOKEN: token };
    if (toolDirs.length) agentEnv.PATH = [...toolDirs, env.PATH ?? ''].join(path.delimiter);
    // A fixed port, so that restartAgent brings it back where the relay
    // expects it.
    agentLaunch = { args: ['-addr', await freeAddr(), '-workspace', ws], env: agentEnv, cwd: ws };
    let agentURL: string;
    [agent, agentURL, agentLogs] = await launchAgent(agentLaunch);
    args[1] = await freeAddr();
    args.push('-workspace', ws, '-agent-url', agentURL);
    demoEnv = { ...env, KANDEV_DEMO_AGENT_TOKEN: token, KANDEV_DEMO_SECRET: crypto.randomUUID() };
  }
  const bin = path.join(root, 'bin', 'webdemo');
  const [cmd, cmdArgs] = demoCPUs ? ['taskset', ['-c', demoCPUs, bin, ...args]] : [bin, args];
  const demo = await launchDemo({ cmd, args: cmdArgs, env: demoEnv });
  return { ...demo, agent, agentLogs, agentLaunch };
}

async function launchAgent(l: NonNullable<Demo['agentLaunch']>): Promise<[ChildProcess, string, string[]]> {
  const agent = spawn(path.join(root, 'bin', 'kandev-agent'), l.args, { cwd: l.cwd, env: l.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  agent.stderr!.on('data', (b) => logs.push(String(b)));
  const [, url] = await firstLine(agent, /^listening on (http:\/\/\S+)$/, 'kandev-agent', logs);
  return [agent, url, logs];
}

// restartAgent kills the externalAgent demo's task-host agent (SIGKILL: its
// servers go with it) and starts it again on its port, as a task host
// whose agent restarted; down runs while it is gone.
export async function restartAgent(demo: Demo, down?: () => Promise<void>) {
  const old = demo.agent!;
  if (old.exitCode === null) {
    const exited = new Promise((r) => old.once('exit', r));
    old.kill('SIGKILL');
    await exited;
  }
  if (down) await down();
  [demo.agent, , demo.agentLogs] = await launchAgent(demo.agentLaunch!);
}

// restartDemo kills the demo (SIGKILL: no drain, as a crashed relay; or
// signal, e.g. SIGTERM as a deploy stops it) and starts it again as it was
// launched; demo then names the new process.
// With externalAgent its task host lives on throughout.
export async function restartDemo(demo: Demo, down?: () => Promise<void>, signal: NodeJS.Signals = 'SIGKILL') {
  if (demo.proc.exitCode === null) {
    const exited = new Promise((r) => demo.proc.once('exit', r));
    demo.proc.kill(signal);
    await exited;
  }
  if (down) await down();
  const next = await launchDemo(demo.launch);
  Object.assign(demo, next, { agent: demo.agent, agentLogs: demo.agentLogs, agentLaunch: demo.agentLaunch });
}

async function launchDemo(launch: Demo['launch']): Promise<Demo> {
  const { cmd, args: cmdArgs, env } = launch;
  const proc = spawn(cmd, cmdArgs, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  proc.stderr!.on('data', (b) => logs.push(String(b)));
  const started = await new Promise<{ url: string; workspace: string; signIn: string; container?: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`webdemo did not start:\n${logs.join('')}`)), 30_000);
    proc.once('exit', (code) => reject(new Error(`webdemo exited ${code}:\n${logs.join('')}`)));
    const lines = createInterface({ input: proc.stdout! });
    let url = '';
    let workspace = '';
    let container: string | undefined;
    lines.on('line', (line) => {
      let m: RegExpExecArray | null;
      if (!url && (m = /^listening on (http:\/\/\S+)$/.exec(line))) {
        url = m[1];
      } else if (url && (m = /^docker container (\S+)$/.exec(line))) {
        container = m[1];
      } else if (url && !workspace && (m = /^workspace (\/.+)$/.exec(line))) {
        workspace = m[1];
      } else if (workspace && (m = /^open (http:\/\/\S+) in a browser$/.exec(line))) {
        clearTimeout(timer);
        resolve({ url, workspace, signIn: m[1], container });
      }
    });
  });
  return { ...started, proc, logs, launch };
}

// startReplica starts a second demo beside an externalAgent demo, as a
// second relay replica: its own port and settings, the same task host and
// the same browser secret, so a page signed in on one is signed in on both.
export async function startReplica(demo: Demo): Promise<Demo> {
  const args = [...demo.launch.args];
  args[args.indexOf('-addr') + 1] = await freeAddr();
  args[args.indexOf('-db') + 1] = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kandev-e2e-')), 'settings.db');
  return launchDemo({ ...demo.launch, args });
}

export async function stopDemo(demo: Demo) {
  for (const p of [demo.proc, demo.agent]) {
    if (!p || p.exitCode !== null) continue;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
  }
}

// goplsUnder lists the gopls processes descending from root (a task
// host's agent, or the demo, whose agents run the servers), from /proc.
export function goplsUnder(root: number): number[] {
  return serversUnder(root, (comm) => comm === 'gopls');
}

// serversUnder lists the processes descending from root whose name (comm)
// and command line match, from /proc.
export function serversUnder(root: number, match: (comm: string, cmdline: string) => boolean): number[] {
  const parent = new Map<number, number>();
  const found: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(fs.readFileSync(`/proc/${d}/stat`, 'utf8'));
      if (!m) continue;
      parent.set(Number(d), Number(m[2]));
      if (match(m[1], fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' '))) found.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  const under = (p: number) => {
    for (let q = p, n = 0; q > 1 && n < 64; q = parent.get(q) ?? 0, n++) if (q === root) return true;
    return false;
  };
  return found.filter(under).sort();
}

/**
 * An expected page error: a console error or uncaught exception matching
 * pattern is not a failure. why says what provokes it; every entry needs
 * one.
 */
export type ExpectedPageError = { pattern: RegExp; why: string; entry?: string };

/**
 * Page errors every test may see. Each entry says why the error is no bug
 * of the page or of lsp.wasm; a spec that provokes a failure on purpose
 * lists its own with test.use({ expectedPageErrors: [...] }) instead.
 */
const alwaysExpected: ExpectedPageError[] = [{
  // Seen once in merge.spec, while a quick fix applied: every frame is
  // Monaco's (AMD build); a pending request of its code-action model is
  // cancelled as the model's state changes, and the cancellation's
  // rejection reaches the page unhandled. It depends on timing, so any
  // spec that opens a code-action menu may see it.
  pattern: /^Canceled: Canceled\n\s+at [^\n]*\/monaco\/vs\/editorWorkerHost-[^\n]*\n(\s+at [^\n]*\/monaco\/vs\/[^\n]*\n?)*$/,
  why: 'Monaco cancels its own code-action request; no frame of the page or of lsp.wasm',
},
// The ESM entry (/esm/, Monaco's ESM build bundled by Vite) cannot start
// Monaco's editor worker: the worker's module asks for
// ../../../base/common/worker/webWorkerBootstrap.js from a blob: URL,
// which has no base to resolve it against. A bug of the demo's bundle
// (webdemo/esm), reported; allowed on that entry alone, every spec of
// the esm project hits it. Monaco logs the failure, the worker's script
// throws it, and Monaco's worker client re-raises the worker's error
// event.
{
  entry: '/esm/',
  pattern: /^Failed to load worker script for label: editorWorkerService\.\nEnsure your bundler properly bundles modules referenced by "new URL\('\.\.\.\?esm', import\.meta\.url\)"\. TypeError: Failed to resolve module specifier "\.\.\/\.\.\/\.\.\/base\/common\/worker\/webWorkerBootstrap\.js"/,
  why: 'the ESM bundle does not bundle Monaco\'s editor worker (reported)',
}, {
  entry: '/esm/',
  pattern: /^TypeError: Failed to resolve module specifier "\.\.\/\.\.\/\.\.\/base\/common\/worker\/webWorkerBootstrap\.js"\. Invalid relative url or base scheme isn't hierarchical\.\n\s+at blob:/,
  why: 'the same failure, thrown by the worker\'s script',
}, {
  entry: '/esm/',
  pattern: /^: ErrorEvent$/,
  why: 'the same failure: the worker\'s error event, re-raised by Monaco\'s worker client (it carries no message)',
}];

type TraceEntry = { socket: number; from: 'client' | 'server'; frame: string };

// traceLSP records every frame of the page's language-server sockets (the
// relay's /lsp/ route), reloads and reconnects included, in order.
function traceLSP(page: Page): TraceEntry[] {
  const trace: TraceEntry[] = [];
  let sockets = 0;
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.startsWith('/lsp/')) return;
    const socket = ++sockets;
    const add = (from: 'client' | 'server') => ({ payload }: { payload: string | Buffer }) => {
      trace.push({ socket, from, frame: typeof payload === 'string' ? payload : payload.toString('utf8') });
    };
    ws.on('framesent', add('client'));
    ws.on('framereceived', add('server'));
  });
  return trace;
}

// conform holds the test's language-server traffic to the LSP 3.18 meta
// model (bin/kandev-lspconform, tools/lspconform): what lsp.wasm sent to
// the letter, what the servers sent to its types. A frame that does not
// conform fails the test that produced it.
function conform(trace: TraceEntry[], testInfo: TestInfo) {
  if (!trace.length) return;
  const file = testInfo.outputPath('lsp-trace.json');
  fs.writeFileSync(file, JSON.stringify(trace));
  const r = spawnSync(path.join(root, 'bin', 'kandev-lspconform'), [file], { encoding: 'utf8', cwd: root });
  if (r.error) throw r.error;
  expect(r.stdout, `LSP conformance of the test's ${trace.length} frames (${file})`).not.toMatch(/^socket \d+:/m);
  expect(r.status, r.stderr).toBe(0);
}

/** demoTest is a test whose worker runs one demo started with opts. */
export function demoTest(opts: DemoOptions) {
  return base.extend<{ entry: string; expectedPageErrors: ExpectedPageError[] }, { demo: Demo }>({
    // The page's entry: / (Monaco's AMD build) or /esm/ (its ESM build,
    // bundled); the esm project sets it (playwright.config.ts).
    entry: ['/', { option: true }],
    expectedPageErrors: [[], { option: true }],
    // A test fails when its page throws an uncaught exception or logs a
    // console error (the page's, Monaco's or lsp.wasm's), unless the error
    // is expected above or by the spec: a page that breaks while the
    // assertions still hold must not pass.
    page: async ({ page, entry, expectedPageErrors }, use, testInfo) => {
      const lspTrace = traceLSP(page);
      const expected = [...alwaysExpected, ...expectedPageErrors].filter((e) => e.entry === undefined || e.entry === entry);
      const errors: string[] = [];
      const check = (kind: string, text: string) => {
        if (!expected.some((e) => e.pattern.test(text))) errors.push(`${kind}: ${text}`);
      };
      page.on('pageerror', (err) => check('uncaught exception', err.stack || `${err.name}: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const at = msg.location();
        check('console error', at.url ? `${msg.text()} (${at.url}:${at.lineNumber})` : msg.text());
      });
      await use(page);
      expect(errors, 'the page logged errors or threw').toEqual([]);
      conform(lspTrace, testInfo);
    },
    demo: [async ({}, use) => {
      const demo = await startDemo(opts);
      await use(demo);
      await stopDemo(demo);
    }, { scope: 'worker' }],
    baseURL: async ({ demo }, use) => use(demo.url),
    // Every context signs in once, as a person opening the printed URL
    // does: the answer sets the HttpOnly cookie the page, its fetches and
    // its WebSockets then carry.
    context: async ({ context, demo }, use) => {
      await signIn(context, demo);
      await use(context);
    },
  });
}

/** signIn opens the demo's sign-in URL in context, which stores its cookie. */
export async function signIn(context: BrowserContext, demo: Demo) {
  const res = await context.request.get(demo.signIn);
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Specs against the Go sample and real gopls. */
export const test = demoTest({ npmServers: true });

/** Specs with a Local Docker session beside the Local PC ones (real gopls in a task container). */
export const dockerTest = demoTest({ docker: true });

/** Specs against the fake server standing in for rust-analyzer and kotlin-lsp. */
export const fakeTest = demoTest({ sample: 'e2e/workspaces/fake', fake: true });

/** Specs on a bare task host: the fake stands in for rust-analyzer and
 * kotlin-lsp, and nothing else is installed (a fresh HOME). */
export const bareTest = demoTest({ sample: 'e2e/workspaces/fake', fake: true, freshHome: true });

/** writeScript sets the fake server's behaviour for the next connection. */
export function writeScript(demo: Demo, script: object) {
  fs.writeFileSync(path.join(demo.workspace, '.fakelsp.json'), JSON.stringify(script));
}

/** readRecord returns the lines the fake server recorded. */
export function readRecord(file: string): any[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** putSettings saves a partial settings update through the relay's API. */
export async function putSettings(page: Page, patch: object) {
  const res = await page.request.put('/api/v1/user/settings', { data: patch });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** view reads lsp.wasm's status view-model for the page's session. */
export function view(page: Page, language: string) {
  return page.evaluate((lang) => {
    const d = (window as any).demo;
    return d.lsp.view(d.sessionId, lang);
  }, language);
}

/** openFile expands the file's folders in the Files tree and clicks it
 * (on a narrow screen the tree is a panel: it is opened first), then waits
 * for its content unless told the load is held back ({ loaded: false }). */
export async function openFile(page: Page, path: string, opts: { loaded?: boolean } = {}) {
  if (await page.locator('#files').isHidden()) await page.locator('#toggle-files').click();
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = page.locator(`#files button.folder[data-dir="${parts.slice(0, i).join('/')}"]`);
    if ((await dir.getAttribute('aria-expanded')) !== 'true') await dir.click();
  }
  await page.locator(`#files button.file[data-path="${path}"]`).click();
  await expect(page.locator('#current-file')).toHaveText(path);
  // The toolbar names the file as soon as its tab activates; its content
  // (and model) follow once the fetch has answered.
  if (opts.loaded !== false) await expect(page.locator('#loading-view')).toBeHidden();
}

/** openSettings opens the Editors settings page. */
export async function openSettings(page: Page) {
  await page.locator('#open-settings').click();
  await expect(page.locator('#settings-page')).toBeVisible();
}

/** saveConfig saves one language's configuration on the settings page. */
export async function saveConfig(page: Page, language: string, json: string) {
  await page.locator(`#config-${language}`).fill(json);
  await page.locator(`#save-config-${language}`).click();
  await expect(page.locator(`#config-saved-${language}`)).toHaveText('Saved.');
}

/** closeSettings goes back from the settings page to the files. */
export async function closeSettings(page: Page) {
  await page.locator('#close-settings').click();
  await expect(page.locator('#settings-page')).toBeHidden();
}

export { expect };

// openDemo loads the page at the project's entry (see playwright.config.ts)
// and waits until Monaco and lsp.wasm are up.
export async function openDemo(page: Page) {
  await page.goto((base.info().project.use as { entry?: string }).entry ?? '/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

// markerMessages reads the markers Monaco holds for the open model.
export function markerMessages(page: Page) {
  return page.evaluate(() => {
    const d = (window as any).demo;
    const model = d.editor.getModel();
    return d.monaco.editor.getModelMarkers({ resource: model.uri }).map((m: any) => m.message as string);
  });
}

/**
 * lspMarkers reads the markers lsp.wasm set on the model with this URI
 * (every server's owner, kandev-lsp:…): their messages, with owners as
 * "owner: message", or only the errors.
 */
export function lspMarkers(page: Page, uri: string, opts: { owners?: boolean; errorsOnly?: boolean } = {}) {
  return page.evaluate(({ uri, owners, errorsOnly }) => {
    const { monaco } = (window as any).demo;
    return monaco.editor.getModelMarkers({ resource: monaco.Uri.parse(uri) })
      .filter((m: any) => String(m.owner).startsWith('kandev-lsp:'))
      .filter((m: any) => !errorsOnly || m.severity === monaco.MarkerSeverity.Error)
      .map((m: any) => (owners ? `${m.owner}: ${m.message}` : m.message) as string);
  }, { uri, owners: !!opts.owners, errorsOnly: !!opts.errorsOnly });
}

/** modelMarkers reads the markers Monaco holds for the model with this URI. */
export function modelMarkers(page: Page, uri: string) {
  return page.evaluate((uri: string) => {
    const { monaco } = (window as any).demo;
    return monaco.editor.getModelMarkers({ resource: monaco.Uri.parse(uri) }).map((m: any) => m.message as string);
  }, uri);
}

/** openIn opens a file in a session and waits for its language server. */
export async function openIn(page: Page, session: string, path: string) {
  await page.locator('#session').selectOption(session);
  await openFile(page, path);
  await waitReady(page);
}
