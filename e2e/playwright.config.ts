import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium, never a browser build Playwright downloads. The flags
// keep Chromium off the network it cannot reach here.
//
// Three device profiles, all Chromium: desktop (fine pointer) runs every
// spec but the device-specific ones; *.tablet.spec.ts run on a tablet
// (coarse pointer, touch) and *.phone.spec.ts on a phone. The esm project
// runs the core specs — diagnostics, completion, hover, definition,
// TypeScript built-in suppression — again against the page's second entry,
// /esm/ (Monaco's ESM build bundled by Vite with the @kandev/lsp module),
// and the module's own spec.
const core = /[\\/](diagnostics|go|typescript|esm)\.spec\.ts$/;

export default defineConfig<{ entry: string }>({
  testDir: './tests',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  // Two workers, each taking whole spec files: each starts its own demos
  // (fixtures.ts), so the two never share a task host, a relay or a
  // settings store. One worker keeps about 1.7 of two cores busy
  // (Chromium's CPU, mostly); the second takes the rest, in the first's
  // waits. The load it adds makes the task host answer later, which is
  // how it found races of the page a slow host can cause.
  fullyParallel: false,
  workers: 2,
  forbidOnly: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      ],
    },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: actions, console, network and
    // sources, without the screencast and DOM snapshots, which took a
    // third of the suite's time in Chromium's CPU for every test.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] }, testIgnore: /(\.(tablet|phone)|esm)\.spec\.ts$/ },
    { name: 'esm', use: { ...devices['Desktop Chrome'], entry: '/esm/' }, testMatch: core },
    { name: 'tablet', use: { ...devices['Galaxy Tab S4'] }, testMatch: /\.tablet\.spec\.ts$/ },
    { name: 'phone', use: { ...devices['Pixel 5'] }, testMatch: /\.phone\.spec\.ts$/ },
  ],
});
