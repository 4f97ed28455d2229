// What the page runs on — its configuration (/config.json), the Monaco
// namespace and the lsp.wasm API — provided by the page's entry before it
// imports app.js. Two entries share the page: entry.js here loads Monaco's
// AMD build and lsp.wasm through wasm_exec.js; the ESM build's entry
// (webdemo/esm) bundles Monaco's ESM build with @kandev/lsp.
export let config;
export let monaco;
export let lsp;

export function provide(c, m, l) {
  config = c;
  monaco = m;
  lsp = l;
}
