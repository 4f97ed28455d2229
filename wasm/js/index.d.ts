// Types of @kandev/lsp: lsp.wasm's JavaScript API (wasm/API.md has the
// behaviour behind every member). A test in wasm/jsbind compares these
// interfaces with what lsp.wasm really exports and reads, so a function or
// option added on the Go side fails that test until it is declared here:
// add the member to the interface below that the test names.

import type * as Monaco from 'monaco-editor';

/** The languages lsp.wasm serves. */
export type Language = 'go' | 'typescript' | 'python' | 'rust' | 'kotlin';

/** The Monaco namespace: the ESM build's `import * as monaco from 'monaco-editor'`, or the AMD build's `window.monaco`. */
export type MonacoNamespace = typeof Monaco;

/** Options of loadKandevLSP. */
export interface LoadOptions {
  /** Where lsp.wasm is; default: the file beside this module, which bundlers copy with a hashed name. */
  url?: string | URL;
  /** The fetch to use (default globalThis.fetch), e.g. one that adds credentials. */
  fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>;
  /** Passed to fetch: credentials, headers, integrity. */
  init?: RequestInit;
}

/**
 * Fetches lsp.wasm, compiles it while it downloads, starts it and resolves
 * with its API. Nothing is added to globalThis. lsp.wasm runs once per
 * page: later calls resolve with the same object. Rejects with a
 * KandevLSPLoadError that names the step that failed.
 */
export function loadKandevLSP(options?: LoadOptions): Promise<KandevLSP>;

/** Why loadKandevLSP failed. */
export class KandevLSPLoadError extends Error {
  constructor(stage: KandevLSPLoadError['stage'], url: string, message: string, cause?: unknown);
  readonly name: 'KandevLSPLoadError';
  /** runtime: no crypto/performance/TextEncoder; fetch: network error or HTTP status; compile: not a usable module; start: it ran but defined no API (the message says why when lsp.wasm could tell, e.g. a Content Security Policy without 'unsafe-eval'). */
  readonly stage: 'runtime' | 'fetch' | 'compile' | 'start';
  /** The URL that was loaded. */
  readonly url: string;
}

/** The user's settings, as GET /api/v1/user/settings answers them; only the lsp_* fields are read. */
export interface Settings {
  lsp_auto_start_languages?: Language[];
  lsp_auto_install_languages?: Language[];
  /** Per server id (or language, for its first server), the object workspace/configuration is answered from. */
  lsp_server_configs?: Record<string, unknown>;
  /** Per language, the catalog ids of its servers in order; absent, its default server. */
  lsp_language_servers?: Partial<Record<Language, string[]>>;
  /** Per language, the server that formats its files; absent, the first capable one. */
  lsp_formatters?: Partial<Record<Language, string>>;
  /** Per server id, the features it is used for (within its catalog entry's list). */
  lsp_server_features?: Record<string, string[]>;
  lsp_status_location?: 'toolbar' | 'status_bar';
  [field: string]: unknown;
}

/** One of the page's open tabs of the active session. */
export interface OpenTab {
  id: string;
  /** Relative to the task root, or to repository `repo` when given. */
  path: string;
  repo?: string;
}

/** A go-to-definition or references target lsp.wasm resolved for the page's openFile. */
export interface NavigationTarget {
  handled: true;
  sessionId: string;
  /** Workspace-relative, slash-separated; absolute for a library file. */
  path: string;
  /** A file outside the workspace (the Go toolchain, a dependency, the server's own libraries): open it read-only, its text from readLibraryFile. Only with readLibraryFile. */
  library?: true;
  /** A document a language server provides itself (LSP 3.18): path is the server's URI; open it read-only, its text from documentContent(model). */
  content?: true;
  /** The session-scoped model URI (kandev://<session>/<path>, kandev-lib://<session><absolute path> for a library file, kandev-doc://<session>/<server URI> for a server document). */
  model: string;
  /** Files-tree folders to load and expand, outermost first. */
  ancestors?: string[];
  /** When the file is inside one of the task host's repositories. */
  repo?: string;
  repoPath?: string;
  /** An open tab (from openTabs) showing the file. */
  tabId?: string;
  selection?: Monaco.IRange;
  /** The editor that started the navigation; absent for a server's window/showDocument. */
  editor?: Monaco.editor.ICodeEditor;
  /** window/showDocument: the server asked for the editor's focus. */
  takeFocus?: boolean;
}

