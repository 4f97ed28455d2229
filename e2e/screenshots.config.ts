import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The README's screenshots of the status surfaces, taken from the running
// demo: `task screenshots` writes them to webdemo/screenshots/.
export default defineConfig({
  ...base,
  testDir: './screenshots',
  testMatch: /\.shots\.ts$/,
  projects: undefined,
  reporter: 'list',
});
