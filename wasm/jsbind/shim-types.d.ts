// Types of shim.js for tsc (the typecheck task): what Go hands the shim
// and what the shim hands back. Only tsc reads this file; lsp.wasm embeds
// shim.js alone, so the contract is written here rather than in the
// embedded file.

declare namespace Shim {
  type Monaco = typeof import('monaco-editor');
  type Model = import('monaco-editor').editor.ITextModel;
  type Token = import('monaco-editor').CancellationToken;
  type Disposable = import('monaco-editor').IDisposable;
  type Position = import('monaco-editor').IPosition;
  type Uri = import('monaco-editor').Uri;
  type FormattingOptions = import('monaco-editor').languages.FormattingOptions;
  type OpenTab = import('../js/index.js').OpenTab;

  type Legend = import('monaco-editor').languages.SemanticTokensLegend;
  type CompletionProvider = import('monaco-editor').languages.CompletionItemProvider;
  type SemanticTokensProvider = import('monaco-editor').languages.DocumentSemanticTokensProvider;
  type RangeSemanticTokensProvider = import('monaco-editor').languages.DocumentRangeSemanticTokensProvider;
  type InlayHintsProvider = import('monaco-editor').languages.InlayHintsProvider;
  type CodeLensProvider = import('monaco-editor').languages.CodeLensProvider;
  type LinkProvider = import('monaco-editor').languages.LinkProvider;

  /** ask(id, feature, json, token) runs one Go call and resolves with its JSON.parsed answer, whose shape Go's feature gives. */
  type Ask = (id: string, feature: string, json: string, token?: Token) => Promise<any>;

  /** What the shim keeps per connection: its placeholder models and its refreshers. */
  interface Conn {
    placeholders: Set<Model>;
    /** Each fires one provider's change event; feature is the refresh request's. */
    refreshers: Set<(() => void) & { feature: string }>;
  }

  /** features.OptionsJSON parsed: what a feature's registration needs. */
  interface Options {
    triggerCharacters?: string[];
    retriggerCharacters?: string[];
    resolve?: boolean;
    legend?: import('monaco-editor').languages.SemanticTokensLegend;
    kinds?: string[];
    /** Code actions: the server's documentation of kinds (LSP 3.18), each with its LSP Command as JSON. */
    docs?: { kind: string, title: string, lsp: string }[];
    /** Range formatting: the server formats several ranges at once (LSP 3.18). */
    ranges?: boolean;
  }

  /** One entry of the providers table: registers the feature's provider for connection id and language lang. */
  type Provider = (id: string, lang: string, o: Options) => Disposable;

  /** The register functions of the location features, which share one provider shape. */
  type NavRegister = 'registerDefinitionProvider' | 'registerTypeDefinitionProvider' | 'registerImplementationProvider' | 'registerDeclarationProvider';

  /**
   * The Go function of every provider and step (features.Lookup names
   * them): it answers later by calling resolve with the answer's JSON, or
   * reject. n numbers the call for cancel.
   */
  type Call = (connID: string, name: string, json: string, resolve: (json: string) => void, reject: (err: unknown) => void, n: number) => void;
  /** client.Navigate: the JSON of {source, target, tabs} to the JSON of a navigation target ({handled: false} when not ours). */
  type Navigate = (json: string) => string;
  /** Monaco's cancellation of call n reaching Go, which tells the server ($/cancelRequest). */
  type Cancel = (n: number) => void;
  /** The outcome ({applied, failureReason?} as JSON) of apply(plan, n). */
  type Applied = (n: number, json: string) => void;

  /**
   * The page's callbacks (configure's options of the same names). readFile
   * (readLibraryFile for a library file) gives a definition or reference
   * target in a file with no model a placeholder model, owned by the connection and disposed when it ends
   * unless the page opened it since (claim); the others serve workspace
   * edits.
   */
  type Page = Pick<import('../js/index.js').ConfigureOptions, 'readFile' | 'readLibraryFile' | 'onEdit' | 'createFile' | 'renameFile' | 'deleteFile'>;

  /** One step of a planned workspace edit (features.PlanWorkspaceEdit). */
  interface Step {
    op: 'edit' | 'create' | 'rename' | 'delete';
    sessionId: string;
    path: string;
    /** The model URI of path. */
    model: string;
    /** rename: the new path and its model URI. */
    newPath?: string;
    newModel?: string;
    options?: import('../js/index.js').FileOperationOptions;
    /** edit: Monaco ranges and their texts. */
    /** snippet: an LSP 3.18 snippet edit's snippet, text what it reads as without a snippet session. */
    edits: { range: import('monaco-editor').IRange; text: string; snippet?: string }[];
  }

  /** The helpers through which the binding talks to Monaco, one string per crossing. */
  interface Helpers {
    /**
     * Registers one feature's provider of one connection and language
     * (options: features.OptionsJSON) and returns its own disposable, so a
     * registration change redoes only the features it changed.
     */
    register(id: string, lang: string, feature: string, optsJSON: string): Disposable;
    /** The connection ended: its placeholder models go unless claimed. */
    end(id: string): void;
    /** The server's refresh request: the connection's providers of feature ask again. */
    refresh(id: string, feature: string): void;
    /** Runs a planned workspace edit and reports through applied(n, json). */
    apply(planJSON: string, n: number): void;
    /** Sets a model's markers from one JSON string. */
    markers(model: Model, owner: string, json: string): void;
    /** The page's lsp.willSave. */
    willSave(model: Model, on: boolean): Promise<{ formatted: boolean }>;
    /** The page's lsp.outline. */
    outline(model: Model): Promise<unknown>;
    /** Calls fn with the JSON of each content change of model. */
    hookChange(model: Model, fn: (json: string) => void): Disposable;
    /** Registers the editor opener that asks navigate and opens through open. */
    opener(tabs: (() => OpenTab[]) | undefined, open: import('../js/index.js').ConfigureOptions['openFile']): Disposable;
    /** The page opened this model: it is no placeholder any more. */
    claim(model: Model): void;
    /** The configuration ends: the code action, lens and inline completion commands go. */
    close(): void;
    /** The page's lsp.documentContent: a server document's text (LSP 3.18), null when no server of its session provides it. */
    content(model: string | Uri): Promise<string | null>;
    /** A server refreshed its document: the model of that URI, if any, gets the text. */
    setContent(model: string, text: string): void;
  }

  /** The shim: guard is the symbol that marks our providers for the TypeScript built-in wrapper (suppress.WrapperJS). */
  type Make = (monaco: Monaco, call: Call, navigate: Navigate, guard: symbol, page: Page, cancel: Cancel, applied: Applied) => Helpers;
}
