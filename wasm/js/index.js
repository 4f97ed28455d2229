// @kandev/lsp: lsp.wasm as an ES module. loadKandevLSP() fetches,
// compiles and starts the browser client and resolves with its API (see
// index.d.ts and wasm/API.md).
//
// Go's wasm_exec.js, which every Go WebAssembly program needs, normally
// defines globalThis.Go and, in a browser, globalThis.fs, process and path
// (stand-ins for Node's), and lsp.wasm then defines globalThis.kandevLSP.
// Here wasm_exec.js runs against a scope of its own instead (the build
// wraps it into dist/wasm_exec.js, see Taskfile.yml): reads fall through to
// the real globalThis — WebSocket, localStorage, JSON, console, crypto —
// while its writes, and lsp.wasm's, stay in that scope. The page's
// globalThis gains nothing.

import { goClass } from './dist/wasm_exec.js';

/** The error loadKandevLSP rejects with; `stage` says which step failed. */
export class KandevLSPLoadError extends Error {
  constructor(stage, url, message, cause) {
    super(`lsp.wasm (${url}): ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'KandevLSPLoadError';
    this.stage = stage;
    this.url = url;
  }
}

let loading = null;

/**
 * Fetches lsp.wasm (by default the one beside this module, which bundlers
 * copy and hash), compiles it while it downloads, starts it and resolves
 * with the API object. lsp.wasm runs once per page: later calls resolve
 * with the same object, and a failed load may be tried again.
 */
export function loadKandevLSP(options = {}) {
  if (!loading) {
    loading = load(options);
    loading.catch(() => { loading = null; });
  }
  return loading;
}

async function load({ url = new URL('./dist/lsp.wasm', import.meta.url), fetch: fetchFn = globalThis.fetch, init } = {}) {
  const where = String(url);
  const scope = isolatedScope();
  let Go;
  try {
    Go = goClass(scope);
  } catch (err) {
    // wasm_exec.js refuses a runtime without crypto, performance or TextEncoder.
    throw new KandevLSPLoadError('runtime', where, err.message, err);
  }
  const go = new Go();

  let response;
  try {
    response = await fetchFn(url, init);
  } catch (err) {
    throw new KandevLSPLoadError('fetch', where, `could not be fetched: ${err.message}`, err);
  }
  if (!response.ok) {
    throw new KandevLSPLoadError('fetch', where, `the server answered ${response.status} ${response.statusText}`.trim());
  }

  let instance;
  try {
    if ((response.headers.get('Content-Type') || '').split(';')[0].trim() === 'application/wasm') {
      // Compiles while the bytes arrive.
      ({ instance } = await WebAssembly.instantiateStreaming(response, go.importObject));
    } else {
      // instantiateStreaming refuses any other Content-Type; a server
      // that sends one still works, compiled after the download.
      ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject));
    }
  } catch (err) {
    throw new KandevLSPLoadError('compile', where, `is not a WebAssembly module this runtime can run: ${err.message}`, err);
  }

  let exit = null;
  // main defines the API synchronously, then blocks for the page's
  // lifetime: run only settles if lsp.wasm exits or fails.
  go.run(instance).then(() => { exit = 'exited'; }, (err) => { exit = err.message; });
  const api = scope.kandevLSP;
  if (!api || typeof api.configure !== 'function') {
    // lsp.wasm says why it could not start (e.g. the page's Content
    // Security Policy refused what it needs) before it exits.
    const why = scope.kandevLSPStartError;
    throw new KandevLSPLoadError('start', where, typeof why === 'string' ? why : `started but defined no API${exit ? ` (${exit})` : ''}`);
  }
  return api;
}

// isolatedScope is the globalThis wasm_exec.js and lsp.wasm see: the
// page's global for reading, an object of its own for writing.
function isolatedScope() {
  const own = Object.create(null);
  const real = globalThis;
  return new Proxy(real, {
    get: (target, key) => (key in own ? own[key] : Reflect.get(target, key)),
    set: (_target, key, value) => { own[key] = value; return true; },
    has: (target, key) => key in own || key in target,
    deleteProperty: (_target, key) => delete own[key],
  });
}
