import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The screenshots of the status surfaces in docs/setup.md, taken from the running
// demo: `task screenshots` writes them to webdemo/screenshots/.
export default defineConfig({
  ...base,
  testDir: './screenshots',
  testMatch: /\.shots\.ts$/,
  projects: undefined,
  reporter: 'list',
});
