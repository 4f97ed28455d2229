import { expect, type Page } from '@playwright/test';
import net from 'node:net';
import { markerMessages, openDemo } from './fixtures';

// Helpers of the specs that cut the path under an open editor
// (reconnect.spec.ts, resume.spec.ts): the sample's main.go with its one
// type error, and the fix a user types while the path is down.

/** The marker gopls puts on the sample's main.go. */
export const threeError = expect.stringContaining('cannot use "three" (untyped string constant) as int value');

/** openMainGo opens the sample's main.go and waits for Ready and its marker. */
export async function openMainGo(page: Page) {
  await openDemo(page);
  await page.getByRole('button', { name: 'main.go' }).click();
  await expect(page.locator('#lsp-status')).toHaveAttribute('data-state', 'ready');
  await expect.poll(() => markerMessages(page)).toContainEqual(threeError);
}

/** typeFix replaces "three" with 3 in the editor, as a user would type it. */
export async function typeFix(page: Page) {
  await page.evaluate(() => {
    const { editor } = (window as any).demo;
    const model = editor.getModel();
    const match = model.findMatches('"three"', false, false, true, null, false)[0];
    editor.setSelection(match.range);
    editor.focus();
  });
  await page.keyboard.type('3');
}

/** A TCP balancer on loopback in front of relay replicas. */
export type Balancer = { addr: string; close: () => Promise<void> };

/**
 * balance listens on a free loopback port and passes each connection to
 * the first of backends (host:port) that accepts it, as a TCP balancer
 * whose health check is the connect itself. A connection lives and dies
 * with its backend's: a replica killed cuts the browser's socket, as a
 * real balancer does.
 */
export async function balance(backends: string[]): Promise<Balancer> {
  const open = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    return s;
  };
  const server = net.createServer((client) => {
    track(client).pause();
    client.on('error', () => {});
    const tryFrom = (i: number) => {
      if (i >= backends.length || client.destroyed) {
        client.destroy();
        return;
      }
      const [host, port] = backends[i].split(':');
      const up = track(net.connect(Number(port), host));
      up.once('error', () => tryFrom(i + 1));
      up.once('connect', () => {
        up.removeAllListeners('error');
        up.on('error', () => client.destroy());
        up.on('close', () => client.destroy());
        client.on('close', () => up.destroy());
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
    };
    tryFrom(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    addr: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      for (const s of open) s.destroy();
      server.close(() => resolve());
    }),
  };
}
