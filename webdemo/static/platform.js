// @ts-check
// What the page runs on — its configuration (/config.json), the Monaco
// namespace and the lsp.wasm API — provided by the page's entry before it
// imports app.js. Two entries share the page: entry.js here loads Monaco's
// AMD build and lsp.wasm through wasm_exec.js; the ESM build's entry
// (webdemo/esm) bundles Monaco's ESM build with @kandev/lsp.

/**
 * /config.json (webdemo/server.go): the default session, lsp.wasm's
 * content-hashed URL and the sessions of the ?session= switch.
 * @typedef {{ sessionId: string, wasm: string, sessions?: { id: string, lsp: boolean, executor?: string }[] }} PageConfig
 */

/**
 * lsp.text: a catalog text of the current locale, {name} filled from args.
 * @typedef {(key: string, args?: Record<string, string | number>) => string} Texts
 */

/**
 * A file to open in a tab at a selection (app.js's navigateTo), as the
 * panels' rows and go to definition give it.
 * @typedef {{ sessionId: string, path: string, ancestors?: string[], selection?: import('monaco-editor').IRange, library?: boolean }} OpenTarget
 */

/** @type {PageConfig} */
export let config;
/** @type {import('@kandev/lsp').MonacoNamespace} */
export let monaco;
/** @type {import('@kandev/lsp').KandevLSP} */
export let lsp;

/**
 * @param {PageConfig} c
 * @param {import('@kandev/lsp').MonacoNamespace} m
 * @param {import('@kandev/lsp').KandevLSP} l
 */
export function provide(c, m, l) {
  config = c;
  monaco = m;
  lsp = l;
}
