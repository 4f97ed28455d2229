package suppress

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/features"
)

// Monaco 0.57's TypeScript mode (vs/languages/features/typescript/tsMode.js)
// registers twelve providers per language — completion, signature help,
// hover, document highlights, definition, references, document symbols,
// rename, range formatting, on-type formatting, code actions and inlay
// hints — as adapter classes whose methods live on the prototype. Each one
// yields on the owned model when the server advertises its feature, and
// only then: a feature the server lacks (range formatting here) and every
// other model keep the built-in.
func TestWrapperCoversTypeScriptWorkerFeatures(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	script := `
const assert = require('assert');
const registered = {};
const monaco = { languages: {} };
const workerFeatures = {
  registerCompletionItemProvider: ['provideCompletionItems', { suggestions: [] }],
  registerSignatureHelpProvider: ['provideSignatureHelp', null],
  registerHoverProvider: ['provideHover', null],
  registerDocumentHighlightProvider: ['provideDocumentHighlights', null],
  registerDefinitionProvider: ['provideDefinition', null],
  registerReferenceProvider: ['provideReferences', []],
  registerDocumentSymbolProvider: ['provideDocumentSymbols', null],
  registerRenameProvider: ['provideRenameEdits', null],
  registerDocumentRangeFormattingEditProvider: ['provideDocumentRangeFormattingEdits', 'built-in'],
  registerOnTypeFormattingEditProvider: ['provideOnTypeFormattingEdits', null],
  registerCodeActionProvider: ['provideCodeActions', { actions: [] }],
  registerInlayHintsProvider: ['provideInlayHints', { hints: [] }],
};
for (const name of Object.keys(workerFeatures)) monaco.languages[name] = (sel, p) => { registered[name] = p; return { dispose() {} }; };
const ctl = new Function('return (' + process.argv[1] + '\n)')()(monaco);
ctl.set(JSON.parse(process.argv[2]));
// The adapters, as tsMode.js makes them: methods and getters on a class.
for (const [name, [method]] of Object.entries(workerFeatures)) {
  class Adapter { get autoFormatTriggerCharacters() { return [';', '}', '\n']; } }
  Adapter.prototype[method] = function () { return 'built-in'; };
  monaco.languages[name]('typescript', new Adapter());
}
const model = (u) => ({ uri: { toString: () => u } });
for (const [name, [method, empty]] of Object.entries(workerFeatures)) {
  const p = registered[name];
  const owned = p[method](model('kandev://s1/a.ts'));
  const want = empty === 'built-in' ? 'built-in' : empty;
  if (want === 'built-in') assert.strictEqual(owned, 'built-in', name + ' kept: not advertised');
  else assert.deepStrictEqual(JSON.parse(JSON.stringify(owned)), want, name + ' yields on the owned model');
  assert.strictEqual(p[method](model('kandev://s1/b.ts')), 'built-in', name + ' kept on a model the server does not own');
  assert.strictEqual(p[method](model('kandev://s2/a.ts')), 'built-in', name + ' kept in another session');
}
assert.deepStrictEqual(registered.registerOnTypeFormattingEditProvider.autoFormatTriggerCharacters, [';', '}', '\n'], 'getters kept');
console.log('ok');
`
	s := New()
	advertised := features.Set(0)
	for _, f := range []features.Feature{features.Completion, features.SignatureHelp, features.Hover, features.DocumentHighlight,
		features.Definition, features.References, features.DocumentSymbol, features.Rename, features.OnTypeFormatting,
		features.CodeAction, features.InlayHints, features.Formatting} {
		advertised = advertised.With(f)
	}
	s.SetConnection("a", "s1", ts, advertised)
	s.Own("a", "kandev://s1/a.ts", "s1", "typescript")
	out, err := exec.Command(node, "-e", script, WrapperJS, s.Snapshot()).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("node: %v\n%s", err, out)
	}
}
