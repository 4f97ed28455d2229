// @ts-check
// .toml files as a Monaco language of their own. Monaco has none, so their
// models would be plain text, which lsp.wasm serves no provider for: the
// catalog names the Monaco id "toml" for the TOML server.

/** @type {import('monaco-editor').languages.IMonarchLanguage} */
const grammar = {
  defaultToken: '',
  tokenizer: {
    root: [
      [/#.*$/, 'comment'],
      [/^\s*\[\[?[^\]]*\]\]?/, 'type'],
      [/[A-Za-z0-9_.-]+(?=\s*=)/, 'key'],
      [/"""/, 'string', '@multi'],
      [/"([^"\\]|\\.)*"|'[^']*'/, 'string'],
      [/\b(true|false)\b/, 'keyword'],
      [/[+-]?\d[\d_:.eE+-]*(T[\d:.Z+-]*)?\b/, 'number'],
      [/[[\]{}]/, '@brackets'],
    ],
    multi: [
      [/"""/, 'string', '@pop'],
      [/./, 'string'],
    ],
  },
};

/** registerToml gives .toml files their language. @param {import('@kandev/lsp').MonacoNamespace} monaco */
export function registerToml(monaco) {
  if (monaco.languages.getLanguages().some((l) => l.id === 'toml')) return;
  monaco.languages.register({ id: 'toml', extensions: ['.toml'], aliases: ['TOML'] });
  monaco.languages.setLanguageConfiguration('toml', {
    comments: { lineComment: '#' },
    brackets: [['[', ']'], ['{', '}']],
    autoClosingPairs: [{ open: '[', close: ']' }, { open: '{', close: '}' }, { open: '"', close: '"' }],
  });
  monaco.languages.setMonarchTokensProvider('toml', grammar);
}
