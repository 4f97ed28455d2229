import { demoTest, test, expect, openDemo, openFile, putSettings, view, type Demo } from './fixtures';
import { waitReady } from './editor';
import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';

// What the relay refuses before any task host is started or resumed: a
// session on an executor it does not serve (SSH), and a stream over the
// connection cap. The relay's own metrics show that nothing was started.

const status = (page: Page) => page.locator('#lsp-status');
const popover = (page: Page) => page.locator('#lsp-popover');

/** metric reads one sample of the relay's Prometheus text (0 when absent). */
async function metric(page: Page, name: string) {
  const text = await (await page.request.get('/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

test('an SSH session shows the unsupported task host; no agent starts and no action is offered', async ({ page }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go'] });
  await openDemo(page);
  const refused = await metric(page, 'kandev_relay_stream_refusals_total{code="4004"}');
  await expect(page.locator('#session option[value="ssh"]')).toHaveText('ssh (SSH)');
  await page.locator('#session').selectOption('ssh');
  await openFile(page, 'main.go');
  await expect(status(page)).toHaveAttribute('data-close-code', '4004');
  await expect(status(page)).toHaveText('Go · This task host is not supported.');
  await status(page).click();
  await expect(popover(page)).toContainText('Language servers run only on Local PC and local Docker tasks.');
  // Nothing to start or retry: the task host will not change its mind.
  await expect(page.locator('#lsp-action')).toBeHidden();
  expect((await view(page, 'go')).action).toBeNull();
  // The relay refused it before anything ran: the session has no agent
  // URL, which for a Local PC task would have started one.
  expect(await metric(page, 'kandev_relay_stream_refusals_total{code="4004"}')).toBe(refused + 1);
  expect(await metric(page, 'kandev_relay_agents_running')).toBe(0);
});

// A cap of one stream, with the Local Docker session when the machine has
// an engine and the task image (see docker.spec.ts).
const capTest = demoTest({ npmServers: true, docker: true, maxConnections: 1 });

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();

capTest('with a cap of one, a second language says too many language servers, and the stopped Docker task is not resumed', async ({ page, demo }) => {
  await putSettings(page, { lsp_auto_start_languages: ['go', 'python'] });
  await openDemo(page);
  await openFile(page, 'main.go');
  await waitReady(page);

  // A second language in the same session: over the cap.
  await openFile(page, 'py/app.py');
  await expect(status(page)).toHaveAttribute('data-close-code', '4005');
  await expect(status(page)).toHaveText('Python · Too many language servers are active.');
  await status(page).click();
  await expect(popover(page)).toContainText('Stop another language server or close editors, then retry.');
  await expect(page.locator('#lsp-action')).toHaveText('Retry');
  await page.keyboard.press('Escape');
  expect(await metric(page, 'kandev_relay_stream_refusals_total{code="4005"}')).toBe(1);
  // Go keeps its slot and its server.
  await page.locator('.tab[data-id="demo:main.go"]').click();
  await expect(status(page)).toHaveAttribute('data-state', 'ready');

  if (process.env.KANDEV_REQUIRE_DOCKER === '1') {
    expect(demo.container, `the demo made no task container:\n${demo.logs.join('')}`).toBeTruthy();
  }
  if (!demo.container) return; // no Docker engine or task image: the Local PC half is what can run here
  const container = demo.container;
  expect(docker('container', 'inspect', '--format', '{{.State.Running}}', container)).toBe('false');
  await page.locator('#session').selectOption('docker');
  await openFile(page, 'main.go');
  await expect(status(page)).toHaveAttribute('data-close-code', '4005');
  expect(await metric(page, 'kandev_relay_stream_refusals_total{code="4005"}')).toBe(2);
  // Refused before the resume: the container is still stopped.
  expect(docker('container', 'inspect', '--format', '{{.State.Running}}', container)).toBe('false');
});
