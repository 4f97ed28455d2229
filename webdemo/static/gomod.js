// @ts-check
// go.mod and go.work, as Monaco languages of their own. Monaco knows
// neither, so their models would be plain text: no colours, and none of
// gopls's providers, which lsp.wasm registers for the Monaco ids "go.mod"
// and "go.work" (the languageIds gopls and VS Code give these files).

/** @type {import('monaco-editor').languages.IMonarchLanguage} */
const grammar = {
  defaultToken: '',
  keywords: ['module', 'go', 'toolchain', 'godebug', 'require', 'replace', 'exclude', 'retract', 'tool', 'ignore', 'use'],
  tokenizer: {
    root: [
      [/\/\/.*$/, 'comment'],
      [/^\s*[a-z]+\b/, { cases: { '@keywords': 'keyword', '@default': 'identifier' } }],
      [/=>/, 'operator'],
      [/[()]/, '@brackets'],
      [/"([^"\\]|\\.)*"|`[^`]*`/, 'string'],
      [/\bv\d+\.\d+\.\d+[^\s)]*/, 'number'],
      [/\b\d+(\.\d+)*\b/, 'number'],
      [/[^\s()"`]+/, 'identifier'],
    ],
  },
};

/** registerGoModules gives go.mod and go.work files their languages. @param {import('@kandev/lsp').MonacoNamespace} monaco */
export function registerGoModules(monaco) {
  for (const [id, file] of [['go.mod', 'go.mod'], ['go.work', 'go.work']]) {
    if (monaco.languages.getLanguages().some((l) => l.id === id)) continue;
    monaco.languages.register({ id, filenames: [file], aliases: [file] });
    monaco.languages.setMonarchTokensProvider(id, grammar);
    monaco.languages.setLanguageConfiguration(id, { comments: { lineComment: '//' }, brackets: [['(', ')']] });
  }
}
