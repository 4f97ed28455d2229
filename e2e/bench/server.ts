import fs from 'node:fs';

// serverGone waits until no gopls runs in the workspace: the previous
// page's stream has ended, so its teardown does not overlap the next load.
export async function serverGone(workspace: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const running = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'gopls' && fs.readlinkSync(`/proc/${p}/cwd`) === workspace;
      } catch {
        return false;
      }
    });
    if (!running) return;
    if (Date.now() > deadline) throw new Error('gopls of the previous load is still running');
    await new Promise((r) => setTimeout(r, 20));
  }
}
