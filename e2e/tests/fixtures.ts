import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

type Demo = { url: string; proc: ChildProcess; logs: string[] };

// startDemo runs the built demo server (bin/webdemo, which starts its own
// Local PC agent over a fresh copy of the sample workspace) on a free port
// and resolves once it prints its address.
async function startDemo(): Promise<Demo> {
  const proc = spawn(path.join(root, 'bin', 'webdemo'), [
    '-addr', '127.0.0.1:0',
    '-agent', path.join(root, 'bin', 'kandev-agent'),
    '-assets', path.join(root, 'bin'),
    '-monaco', path.join(root, 'webdemo', 'node_modules', 'monaco-editor', 'min'),
    '-sample', path.join(root, 'webdemo', 'sample'),
  ], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  proc.stderr!.on('data', (b) => logs.push(String(b)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`webdemo did not start:\n${logs.join('')}`)), 30_000);
    proc.once('exit', (code) => reject(new Error(`webdemo exited ${code}:\n${logs.join('')}`)));
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      m ? resolve(m[1]) : reject(new Error(`unexpected first line: ${line}`));
    });
  });
  return { url, proc, logs };
}

async function stopDemo(demo: Demo) {
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
