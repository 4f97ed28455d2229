import { test, expect, markerMessages, view, goplsUnder } from './fixtures';
import { openMainGo, threeError, typeFix } from './outage';

// The relay freezes (SIGSTOP of the demo server, which serves the relay):
// its sockets stay open while nothing moves, so only lsp.wasm's heartbeat,
// unanswered, can tell. The status turns reconnecting by itself, the
// marker stays, and a fix typed meanwhile reaches the server once the relay
// thaws: Ready again without any click, on the same gopls process (the
// agent held it and the stream resumed), and no marker.
test('a frozen relay is noticed by the heartbeat, and the editor resumes the same server by itself with the text typed meanwhile', async ({ page, demo }) => {
  test.setTimeout(180_000);
  await openMainGo(page);
  const status = page.locator('#lsp-status');
  const error = threeError;

  const pid = demo.proc.pid!;
  const servers = goplsUnder(pid);
  // gopls and, where Go telemetry runs, its crash monitor (a second gopls).
  expect(servers.length, 'gopls serves the page').toBeGreaterThan(0);
  process.kill(pid, 'SIGSTOP');
  try {
    // Within 30 s of the freeze: a heartbeat sent every 10 s, unanswered
    // for 20 s.
    await expect(status).toHaveAttribute('data-state', 'reconnecting', { timeout: 45_000 });
    const v = await view(page, 'go');
    expect(v.reconnect.attempt).toBeGreaterThanOrEqual(1);
    expect(v.action).toBe('stop');
    expect(await markerMessages(page), 'the marker stays while reconnecting').toContainEqual(error);

    // The user fixes the error while the relay is frozen.
    await typeFix(page);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  const thawed = Date.now();

  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  console.log(`frozen relay: Ready ${Date.now() - thawed} ms after SIGCONT`);
  expect(goplsUnder(pid), 'the same gopls, held through the outage').toEqual(servers);
  // The server has the editor's text: the fix typed during the outage.
  await expect.poll(() => markerMessages(page)).toEqual([]);
  expect((await view(page, 'go')).reconnect).toBeNull();
});
