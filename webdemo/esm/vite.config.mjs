// Builds the page's ESM entry into bin/esm (served at /esm/): entry.js and
// entry.css with fixed names, for the page's relative links, and every
// other file content-hashed under assets/ (lsp.wasm, Monaco's workers,
// its fonts and lazily loaded languages), which the demo server caches
// for good.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/esm/',
  logLevel: 'error',
  build: {
    outDir: here('../../bin/esm'),
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    chunkSizeWarningLimit: 10_000,
    rollupOptions: {
      input: here('main.ts'),
      output: {
        entryFileNames: 'entry.js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: (asset) => ((asset.names ?? []).some((n) => n.endsWith('.css')) ? 'entry.css' : 'assets/[name]-[hash][extname]'),
      },
    },
  },
  worker: { format: 'es' },
});
