// @ts-check
// What the demo's open files are, apart from the page that shows them: a
// tab's shape and identity, the model URI of its file, the task host's
// file routes, and the two questions every view asks of a tab (its name,
// whether it is dirty).

import { monaco } from './platform.js';

// Open files: one tab per (session, path). A tab shows one view: 'loading'
// while its content is fetched, then 'monaco' (a text model, with a
// language-server document when lsp.wasm allows one), 'phone' (text in the
// phone viewer), 'binary', or 'failed'.
/**
 * An open file (see above); text and size are the phone and binary views',
 * diff and diffOriginal the diff view's. library: a read-only file outside
 * the workspace; content: a read-only document a language server provides.
 * @typedef {{ id: string, sessionId: string, path: string, view: 'loading' | 'monaco' | 'phone' | 'binary' | 'failed',
 *   model: import('monaco-editor').editor.ITextModel | null, doc: import('@kandev/lsp').DocumentHandle | null,
 *   language: string | null, text?: string, size?: number, savedVersion?: number, savedAlt?: number, savedText?: string,
 *   state: string, loaded?: Promise<void>, diff?: boolean, diffOriginal?: import('monaco-editor').editor.ITextModel,
 *   viewState?: import('monaco-editor').editor.ICodeEditorViewState | null, library?: boolean, content?: boolean }} Tab
 */
/**
 * A Monaco tab (view 'monaco') always has a model: the casts to ITextModel rest on it.
 * @typedef {import('monaco-editor').editor.ITextModel} ITextModel
 */

export const tabId = (/** @type {string} */ session, /** @type {string} */ path) => `${session}:${path}`;
export const fileURL = (/** @type {string} */ path) => `/api/v1/workspace/file?path=${encodeURIComponent(path)}`;
export const libraryURL = (/** @type {string} */ path) => `/api/v1/library/file?path=${encodeURIComponent(path)}`;
// The task host's entry and move routes, for the tree's operations and a
// server's workspace-edit file operations.
export const entryURL = (/** @type {string} */ path) => `/api/v1/workspace/entry?path=${encodeURIComponent(path)}`;
export const moveURL = (/** @type {string} */ from, /** @type {string} */ to) => `/api/v1/workspace/move?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

export function modelURI(/** @type {string} */ session, /** @type {string} */ path, library = false, content = false) {
  // Session-scoped model identity: two sessions may hold the same path. A
  // library file's path is absolute, under a scheme of its own; a server
  // document's path is its server's URI.
  if (content) return monaco.Uri.from({ scheme: 'kandev-doc', authority: session, path: '/' + path });
  return library ? monaco.Uri.from({ scheme: 'kandev-lib', authority: session, path })
    : monaco.Uri.from({ scheme: 'kandev', authority: session, path: '/' + path });
}

// tabName is what a tab shows: the workspace path, or a library file's
// name with the folder it is in (its whole path is the tab's title).
export const tabName = (/** @type {Tab} */ t) => (t.library ? t.path.split('/').slice(-2).join('/') : t.path);

// A tab is dirty when its model is not at the saved text. Monaco's
// alternative version id comes back to the saved one when the user undoes
// to it (the version id only grows); a tab adopted from a workspace edit
// has no saved alternative id and compares versions. A read-only tab never
// is.
export const isDirty = (/** @type {Tab} */ t) => t.view === 'monaco' && !t.library && (t.state === 'failed' || (t.savedAlt !== undefined
  ? /** @type {ITextModel} */ (t.model).getAlternativeVersionId() !== t.savedAlt
  : /** @type {ITextModel} */ (t.model).getVersionId() !== t.savedVersion));

// decode returns the text of a file, or null for a binary one (a NUL byte,
// or bytes that are not UTF-8).
export function decode(/** @type {Uint8Array} */ bytes) {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
