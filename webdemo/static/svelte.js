// @ts-check
// .svelte files as a Monaco language of their own. Monaco has none, so
// their models would be plain text, which lsp.wasm serves no provider for:
// the catalog names the Monaco id "svelte" for the Svelte server. The
// server's semantic tokens colour what it knows; the rest stays plain.

/** registerSvelte gives .svelte files their language. @param {import('@kandev/lsp').MonacoNamespace} monaco */
export function registerSvelte(monaco) {
  if (monaco.languages.getLanguages().some((l) => l.id === 'svelte')) return;
  monaco.languages.register({ id: 'svelte', extensions: ['.svelte'], aliases: ['Svelte'] });
  monaco.languages.setLanguageConfiguration('svelte', {
    comments: { blockComment: ['<!--', '-->'] },
    brackets: [['<', '>'], ['{', '}'], ['(', ')'], ['[', ']']],
  });
}
