import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** A running demo server: its URL and the task workspace its agent serves. */
export type Demo = { url: string; workspace: string; proc: ChildProcess; logs: string[] };

export type DemoOptions = {
  /** The sample tree copied into the workspace (relative to the repository). */
  sample?: string;
  /** Let the fake language server stand in for rust-analyzer and kotlin-lsp. */
  fake?: boolean;
};

// startDemo runs the built demo server (bin/webdemo, which starts its own
// Local PC agent over a fresh copy of the sample workspace) on a free port
// and resolves once it prints its address and workspace.
export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const args = [
    '-addr', '127.0.0.1:0',
    '-agent', path.join(root, 'bin', 'kandev-agent'),
    '-assets', path.join(root, 'bin'),
    '-monaco', path.join(root, 'webdemo', 'node_modules', 'monaco-editor', 'min'),
    '-sample', path.join(root, opts.sample ?? 'webdemo/sample'),
  ];
  if (opts.fake) args.push('-fake-lsp', path.join(root, 'bin', 'fakelsp'));
  const proc = spawn(path.join(root, 'bin', 'webdemo'), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  proc.stderr!.on('data', (b) => logs.push(String(b)));
  const started = await new Promise<{ url: string; workspace: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`webdemo did not start:\n${logs.join('')}`)), 30_000);
    proc.once('exit', (code) => reject(new Error(`webdemo exited ${code}:\n${logs.join('')}`)));
    const lines = createInterface({ input: proc.stdout! });
    let url = '';
    lines.on('line', (line) => {
      let m: RegExpExecArray | null;
      if (!url && (m = /^listening on (http:\/\/\S+)$/.exec(line))) {
        url = m[1];
      } else if (url && (m = /^workspace (\/.+)$/.exec(line))) {
        clearTimeout(timer);
        resolve({ url, workspace: m[1] });
      }
    });
  });
  return { ...started, proc, logs };
}

export async function stopDemo(demo: Demo) {
  if (demo.proc.exitCode !== null) return;
  const exited = new Promise((r) => demo.proc.once('exit', r));
  demo.proc.kill('SIGTERM');
  await exited;
}

export const test = base.extend<{}, { demo: Demo }>({
  demo: [async ({}, use) => {
    const demo = await startDemo();
    await use(demo);
    await stopDemo(demo);
  }, { scope: 'worker' }],
  baseURL: async ({ demo }, use) => use(demo.url),
});

export { expect };

// openDemo loads the page and waits until Monaco and lsp.wasm are up.
export async function openDemo(page: Page) {
  await page.goto('/');
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
