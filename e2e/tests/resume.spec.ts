import { demoTest, type Demo, expect, openDemo, openFile, putSettings, markerMessages, view, goplsUnder, serversUnder, restartDemo, restartAgent, startReplica, stopDemo } from './fixtures';
import { hoverUntil, waitReady } from './editor';
import { balance, openMainGo, threeError, typeFix } from './outage';

/** replayed reads the agent's last resume from its log: frames it sent again, and browser frames it had. */
function replayed(demo: Demo): string {
  const all = [...demo.agentLogs!.join('').matchAll(/msg=resumed .*?replayed=(\d+) received=(\d+)/g)];
  const last = all[all.length - 1];
  return last ? `the agent sent ${last[1]} frames again and had ${last[2]} of the browser's` : 'no resume in the agent\'s log';
}

// The task host runs apart from the relay, as in production: killing the
// demo (which serves the page and the relay) leaves the agent and its gopls
// running.
const test = demoTest({ npmServers: true, externalAgent: true });
test.use({
  expectedPageErrors: [{
    pattern: /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/lsp\/demo\?[^']*' failed: /,
    why: 'the relay is down on purpose: Chromium logs each attempt to reach it meanwhile',
  }],
});

// The relay is killed (SIGKILL: no drain, no close frame) and comes back on
// its port. lsp.wasm shows reconnecting, keeps the marker, takes the fix
// typed during the outage, and once the relay is back resumes by itself —
// no click — on the same gopls process, which the agent held: nothing is
// started or indexed again, and the fix reached it (no marker). Then the
// same through a deploy's SIGTERM.
test('the relay killed, then stopped as a deploy stops it: each time the editor resumes the same gopls by itself, with the text typed meanwhile', async ({ page, demo }) => {
  test.setTimeout(120_000);
  await openMainGo(page);
  const status = page.locator('#lsp-status');
  const error = threeError;
  const agentPid = demo.agent!.pid!;
  const servers = goplsUnder(agentPid);
  expect(servers.length, 'gopls runs under the task host\'s agent').toBeGreaterThan(0);

  let back = 0;
  await restartDemo(demo, async () => {
    await expect(status).toHaveAttribute('data-state', 'reconnecting', { timeout: 15_000 });
    expect((await view(page, 'go')).reconnect.attempt).toBeGreaterThanOrEqual(1);
    expect(await markerMessages(page), 'the marker stays while reconnecting').toContainEqual(error);
    await typeFix(page);
    back = Date.now();
  });

  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  console.log(`relay killed and restarted: Ready ${Date.now() - back} ms after the relay was started again; ${replayed(demo)}`);
  expect(goplsUnder(agentPid), 'the same gopls, held through the outage').toEqual(servers);
  await expect.poll(() => markerMessages(page)).toEqual([]);
  expect((await view(page, 'go')).reconnect).toBeNull();

  // Then a deploy: SIGTERM drains the relay — the page is told 1012, the
  // relay is restarting — and the new one is up right after. A new error
  // typed during it reaches gopls.
  await restartDemo(demo, async () => {
    await expect(status).toHaveAttribute('data-state', 'reconnecting', { timeout: 15_000 });
    await page.evaluate(() => {
      const { editor } = (window as any).demo;
      const match = editor.getModel().findMatches('count int = 3', false, false, true, null, false)[0];
      editor.setSelection({ ...match.range, startColumn: match.range.endColumn - 1 }); // the 3
      editor.focus();
    });
    await page.keyboard.type('7.5');
    back = Date.now();
  }, 'SIGTERM');
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  console.log(`relay stopped with SIGTERM and started again: Ready ${Date.now() - back} ms after the relay was started again; ${replayed(demo)}`);
  expect(goplsUnder(agentPid), 'the same gopls through the deploy').toEqual(servers);
  await expect.poll(() => markerMessages(page)).toEqual([expect.stringContaining('cannot use 7.5 (untyped float constant')]);
});

// A burst of changes cut mid-way: "three" is retyped letter by letter, one
// didChange frame a key (gopls syncs incrementally), and the relay is
// killed while the burst goes on, so frames are cut in flight and the rest
// typed while it is down. Once it is back the same gopls must hold exactly
// the editor's text — a frame lost or applied twice would show in the
// marker's message, which quotes the constant — and the agent's log says
// how many frames it sent again and how many of the browser's it had.
test('a burst of changes cut mid-way by a relay kill reaches the same gopls whole, each change once', async ({ page, demo }) => {
  test.setTimeout(120_000);
  await openMainGo(page);
  const status = page.locator('#lsp-status');
  const servers = goplsUnder(demo.agent!.pid!);
  const word = 'abcdefghijklmnopqrstuvwxyz';
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const match = editor.getModel().findMatches('three', false, false, true, null, false)[0];
    editor.setSelection(match.range);
    editor.focus();
  });
  const typing = page.keyboard.type(word, { delay: 40 });
  const typed = () => page.evaluate(() => (window as any).demo.editor.getModel().getValue() as string);
  await expect.poll(typed, { intervals: [10] }).toContain('"abcdefgh');
  let back = 0;
  await restartDemo(demo, async () => {
    await typing;
    expect(await typed(), 'the editor has every key').toContain(`"${word}"`);
    back = Date.now();
  });
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  console.log(`burst cut by a relay kill: Ready ${Date.now() - back} ms after the relay was started again`);
  expect(goplsUnder(demo.agent!.pid!), 'the same gopls').toEqual(servers);
  await expect.poll(() => markerMessages(page), { timeout: 15_000 })
    .toEqual([expect.stringContaining(`cannot use "${word}" (untyped string constant) as int value`)]);
  expect(demo.agentLogs!.join(''), 'the agent resumed the held gopls').toMatch(/msg=resumed /);
  console.log(`burst cut by a relay kill: ${replayed(demo)}`);
});