/** Options of configure. */
export interface ConfigureOptions {
  /**
   * The namespace, or a promise of it: connections (see prepare) run while
   * it loads, and what needs Monaco waits for it. Until it resolves
   * openDocument returns null; if it rejects, the configuration's
   * connections close.
   */
  monaco: MonacoNamespace | PromiseLike<MonacoNamespace>;
  /** The browser-facing stream route, e.g. 'wss://' + location.host + '/lsp'. */
  relayURL: string;
  /** BCP 47: en, de (de-*), or the pseudo locale en-XA; anything else is English. */
  locale?: string;
  /** The settings object or its JSON text; without it nothing auto-starts. */
  settings?: Settings | string | null;
  /** Opens a navigation target; returns whether it did (or a Promise of it). */
  openFile?: (target: NavigationTarget) => boolean | Promise<boolean>;
  /** The page's open tabs of the active session. */
  openTabs?: () => OpenTab[];
  /** Opens a URI outside the editor when a server asks (window/showDocument, e.g. a web page); returns whether it did. Without it nothing external is opened. */
  openExternal?: (uri: string, options: { takeFocus: boolean }) => boolean | Promise<boolean>;
  /** A task file's text for peek previews of files without a model, or null. */
  readFile?: (sessionId: string, path: string) => string | null | Promise<string | null>;
  /** The workspace's files, workspace-relative and slash-separated. The Markdown server resolves and checks links through it; without it it sees no other file. */
  listFiles?: (sessionId: string) => string[] | null | Promise<string[] | null>;
  /** A library file's text (an absolute task-host path outside the workspace; the task host decides what it serves), or null. With it, definitions and references outside the workspace reach openFile as library targets; without it they stay unhandled. */
  readLibraryFile?: (sessionId: string, path: string) => string | null | Promise<string | null>;
  /** Called once per file after a workspace edit (rename, code action, applyEdit, format on save) changed a model. */
  onEdit?: (file: EditedFile) => void;
  /** File operations of workspace edits; each given one is advertised in resourceOperations. false or a throw fails the edit. */
  createFile?: (sessionId: string, path: string, options: FileOperationOptions) => boolean | void | Promise<boolean | void>;
  renameFile?: (sessionId: string, oldPath: string, newPath: string, options: FileOperationOptions) => boolean | void | Promise<boolean | void>;
  deleteFile?: (sessionId: string, path: string, options: FileOperationOptions) => boolean | void | Promise<boolean | void>;
  /** willSave(model) formats the model with its server before the page writes it. */
  formatOnSave?: boolean;
}

/** A file a workspace edit changed (onEdit). */
export interface EditedFile {
  sessionId: string;
  path: string;
  model: Monaco.editor.ITextModel;
  /** lsp.wasm made the model from readFile: it is the page's to save. */
  created: boolean;
  /** The model's version id before the edit (for a created model: the version whose text is the file on disk). */
  versionBefore: number;
  /** For a created model: the file's text it was made from, at versionBefore (openDocument's persistedText). */
  textBefore?: string;
}

/** LSP's options of a create, rename or delete file operation. */
export interface FileOperationOptions {
  overwrite?: boolean;
  ignoreIfExists?: boolean;
  recursive?: boolean;
  ignoreIfNotExists?: boolean;
}

/** A file or folder of willCreateFiles/didCreateFiles or willDeleteFiles/didDeleteFiles: its workspace-relative path. */
export type FileOperationEntry = string | { path: string; folder?: boolean };

/** A file or folder of willRenameFiles/didRenameFiles: workspace-relative paths before and after. */
export interface FileRename {
  oldPath: string;
  newPath: string;
  folder?: boolean;
}

/** What willCreateFiles, willRenameFiles and willDeleteFiles did. */
export interface FileOperationResult {
  /** How many servers' workspace edits were applied. */
  applied: number;
  /** One reason per server whose edit was refused or that failed to answer ("<language>: <reason>"). */
  failed: string[];
}

/** Options of openDocument. */
export interface OpenDocumentOptions {
  sessionId: string;
  /** Workspace-relative and slash-separated (cmd/main.go); absolute with library. */
  path: string;
  /** Its URI should be session-scoped: kandev://<session>/<path> (kandev-lib://<session><path> for a library file). */
  model: Monaco.editor.ITextModel;
  /** A read-only file outside the workspace (a library target): opened on the language's first server only. */
  library?: boolean;
  /** The model's version id whose text is the file on disk; default: its version now. */
  persistedVersion?: number;
  /** With persistedVersion: that version's text, when the page has it. */
  persistedText?: string;
}

