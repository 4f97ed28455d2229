// Globals the page's classic scripts use, for tsc only (no script imports
// this file): Go's wasm_exec.js defines Go, lsp.wasm's main defines
// kandevLSP, Monaco's AMD loader defines require and monaco, and
// bench-probe.js defines the benchmark's probe.

/** wasm_exec.js's Go runtime: one instance runs one lsp.wasm. */
declare class Go {
  importObject: WebAssembly.Imports;
  /** The environment the Go program sees (GOGC, GODEBUG). */
  env: Record<string, string>;
  run(instance: WebAssembly.Instance): Promise<void>;
}

/** Set by lsp.wasm's main before go.run returns (the classic entry's API). */
declare var kandevLSP: import('@kandev/lsp').KandevLSP | undefined;

/** A Worker's importScripts (bench-worker.js); the page's lib is the DOM's. */
declare function importScripts(...urls: string[]): void;

/** The benchmark's probe (bench-probe.js): timestamps in performance.now() milliseconds. */
interface BenchProbe {
  /** data: the relay speaks JSON-RPC in text frames. */
  frames: { t: number; out: boolean; data: string }[];
  keys: { t: number; key: string }[];
  marks: Record<string, number>;
  longTasks?: { start: number; end: number }[];
  calls?: { method: string; called: number; resolved: number | null }[];
}

interface Window {
  /** Monaco's AMD loader (min/vs/loader.js). */
  require: {
    (deps: string[], onLoad: () => void, onError?: (err: unknown) => void): void;
    config(options: { paths: Record<string, string> }): void;
  };
  /** What the AMD loader's editor.main defines. */
  monaco: import('@kandev/lsp').MonacoNamespace;
  benchProbe: BenchProbe;
}
