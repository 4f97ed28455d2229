// @ts-check
// The page's classic entry: Monaco's AMD build (min/, its loader) and
// lsp.wasm started with Go's wasm_exec.js, which defines globalThis.Go;
// lsp.wasm's main then defines globalThis.kandevLSP before go.run returns.
// lsp.wasm is fetched, compiled and started while Monaco loads: its API
// exists before configure, which is the step that takes monaco. The ESM
// entry (/esm/, webdemo/esm) serves the same page from a bundle.
import { provide } from './platform.js';

const config = await (await fetch('/config.json')).json();
// config.wasm is lsp.wasm's content-hashed name: cached for good, and a
// rebuild gets a new name. It compiles while it downloads.
const compiled = WebAssembly.compileStreaming(fetch(config.wasm));

function script(/** @type {string} */ src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(s);
  });
}
const css = document.createElement('link');
css.rel = 'stylesheet';
css.dataset.name = 'vs/editor/editor.main'; // so the loader does not add it again
css.href = '/monaco/vs/editor/editor.main.css';
document.head.append(css);
const lsp = Promise.all([compiled, script('/wasm/wasm_exec.js')]).then(async ([module]) => {
  const go = new Go();
  go.run(await WebAssembly.instantiate(module, go.importObject)); // defines globalThis.kandevLSP before it returns
  return /** @type {import('@kandev/lsp').KandevLSP} */ (globalThis.kandevLSP); // main defined it
});
await script('/monaco/vs/loader.js');

const monaco = await new Promise((resolve, reject) => {
  window.require.config({ paths: { vs: '/monaco/vs' } });
  window.require(['vs/editor/editor.main'], () => resolve(window.monaco), reject);
});

provide(config, monaco, await lsp);
await import('./app.js');
