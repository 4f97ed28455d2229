import { defineConfig } from 'vite';
import path from 'node:path';

// A production build as monaco-languageclient's users ship it: minified,
// hashed chunks. It goes to bin/bench-mlc, which the demo serves under
// /wasm/ (the route for lsp.wasm and the files beside it: Brotli or gzip
// siblings written by kandev-compress, ETags), so the page has the demo's
// origin and its sign-in cookie reaches the relay's WebSocket.
export default defineConfig({
  base: '/wasm/bench-mlc/',
  build: {
    outDir: path.resolve(import.meta.dirname, '../../../bin/bench-mlc'),
    emptyOutDir: true,
    // The VS Code services are one large chunk whatever the limit.
    chunkSizeWarningLimit: 16000,
  },
  worker: { format: 'es' },
});