/** An open document: a lease on its (session, language) connection. */
export interface DocumentHandle {
  readonly sessionId: string;
  readonly path: string;
  readonly language: Language;
  /** A read-only file outside the workspace. */
  readonly library?: true;
  /** didClose, markers cleared, listeners disposed; safe to call again. */
  close(): void;
  /** Makes the file's text on disk the model's, unsaved edits or not (the page's Reload); false without readFile. */
  reload(): boolean;
}

/** A call- or type-hierarchy item (callHierarchy, typeHierarchy and their steps). */
export interface HierarchyItem {
  name: string;
  /** Monaco's SymbolKind. */
  kind: number;
  detail?: string;
  tags: number[];
  /** The file's session-scoped model URI (open it with openFile). */
  model: string;
  range: Monaco.IRange;
  selectionRange: Monaco.IRange;
  /** The connection that produced it: steps go back to that server. */
  conn: string;
  /** The server's own item, JSON, sent back unchanged. */
  lsp: string;
}

/** A symbol of the workspace (workspaceSymbols). */
export interface WorkspaceSymbolItem {
  name: string;
  /** Monaco's SymbolKind. */
  kind: number;
  containerName?: string;
  tags: number[];
  model: string;
  /** Absent until resolveWorkspaceSymbol filled it in (servers that resolve lazily). */
  range?: Monaco.IRange;
  conn: string;
  lsp: string;
}

/** One file of a session's problems list (problems). */
export interface ProblemFile {
  /** Workspace-relative path, forward slashes. */
  path: string;
  /** The file's session-scoped model URI, whether or not a model exists. */
  model: string;
  /** The language whose server reported the diagnostics. */
  language: Language;
  /** Its diagnostics as Monaco markers (one-based lines and columns, Monaco severities); related resources stay URI strings. */
  markers: Array<{
    startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number;
    message: string; severity: number; source?: string; code?: string | { value: string; target: string };
    tags?: number[];
    relatedInformation?: Array<{ resource: string; message: string; startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number }>;
  }>;
}

/** Workspace paths created, changed or deleted on the task host, opened or not (onWorkspaceFiles). */
export interface WorkspaceFiles {
  sessionId: string;
  changes: Array<{ path: string; change: 'created' | 'changed' | 'deleted' }>;
}

/** A change on the task host to an open document's file (onDiskChange). */
export interface DiskChange {
  sessionId: string;
  path: string;
  /** The model's URI. */
  model: string;
  change: 'created' | 'changed' | 'deleted';
  /** The model took the file's text: it is saved again at versionId. */
  reloaded: boolean;
  /** The model has unsaved edits: its text was left alone. */
  dirty: boolean;
  /** model.getVersionId() now; -1 for a model lsp.wasm cannot read. */
  versionId: number;
}

export type StatusState = 'off' | 'connecting' | 'installing' | 'starting' | 'ready' | 'stopping' | 'unavailable' | 'error' | 'reconnecting';
export type StatusAction = 'start' | 'stop' | 'retry';

/** The oldest active work item a server reports. */
export interface Progress {
  title: string;
  message: string;
  /** 0–100, or null when the server reports none. */
  percentage: number | null;
  elapsedMs: number;
  /** Other active items. */
  others: number;
}

/** The status view-model of one (session, language) pair: everything a control, popover or drawer shows. */
export interface StatusView {
  sessionId: string;
  language: Language;
  state: StatusState;
  /** One short localized line. */
  summary: string;
  /** The summary named by its language: 'Go · Ready'. */
  label: string;
  /** Localized lines for the popover or drawer, server text verbatim. */
  details: string[];
  action: StatusAction | null;
  /** The action's button text in the view's locale. */
  actionLabel: string | null;
  progress: Progress | null;
  /** While initialize is pending; long after 60 s. */
  initializing: { elapsedMs: number; long: boolean } | null;
  /** The last ended work item while ready and idle. */
  finished: { title: string; message: string } | null;
  /** An automatic reconnect under way: the attempt (1 the first) and the time since the path was lost. */
  reconnect: { attempt: number; elapsedMs: number } | null;
  /** The close code that ended the connection: 4001–4008, 1000, 1001, 1006. */
  closeCode: number | null;
  /** The install_failed detail or the server's initialize error, verbatim. */
  message?: string;
  /** true for Kotlin. */
  experimental: boolean;
  /** The text of an Install button when the server is missing and the task host can install it (close code 4001): turn on auto-install for the language, then retry. */
  installLabel: string | null;
  /** Open documents of the pair. */
  documents: number;
  /** The catalog id of the server ('' before the task host named the language's default). */
  server: string;
  /** The server's place in the language's list of servers (0: the first). */
  slot: number;
  /**
   * With several servers chosen for the language (lsp_language_servers),
   * each one's view in the list's order; the fields above are the first
   * one's, its label names them all ('TypeScript/JavaScript · tsgo Ready · eslint Installing').
   */
  servers?: StatusView[];
}