// Two relays before one task host, behind a balancer, as replicas run:
// the one carrying the page's stream is killed — right after a fix was
// typed, so its change may be cut in flight — while the other is up all
// along. The page goes reconnecting, never to an error, and the balancer
// takes its next attempt to the live relay, where it resumes the same
// gopls, which then has the fix: no marker.
test('two relays behind a balancer, the one in use killed: the editor resumes through the other, on the same gopls', async ({ page, demo }) => {
  test.setTimeout(120_000);
  const other = await startReplica(demo);
  const lb = await balance([new URL(demo.url).host, new URL(other.url).host]);
  try {
    await page.goto(`http://${lb.addr}/`);
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    await page.getByRole('button', { name: 'main.go' }).click();
    const status = page.locator('#lsp-status');
    await expect(status).toHaveAttribute('data-state', 'ready');
    await expect.poll(() => markerMessages(page)).toContainEqual(threeError);
    const agentPid = demo.agent!.pid!;
    const servers = goplsUnder(agentPid);
    expect(servers.length).toBeGreaterThan(0);
    await page.evaluate(() => {
      const w = window as any;
      w.seenStates = [];
      new MutationObserver(() => w.seenStates.push(document.getElementById('lsp-status')!.dataset.state))
        .observe(document.getElementById('lsp-status')!, { attributes: true, attributeFilter: ['data-state'] });
    });

    await typeFix(page);
    let killed = 0;
    await restartDemo(demo, async () => {
      killed = Date.now();
      await expect.poll(() => page.evaluate(() => (window as any).seenStates as string[])).toContain('reconnecting');
      await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
      console.log(`replica in use killed, the other up: Ready ${Date.now() - killed} ms after the kill; ${replayed(demo)}`);
    });
    const seen: string[] = await page.evaluate(() => (window as any).seenStates);
    expect(seen.filter((s) => s !== 'reconnecting' && s !== 'ready'), `no error on the way (${seen.join(' → ')})`).toEqual([]);
    expect(other.logs.join(''), 'the stream now runs through the other relay').toContain('lsp stream: open');
    expect(goplsUnder(agentPid), 'the same gopls, resumed through the other relay').toEqual(servers);
    await expect.poll(() => markerMessages(page)).toEqual([]);
  } finally {
    await page.close();
    await lb.close();
    await stopDemo(other);
  }
});

// The same with the TypeScript server: the relay killed while a .ts file
// is open comes back on the same typescript-language-server, which answers
// a hover with what it had loaded before.
test('the relay killed and started again: a TypeScript file resumes on the same typescript-language-server', async ({ page, demo }) => {
  test.setTimeout(120_000);
  await putSettings(page, { lsp_auto_start_languages: ['go', 'typescript', 'python'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'ts/main.ts');
  await waitReady(page);
  await hoverUntil(page, 'greeter =', 'const greeter: Greeter');
  await page.keyboard.press('Escape');
  const tsServer = (comm: string, cmd: string) => comm.startsWith('node') && cmd.includes('typescript-language-server');
  const servers = serversUnder(demo.agent!.pid!, tsServer);
  expect(servers.length, 'typescript-language-server runs under the task host\'s agent').toBeGreaterThan(0);
  const status = page.locator('#lsp-status');

  let back = 0;
  await restartDemo(demo, async () => {
    await expect(status).toHaveAttribute('data-state', 'reconnecting', { timeout: 15_000 });
    back = Date.now();
  });
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  console.log(`relay killed and restarted (TypeScript): Ready ${Date.now() - back} ms after the relay was started again; ${replayed(demo)}`);
  expect(serversUnder(demo.agent!.pid!, tsServer), 'the same typescript-language-server').toEqual(servers);
  await hoverUntil(page, 'greeter =', 'const greeter: Greeter');
});

// The task host's agent killed and started again: its servers went with
// it, so nothing can be resumed. lsp.wasm reads the lost agent as a lost
// path (not a server crash), finds the held server gone (4009) and connects
// afresh by itself: a new gopls, the document opened again with the text
// typed during the outage, markers that match it.
test('the agent killed and started again: the editor connects afresh by itself, with the text typed meanwhile', async ({ page, demo }) => {
  test.setTimeout(120_000);
  await openMainGo(page);
  const status = page.locator('#lsp-status');
  const error = threeError;
  const before = goplsUnder(demo.agent!.pid!);
  expect(before.length).toBeGreaterThan(0);

  let back = 0;
  await restartAgent(demo, async () => {
    await expect(status).toHaveAttribute('data-state', 'reconnecting', { timeout: 15_000 });
    expect(await markerMessages(page), 'the marker stays while reconnecting').toContainEqual(error);
    await typeFix(page);
    back = Date.now();
  });
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  console.log(`agent killed and restarted: Ready ${Date.now() - back} ms after the agent was started again`);
  const after = goplsUnder(demo.agent!.pid!);
  expect(after.length, 'a new gopls under the new agent').toBeGreaterThan(0);
  expect(after.filter((p) => before.includes(p))).toEqual([]);
  await expect.poll(() => markerMessages(page)).toEqual([]);
});
