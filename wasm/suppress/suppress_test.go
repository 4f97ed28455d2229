package suppress

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kandev/lsp/wasm/features"
)

var ts = []string{"typescript", "javascript"}

const (
	all   = features.Set(features.Completion | features.Hover | features.Definition | features.References | features.SignatureHelp)
	hover = features.Set(features.Hover)
)

func TestSuppressedOnlyOnOwnedModelsForAdvertisedFeatures(t *testing.T) {
	s := New()
	s.SetConnection("s1/ts", "s1", ts, hover|features.Set(features.Completion))
	if !s.Own("s1/ts", "kandev://s1/a.ts", "s1", "typescript") {
		t.Fatal("own failed")
	}
	cases := []struct {
		name  string
		model string
		f     features.Feature
		want  bool
	}{
		{"owned model, advertised hover", "kandev://s1/a.ts", features.Hover, true},
		{"owned model, advertised completion", "kandev://s1/a.ts", features.Completion, true},
		{"owned model, definition not advertised", "kandev://s1/a.ts", features.Definition, false},
		{"owned model, references not advertised", "kandev://s1/a.ts", features.References, false},
		{"owned model, signature help not advertised", "kandev://s1/a.ts", features.SignatureHelp, false},
		{"same session, model not open on the connection", "kandev://s1/b.ts", features.Hover, false},
		{"other session, same path", "kandev://s2/a.ts", features.Hover, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := s.Suppressed(c.model, c.f); got != c.want {
				t.Errorf("Suppressed = %v, want %v", got, c.want)
			}
		})
	}
	// Ownership needs the connection's session and language.
	if s.Own("s1/ts", "kandev://s2/x.ts", "s2", "typescript") {
		t.Error("owned a model of another session")
	}
	if s.Own("s1/ts", "kandev://s1/x.py", "s1", "python") {
		t.Error("owned a model of another language")
	}
	if s.Own("nope", "kandev://s1/x.ts", "s1", "typescript") {
		t.Error("owned by an inactive connection")
	}
}

func TestCleanupRemovesOnlyThatConnection(t *testing.T) {
	s := New()
	s.SetConnection("s1/ts", "s1", ts, all)
	s.SetConnection("s2/ts", "s2", ts, all)
	s.Own("s1/ts", "kandev://s1/a.ts", "s1", "typescript")
	s.Own("s2/ts", "kandev://s2/a.ts", "s2", "typescript")
	g := s.Generation()
	s.RemoveConnection("s1/ts") // crash of session 1's server
	if s.Generation() == g {
		t.Error("generation did not move")
	}
	if s.Suppressed("kandev://s1/a.ts", features.Hover) {
		t.Error("crashed connection still suppresses")
	}
	if !s.Suppressed("kandev://s2/a.ts", features.Hover) {
		t.Error("the other connection lost its suppression")
	}
	s.Disown("s2/ts", "kandev://s2/a.ts")
	if s.Suppressed("kandev://s2/a.ts", features.Hover) {
		t.Error("closed model still suppressed")
	}
}

func TestDynamicRegistrationUpdatesFeatures(t *testing.T) {
	s := New()
	s.SetConnection("c", "s1", ts, 0)
	s.Own("c", "kandev://s1/a.ts", "s1", "typescript")
	if s.Suppressed("kandev://s1/a.ts", features.SignatureHelp) {
		t.Fatal("suppressed before registration")
	}
	s.SetConnection("c", "s1", ts, features.Set(features.SignatureHelp))
	if !s.Suppressed("kandev://s1/a.ts", features.SignatureHelp) {
		t.Error("dynamic registration not honoured")
	}
}

func TestSnapshot(t *testing.T) {
	s := New()
	if got := s.Snapshot(); got != `{}` {
		t.Errorf("empty: %s", got)
	}
	s.SetConnection("a", "s1", ts, hover|features.Set(features.Completion|features.SemanticTokens))
	s.SetConnection("b", "s2", ts, features.Set(features.SemanticTokens))
	s.Own("a", "kandev://s1/b.ts", "s1", "typescript")
	s.Own("a", "kandev://s1/a.js", "s1", "javascript")
	s.Own("b", "kandev://s2/a.ts", "s2", "typescript")
	want := `{"kandev://s1/a.js":["completion","hover"],"kandev://s1/b.ts":["completion","hover"]}`
	if got := s.Snapshot(); got != want {
		t.Errorf("snapshot %s\nwant     %s", got, want)
	}
}