/** What the page reports of its layout to surface. */
export interface SurfaceOptions {
  /** The model of the active Monaco editor (or its URI string); null when the active panel is no Monaco text editor. */
  model?: Monaco.editor.ITextModel | string | null;
  /** matchMedia('(pointer: coarse)').matches */
  coarse?: boolean;
  /** The page shows files in its phone viewer. */
  phone?: boolean;
  /** The application status bar is shown. */
  statusBar?: boolean;
}

/** Where the status control goes, and for which pair. */
export interface Surface {
  preferred: 'toolbar' | 'status_bar';
  location: 'toolbar' | 'status_bar' | 'none';
  fallback: 'status_bar_hidden' | 'coarse_pointer' | 'phone' | null;
  disclosure: 'popover' | 'drawer';
  pair: { sessionId: string; language: Language } | null;
  /** false on a phone: open no documents there. */
  connect: boolean;
}

/** A server's window/showMessage or window/showMessageRequest, ready for a notice. */
export interface ServerMessage {
  /** Set for a request, which waits for respond(id, …). */
  id: string | null;
  sessionId: string;
  language: Language;
  type: 'error' | 'warning' | 'info' | 'log';
  /** The server's text, verbatim. */
  message: string;
  /** A request's action titles, verbatim. */
  actions: string[];
  /** 'Message from gopls', in the view's locale. */
  title: string;
  dismissLabel: string;
}

/** A finished write of a model's snapshot, for saved. */
export interface SavedReport {
  model: Monaco.editor.ITextModel | string;
  ok: boolean;
  /** model.getVersionId() when the written snapshot was taken. */
  persistedVersion: number;
  /** model.getVersionId() now. */
  liveVersion: number;
  /** The written text. */
  text?: string;
}

