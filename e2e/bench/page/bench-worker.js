// @ts-check
// The benchmark's ?baseline=worker variant: lsp.wasm fetched, compiled and
// started in a dedicated Worker, as the page would load it, then left
// unused (no Monaco here, no connection). It posts the time (ms since the
// epoch: a Worker's performance.now() has its own origin) once lsp.wasm's
// API exists.
importScripts('/wasm/wasm_exec.js');
(async () => {
  const config = await (await fetch('/config.json')).json();
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch(config.wasm), go.importObject);
  go.run(instance);
  if (typeof globalThis.kandevLSP !== 'object') throw new Error('lsp.wasm defined no kandevLSP in the Worker');
  postMessage(performance.timeOrigin + performance.now());
})();
