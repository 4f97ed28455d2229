// The page's ESM entry, bundled by Vite: Monaco's ESM build (no AMD
// loader; its workers are bundled as modules) and lsp.wasm through the
// @kandev/lsp ES module, which adds nothing to globalThis. The page itself
// (../static) is the classic entry's; only how Monaco and lsp.wasm arrive
// differs.
import * as monaco from 'monaco-editor';
import { loadKandevLSP } from '@kandev/lsp';
import { provide } from '../static/platform.js';

const config = await (await fetch('/config.json')).json();
// lsp.wasm from the package's default URL: the file Vite copied beside
// the bundle with a content-hashed name.
const lsp = await loadKandevLSP();
provide(config, monaco, lsp);
await import('../static/app.js');
