// @ts-check
// .svelte and .vue files, the single-file components of Svelte and Vue, as
// Monaco languages of their own. Monaco has neither, so their models would
// be plain text, which lsp.wasm serves no provider for: the catalog names
// the Monaco ids "svelte" and "vue" for their servers. The servers'
// semantic tokens colour what they know; the rest stays plain.

/**
 * registerComponents gives .svelte and .vue files their languages.
 * @param {import('@kandev/lsp').MonacoNamespace} monaco
 */
export function registerComponents(monaco) {
  for (const [id, alias] of [['svelte', 'Svelte'], ['vue', 'Vue']]) {
    if (monaco.languages.getLanguages().some((l) => l.id === id)) continue;
    monaco.languages.register({ id, extensions: ['.' + id], aliases: [alias] });
    monaco.languages.setLanguageConfiguration(id, {
      comments: { blockComment: ['<!--', '-->'] },
      brackets: [['<', '>'], ['{', '}'], ['(', ')'], ['[', ']']],
    });
  }
}