/** The lsp.wasm API object. */
export interface KandevLSP {
  /** The build's version string. */
  readonly version: string;
  /** Sets lsp.wasm up on the page's Monaco; false (with console.error) for bad options. Call before creating TypeScript models. */
  configure(options: ConfigureOptions): boolean;
  /** The settings object (or JSON text) after a change; false before configure or when unparsable. */
  setSettings(settings: Settings | string): boolean;
  /** Switches the texts; returns the locale in use: 'en', 'de' or 'en-XA'. */
  setLocale(tag: string): string;
  /** null for a file no language serves, before configure, before a promise of Monaco given to configure has resolved, or for bad options. */
  openDocument(options: OpenDocumentOptions): DocumentHandle | null;
  /** The explicit Start: remembered in localStorage. With slot, only that server of the language's list (StatusView.slot). */
  start(sessionId: string, language: Language, slot?: number): boolean;
  /** The explicit Stop: shuts the server down for this runtime. With slot, only that server, the language's auto-start untouched. */
  stop(sessionId: string, language: Language, slot?: number): boolean;
  /** Connects a failed pair again; with slot, only that server. */
  retry(sessionId: string, language: Language, slot?: number): boolean;
  /** Connects the pair now, without a document, if a document of the language would connect on opening (auto-start, manual start, no Stop): the server loads the workspace while the editor loads. true if a connection started or is live. */
  prepare(sessionId: string, language: Language): boolean;
  /** The status view-model now; null only for an unknown language. */
  view(sessionId: string, language: Language): StatusView | null;
  /** As view, but null for a pair this window never saw. */
  status(sessionId: string, language: Language): StatusView | null;
  /** Called with every view change of every pair; returns the unsubscribe function. */
  onStatus(listener: (view: StatusView) => void): () => void;
  /** Server messages for people; returns the unsubscribe function. */
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** Changes on the task host to open documents' files; returns the unsubscribe function. */
  onDiskChange(listener: (change: DiskChange) => void): () => void;
  /** Every workspace path the task host reports changed, for a Files tree; returns the unsubscribe function. */
  onWorkspaceFiles(listener: (files: WorkspaceFiles) => void): () => void;
  /** Symbols of the workspace matching query, from the server of the model (or its URI); [] when none offers them. */
  workspaceSymbols(model: Monaco.editor.ITextModel | string, query: string): Promise<WorkspaceSymbolItem[]>;
  /** Fills in a symbol's range (workspaceSymbol/resolve); null when the server cannot. */
  resolveWorkspaceSymbol(item: WorkspaceSymbolItem): Promise<WorkspaceSymbolItem | null>;
  /** The call-hierarchy items at a position; [] when the server offers none. */
  callHierarchy(model: Monaco.editor.ITextModel | string, position: Monaco.IPosition): Promise<HierarchyItem[]>;
  /** Who calls item, and where (fromRanges, in the caller). */
  incomingCalls(item: HierarchyItem): Promise<Array<{ from: HierarchyItem; fromRanges: Monaco.IRange[] }>>;
  /** What item calls, and where (fromRanges, in item). */
  outgoingCalls(item: HierarchyItem): Promise<Array<{ to: HierarchyItem; fromRanges: Monaco.IRange[] }>>;
  /** The type-hierarchy items at a position; [] when the server offers none. */
  typeHierarchy(model: Monaco.editor.ITextModel | string, position: Monaco.IPosition): Promise<HierarchyItem[]>;
  supertypes(item: HierarchyItem): Promise<HierarchyItem[]>;
  subtypes(item: HierarchyItem): Promise<HierarchyItem[]>;
  /** Before the page creates files: each server that asked (workspace/willCreateFiles) answers an edit, applied before this resolves. */
  willCreateFiles(sessionId: string, files: FileOperationEntry[]): Promise<FileOperationResult>;
  /** After the page created them: workspace/didCreateFiles to each server that asked. */
  didCreateFiles(sessionId: string, files: FileOperationEntry[]): Promise<void>;
  /** Before the page renames or moves files or folders: the servers' edits (such as updated imports), applied. */
  willRenameFiles(sessionId: string, files: FileRename[]): Promise<FileOperationResult>;
  /** After the page renamed them: workspace/didRenameFiles. */
  didRenameFiles(sessionId: string, files: FileRename[]): Promise<void>;
  /** Before the page deletes files or folders: the servers' edits, applied. */
  willDeleteFiles(sessionId: string, files: FileOperationEntry[]): Promise<FileOperationResult>;
  /** After the page deleted them: workspace/didDeleteFiles. */
  didDeleteFiles(sessionId: string, files: FileOperationEntry[]): Promise<void>;
  /** Every file of the session with diagnostics, open or not, by path; [] before configure. */
  problems(sessionId: string): ProblemFile[];
  /** What lsp.wasm's Go runtime holds, in bytes, after a collection it runs first: its live heap (the WebAssembly memory only grows), the objects in it, and all it took from that memory. For diagnostics and benchmarks, not for every frame. */
  memory(): { goHeapInUse: number; goHeapObjects: number; goSys: number };
  /** Called when a session's problems list changed (read it with problems); returns the unsubscribe function. */
  onProblems(listener: (change: { sessionId: string }) => void): () => void;
  /** Answers a request with one of its actions, or dismisses it with null; false when it no longer waits. */
  respond(id: string, title: string | null): boolean;
  /** Where the status control of the active editor goes. */
  surface(options: SurfaceOptions): Surface | null;
  /** A catalog text in the current locale with {name} placeholders filled. */
  text(key: string, args?: Record<string, string | number>): string;
  /** After a write finished: didChange then didSave to the servers that want it. null before configure or for a bad report. */
  saved(report: SavedReport): { dirty: boolean } | null;
  /** Before taking the snapshot to write: with formatOnSave, formats the model first; never blocks a save. */
  willSave(model: Monaco.editor.ITextModel): Promise<{ formatted: boolean }>;
  /** The model's document symbols, hierarchical as the server gives them; null without a symbol server. */
  outline(model: Monaco.editor.ITextModel): Promise<Monaco.languages.DocumentSymbol[] | null>;
  /** A server document's text (LSP 3.18 workspace/textDocumentContent), by its kandev-doc model or URI; null when no server of its session provides it. */
  documentContent(model: Monaco.editor.ITextModel | Monaco.Uri | string): Promise<string | null> | null;
  /** The teardown: Monaco as configure found it; configure may follow. */
  dispose(): true;
}
