import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

// The browser benchmark (task bench:browser): the same Chromium and flags
// as the e2e suite, one worker, no retries, and the time a long run needs.
export default defineConfig({
  testDir: '.',
  testMatch: /\.bench\.ts$/,
  timeout: 60 * 60_000,
  workers: 1,
  reporter: [['list']],
  outputDir: '../test-results/bench',
  use: {
    ...base.use,
    viewport: { width: 1280, height: 800 },
    // KANDEV_BENCH_CHROMIUM_ARGS adds flags, to test where time goes
    // (e.g. --js-flags=--no-wasm-tier-up).
    launchOptions: {
      ...base.use?.launchOptions,
      args: [...(base.use?.launchOptions?.args ?? []), ...(process.env.KANDEV_BENCH_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)],
    },
  },
});
