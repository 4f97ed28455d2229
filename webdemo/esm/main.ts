// The page's ESM entry, bundled by Vite: Monaco's ESM build (no AMD
// loader; its workers are bundled as modules) and lsp.wasm through the
// @kandev/lsp ES module, which adds nothing to globalThis. The page itself
// (../static) is the classic entry's; only how Monaco and lsp.wasm arrive
// differs. lsp.wasm is fetched, compiled and started while Monaco loads:
// loadKandevLSP resolves with the API before configure, which takes monaco.
import { loadKandevLSP } from '@kandev/lsp';
import { provide } from '../static/platform.js';

// lsp.wasm from the package's default URL: the file Vite copied beside
// the bundle with a content-hashed name.
const lsp = loadKandevLSP();
const config = fetch('/config.json').then((r) => r.json());
const monaco = await import('monaco-editor');
provide(await config, monaco, await lsp);
await import('../static/app.js');
