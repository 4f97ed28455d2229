// Types of wrapper.js for tsc (the typecheck task, wasm/jsbind's
// tsconfig.json). Only tsc reads this file; lsp.wasm embeds wrapper.js
// alone.

declare namespace Suppress {
  type Monaco = typeof import('monaco-editor');
  type Model = import('monaco-editor').editor.ITextModel;
  /** Monaco's LanguageSelector, its arrays mutable so that Array.isArray narrows them. */
  type Selector = string | import('monaco-editor').languages.LanguageFilter | Selector[];

  /**
   * monaco.languages as the wrapper sees it: register functions it replaces
   * by name, and the control of its install under Symbol.for('kandev.lsp.wrapped').
   */
  interface Patchable {
    [name: string]: any;
    [key: symbol]: Control | undefined;
  }

  /** State.Snapshot parsed: per model URI, the built-in features that yield on it. */
  type Snapshot = Record<string, string[]>;

  /** The control object of one Monaco namespace's wrapper. */
  interface Control {
    /** Symbol.for(GuardSymbol): a provider carrying it is registered untouched. */
    guard: symbol;
    /** Puts a new snapshot in force; a newly owned model's TypeScript markers are cleared. */
    set(snapshot: Snapshot): void;
    /** Marks one of our providers with the guard. */
    mark<P extends object>(provider: P): P;
    /** Whether the built-in of feature yields on model. */
    isSuppressed(model: Model | null | undefined, feature: string): boolean;
    /** Whether an active connection owns model (its TypeScript markers are dropped). */
    owns(model: Model | null | undefined): boolean;
    /** Puts Monaco's functions back and suppresses nothing any more. */
    uninstall(): void;
  }

  /** The wrapper: installs on a namespace, or returns the control already installed there. */
  type Install = (monaco: Monaco) => Control;
}