func TestSnapshotSortsModels(t *testing.T) {
	s := New()
	s.SetConnection("a", "s1", ts, hover)
	for _, m := range []string{"d", "b", "f", "a", "e", "c"} {
		s.Own("a", "kandev://s1/"+m+".ts", "s1", "typescript")
	}
	var want strings.Builder
	for i, m := range []string{"a", "b", "c", "d", "e", "f"} {
		if i > 0 {
			want.WriteByte(',')
		}
		want.WriteString(`"kandev://s1/` + m + `.ts":["hover"]`)
	}
	if got := s.Snapshot(); got != "{"+want.String()+"}" {
		t.Errorf("snapshot %s\nwant     {%s}", got, want.String())
	}
}

// The wrapper, run in Node against a fake monaco.languages: built-ins of
// TS/JS are wrapped and yield only per the snapshot; our guarded provider
// and other languages pass through; installing twice is idempotent.
func TestWrapperJSInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	script := `
const assert = require('assert');
const registered = [];
const reg = (name) => (sel, p) => { registered.push({ name, sel, p }); return { dispose() {} }; };
const monaco = { languages: {} };
for (const n of ['registerCompletionItemProvider','registerHoverProvider','registerDefinitionProvider','registerReferenceProvider','registerSignatureHelpProvider','registerDocumentSemanticTokensProvider'])
  monaco.languages[n] = reg(n);
const install = new Function('return (' + process.argv[1] + '\n)')();
const ctl = install(monaco);
assert.strictEqual(install(monaco), ctl, 'idempotent');
const model = (u) => ({ uri: { toString: () => u } });
// Monaco's lazy TS mode registers its built-ins after the wrapper is in place.
class BuiltinHover { constructor() { this.tag = 'builtin'; } provideHover(m) { return { contents: [{ value: this.tag }] }; } }
const builtin = new BuiltinHover();
monaco.languages.registerHoverProvider('typescript', builtin);
monaco.languages.registerCompletionItemProvider('javascript', { triggerCharacters: ['.'], provideCompletionItems: () => ({ suggestions: [1] }), resolveCompletionItem: (i) => i });
monaco.languages.registerHoverProvider('python', { provideHover: () => 'py' });
// Ours: guarded, for the same language.
const ours = ctl.mark({ provideHover: () => 'lsp' });
monaco.languages.registerHoverProvider('typescript', ours);
const [tsHover, jsCompl, pyHover, ourHover] = registered;
assert.strictEqual(ourHover.p, ours, 'guarded provider registered untouched');
assert.notStrictEqual(tsHover.p, builtin, 'built-in wrapped');
assert.strictEqual(Object.getPrototypeOf(tsHover.p), builtin, 'wrapper inherits the built-in');
assert.deepStrictEqual(jsCompl.p.triggerCharacters, ['.'], 'options kept');
assert.strictEqual(typeof jsCompl.p.resolveCompletionItem, 'function', 'other methods kept');
// Nothing suppressed yet: built-ins answer.
assert.deepStrictEqual(tsHover.p.provideHover(model('kandev://s1/a.ts')), { contents: [{ value: 'builtin' }] });
ctl.set(JSON.parse(process.argv[2]));
assert.strictEqual(tsHover.p.provideHover(model('kandev://s1/a.ts')), null, 'suppressed on the owned model');
assert.deepStrictEqual(tsHover.p.provideHover(model('kandev://s2/a.ts')), { contents: [{ value: 'builtin' }] }, 'other session keeps built-in');
assert.deepStrictEqual(jsCompl.p.provideCompletionItems(model('kandev://s1/a.ts')), { suggestions: [] }, 'completion suppressed');
assert.deepStrictEqual(jsCompl.p.provideCompletionItems(model('kandev://s1/c.js')), { suggestions: [1] });
assert.strictEqual(pyHover.p.provideHover(model('kandev://s1/a.ts')), 'py', 'other languages untouched');
assert.strictEqual(ourHover.p.provideHover(model('kandev://s1/a.ts')), 'lsp', 'ours never suppressed');
ctl.set({});
assert.deepStrictEqual(tsHover.p.provideHover(model('kandev://s1/a.ts')), { contents: [{ value: 'builtin' }] }, 'cleanup restores');
console.log('ok');
`
	s := New()
	s.SetConnection("a", "s1", ts, hover|features.Set(features.Completion))
	s.Own("a", "kandev://s1/a.ts", "s1", "typescript")
	out, err := exec.Command(node, "-e", script, WrapperJS, s.Snapshot()).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("node: %v\n%s", err, out)
	}
}

