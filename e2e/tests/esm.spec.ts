import { test, expect, openDemo } from './fixtures';

// The @kandev/lsp ES module in a real browser: bundled by Vite into the
// page's ESM entry, and imported without a bundler from /kandev-lsp/.

/** What lsp.wasm and wasm_exec.js would add to globalThis if they could. */
const leaks = ['Go', 'fs', 'process', 'path', 'kandevLSP'];

test('the ESM entry runs Monaco without an AMD loader and adds nothing to globalThis', async ({ page }) => {
  await openDemo(page);
  expect(page.url()).toMatch(/\/esm\/$/);
  const seen = await page.evaluate((names) => ({
    leaked: names.filter((n) => n in globalThis),
    amd: typeof (globalThis as any).require,
    monaco: typeof (globalThis as any).monaco,
    api: typeof (window as any).demo.lsp.configure,
  }), leaks);
  expect(seen).toEqual({ leaked: [], amd: 'undefined', monaco: 'undefined', api: 'function' });

  // lsp.wasm came from Vite's content-hashed copy, compressed on the wire.
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('.wasm'))
    .map((e) => {
      const r = e as PerformanceResourceTiming;
      return { name: new URL(r.name).pathname, encoded: r.encodedBodySize, decoded: r.decodedBodySize };
    }));
  expect(wasm).toHaveLength(1);
  expect(wasm[0].name).toMatch(/^\/esm\/assets\/lsp-[\w-]+\.wasm$/);
  expect(wasm[0].encoded).toBeLessThan(wasm[0].decoded / 3);
});

test.describe(() => {
  test.use({
    expectedPageErrors: [{
      pattern: /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/kandev-lsp\/dist\/missing\.wasm:0\)$/,
      why: 'the test loads a missing lsp.wasm on purpose, to see the error name its step',
    }],
  });

  test('loadKandevLSP without a bundler: its errors name the step, and a second lsp.wasm stays out of globalThis', async ({ page }) => {
    await openDemo(page);
    const out = await page.evaluate(async (names) => {
      const mod = await import('/kandev-lsp/index.js' as string);
      const failure = async (options: object) => {
        try {
          await mod.loadKandevLSP(options);
          return null;
        } catch (err: any) {
          return { name: err.name, stage: err.stage, url: err.url, message: err.message, isError: err instanceof mod.KandevLSPLoadError };
        }
      };
      const missing = await failure({ url: '/kandev-lsp/dist/missing.wasm' });
      const notWasm = await failure({ url: '/config.json' });
      const offline = await failure({ url: '/kandev-lsp/dist/lsp.wasm', fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
      // After failures a load may be tried again; the default URL is the
      // lsp.wasm beside the module.
      const api = await mod.loadKandevLSP();
      const again = await mod.loadKandevLSP({ url: '/elsewhere.wasm' });
      return {
        missing, notWasm, offline,
        same: api === again,
        separate: api !== (window as any).demo.lsp,
        version: typeof api.version,
        leaked: names.filter((n: string) => n in globalThis),
      };
    }, leaks);
    expect(out.missing).toEqual({
      name: 'KandevLSPLoadError', stage: 'fetch', url: '/kandev-lsp/dist/missing.wasm', isError: true,
      message: 'lsp.wasm (/kandev-lsp/dist/missing.wasm): the server answered 404 Not Found',
    });
    expect(out.notWasm).toMatchObject({ stage: 'compile', url: '/config.json' });
    expect(out.notWasm!.message).toContain('is not a WebAssembly module this runtime can run');
    expect(out.offline).toMatchObject({ stage: 'fetch', message: 'lsp.wasm (/kandev-lsp/dist/lsp.wasm): could not be fetched: Failed to fetch' });
    expect(out).toMatchObject({ same: true, separate: true, version: 'string', leaked: [] });
  });
});