// The TypeScript worker's diagnostics give way on a model of an active
// connection: dropped when set, cleared when the model becomes one; other
// owners and models keep theirs, and uninstall puts setModelMarkers back.
func TestWrapperJSDropsBuiltinDiagnosticsOnOwnedModels(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	script := `
const assert = require('assert');
const model = (u) => ({ uri: { toString: () => u } });
const models = { 'kandev://s1/a.ts': model('kandev://s1/a.ts'), 'kandev://s2/a.ts': model('kandev://s2/a.ts') };
const set = [];
const original = function (m, owner, markers) { assert.strictEqual(this, monaco.editor); set.push(m.uri.toString() + ' ' + owner + ' ' + markers.length); };
const monaco = { languages: {}, Uri: { parse: (u) => ({ u }) }, editor: { setModelMarkers: original, getModel: (uri) => models[uri.u] || null } };
const ctl = new Function('return (' + process.argv[1] + '\n)')()(monaco);
const E = monaco.editor;
E.setModelMarkers(models['kandev://s1/a.ts'], 'typescript', [{}]);
assert.deepStrictEqual(set.splice(0), ['kandev://s1/a.ts typescript 1'], 'not owned yet: the worker speaks');
ctl.set(JSON.parse(process.argv[2]));
assert.deepStrictEqual(set.splice(0), ['kandev://s1/a.ts typescript 0', 'kandev://s1/a.ts javascript 0'], 'cleared when owned');
ctl.set(JSON.parse(process.argv[2]));
assert.deepStrictEqual(set.splice(0), [], 'cleared once');
E.setModelMarkers(models['kandev://s1/a.ts'], 'typescript', [{}]);
E.setModelMarkers(models['kandev://s1/a.ts'], 'kandev-lsp:s1:typescript', [{}]);
E.setModelMarkers(models['kandev://s2/a.ts'], 'typescript', [{}]);
assert.deepStrictEqual(set.splice(0), ['kandev://s1/a.ts typescript 0', 'kandev://s1/a.ts kandev-lsp:s1:typescript 1', 'kandev://s2/a.ts typescript 1']);
ctl.uninstall();
assert.strictEqual(E.setModelMarkers, original, 'uninstall restores');
console.log('ok');
`
	s := New()
	s.SetConnection("a", "s1", ts, hover)
	s.Own("a", "kandev://s1/a.ts", "s1", "typescript")
	out, err := exec.Command(node, "-e", script, WrapperJS, s.Snapshot()).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("node: %v\n%s", err, out)
	}
}

// Recording the same connection again changes nothing, so no snapshot is
// published for a registration that touched no suppressible feature.
func TestSetConnectionUnchangedKeepsGeneration(t *testing.T) {
	t.Parallel()
	s := New()
	s.SetConnection("c", "s1", ts, hover)
	g := s.Generation()
	s.SetConnection("c", "s1", ts, hover)
	if s.Generation() != g {
		t.Error("an unchanged connection moved the generation")
	}
	s.SetConnection("c", "s1", ts, hover|features.Set(features.Completion))
	if s.Generation() == g {
		t.Error("a changed connection kept the generation")
	}
}

// wrapper.js spells the guard's key itself (it is embedded as it is, with
// no Go text spliced in): it must be GuardSymbol.
func TestWrapperJSGuardIsGuardSymbol(t *testing.T) {
	t.Parallel()
	if !strings.Contains(WrapperJS, "Symbol.for('"+GuardSymbol+"')") {
		t.Errorf("wrapper.js does not mark providers with Symbol.for(%q)", GuardSymbol)
	}
}

// WrapperJS is wrapper.js as it is now: an edit of the file without go
// generate would leave lsp.wasm with the old wrapper.
func TestWrapperJSIsWrapperFile(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("wrapper.js")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != WrapperJS {
		t.Error("wrapperjs.go is older than wrapper.js: run go generate ./wasm/suppress")
	}
}
