package features

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kandev/lsp/wasm/lsptypes"
)

func TestParseCapabilitiesAdvertised(t *testing.T) {
	cases := []struct {
		name string
		caps string
		want Set
	}{
		{"nothing", `{}`, 0},
		{"null", `null`, 0},
		{"booleans true", `{"hoverProvider":true,"definitionProvider":true,"referencesProvider":true}`, Set(Hover | Definition | References)},
		{"booleans false", `{"hoverProvider":false,"definitionProvider":false,"referencesProvider":false,"completionProvider":null}`, 0},
		{"option objects", `{"hoverProvider":{},"definitionProvider":{"workDoneProgress":true},"referencesProvider":{},"completionProvider":{},"signatureHelpProvider":{}}`, Set(Hover | Definition | References | Completion | SignatureHelp)},
		{"semantic tokens full", `{"semanticTokensProvider":{"legend":{"tokenTypes":["a"],"tokenModifiers":[]},"full":true}}`, Set(SemanticTokens)},
		{"semantic tokens full delta", `{"semanticTokensProvider":{"legend":{"tokenTypes":["a"],"tokenModifiers":[]},"full":{"delta":true}}}`, Set(SemanticTokens)},
		{"semantic tokens range only", `{"semanticTokensProvider":{"legend":{"tokenTypes":["a"],"tokenModifiers":[]},"range":true}}`, Set(SemanticTokensRange)},
		{"semantic tokens full and range", `{"semanticTokensProvider":{"legend":{"tokenTypes":["a"],"tokenModifiers":[]},"range":{},"full":{"delta":true}}}`, Set(SemanticTokens | SemanticTokensRange)},
		{"semantic tokens range without legend", `{"semanticTokensProvider":{"range":true}}`, 0},
		{"semantic tokens full false", `{"semanticTokensProvider":{"legend":{"tokenTypes":["a"],"tokenModifiers":[]},"full":false}}`, 0},
		{"semantic tokens without legend", `{"semanticTokensProvider":{"full":true}}`, 0},
		{"garbage values", `{"hoverProvider":1,"definitionProvider":"yes","referencesProvider":[]}`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseCapabilities(json.RawMessage(c.caps))
			if err != nil {
				t.Fatal(err)
			}
			if p.Set != c.want {
				t.Errorf("set %b, want %b", p.Set, c.want)
			}
			for _, f := range All {
				if p.Allows(f) != c.want.Has(f) {
					t.Errorf("Allows(%s) = %v", f, p.Allows(f))
				}
			}
		})
	}
}

func TestParseCapabilitiesOptions(t *testing.T) {
	p, err := ParseCapabilities(json.RawMessage(`{
		"textDocumentSync":{"openClose":true,"change":2,"save":{"includeText":true}},
		"completionProvider":{"triggerCharacters":[".",":"],"resolveProvider":true},
		"signatureHelpProvider":{"triggerCharacters":["(",","],"retriggerCharacters":[")"]},
		"semanticTokensProvider":{"legend":{"tokenTypes":["namespace","type"],"tokenModifiers":["readonly"]},"full":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Providers{
		Set:                          Set(Completion | SignatureHelp | SemanticTokens),
		CompletionTriggerCharacters:  []string{".", ":"},
		CompletionResolve:            true,
		SignatureTriggerCharacters:   []string{"(", ","},
		SignatureRetriggerCharacters: []string{")"},
		Legend:                       Legend{TokenTypes: []string{"namespace", "type"}, TokenModifiers: []string{"readonly"}},
		Sync:                         lsptypes.SyncOptions{OpenClose: true, Change: lsptypes.SyncIncremental, Save: true, IncludeText: true},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %+v\nwant %+v", p, want)
	}
	for f, want := range map[Feature]string{
		Completion:     `{"triggerCharacters":[".",":"],"resolve":true}`,
		SignatureHelp:  `{"triggerCharacters":["(",","],"retriggerCharacters":[")"]}`,
		SemanticTokens: `{"legend":{"tokenTypes":["namespace","type"],"tokenModifiers":["readonly"]}}`,
		Hover:          `{}`,
	} {
		if got := decode(t, OptionsJSON(p, f)); !reflect.DeepEqual(got, decode(t, want)) {
			t.Errorf("OptionsJSON(%s) = %s", f, OptionsJSON(p, f))
		}
	}
	if s := OptionsJSON(Providers{}, Completion); s != `{"triggerCharacters":[],"resolve":false}` {
		t.Errorf("no trigger characters: %s", s)
	}
}

// The table names every feature once, and names and methods find their
// feature again.
func TestFeatureTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range All {
		name := f.String()
		if name == "" || seen[name] || f.Method() == "" {
			t.Errorf("feature %d: name %q method %q", f, name, f.Method())
		}
		seen[name] = true
		if g, ok := ByName(name); !ok || g != f {
			t.Errorf("ByName(%q) = %v, %v", name, g, ok)
		}
	}
	if _, ok := ByName("typeHierarchy"); ok {
		t.Error("an unwired feature has a name")
	}
	if _, ok := ByName("colorPresentation"); ok {
		t.Error("a step is no feature")
	}
}

func TestRegistryDynamic(t *testing.T) {
	r, err := NewRegistry(json.RawMessage(`{"hoverProvider":true,"completionProvider":{"triggerCharacters":["."]},"textDocumentSync":{"openClose":true,"change":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	before := r.For("go")
	err = r.Register(json.RawMessage(`{"registrations":[
		{"id":"1","method":"textDocument/signatureHelp","registerOptions":{"documentSelector":[{"language":"go"}],"triggerCharacters":["("],"retriggerCharacters":[","]}},
		{"id":"2","method":"textDocument/completion","registerOptions":{"documentSelector":[{"language":"go","scheme":"file"}],"triggerCharacters":[".","\""]}},
		{"id":"3","method":"textDocument/definition","registerOptions":{"documentSelector":[{"language":"python"}]}},
		{"id":"4","method":"textDocument/semanticTokens","registerOptions":{"documentSelector":null,"legend":{"tokenTypes":["t"],"tokenModifiers":[]},"full":{"delta":false}}},
		{"id":"5","method":"textDocument/didSave","registerOptions":{"documentSelector":[{"pattern":"**/*.go"}],"includeText":true}},
		{"id":"6","method":"textDocument/references","registerOptions":{"documentSelector":[{"language":"go","scheme":"untitled"}]}},
		{"id":"7","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	goP := r.For("go")
	if goP.Set != Set(Hover|Completion|SignatureHelp|SemanticTokens) {
		t.Errorf("go set %b", goP.Set)
	}
	if !reflect.DeepEqual(goP.CompletionTriggerCharacters, []string{".", "\""}) {
		t.Errorf("trigger union %q", goP.CompletionTriggerCharacters)
	}
	if !goP.Sync.Save || !goP.Sync.IncludeText {
		t.Errorf("dynamic didSave: %+v", goP.Sync)
	}
	if r.For("python").Set != Set(Hover|Completion|Definition|SemanticTokens) {
		t.Errorf("python set %b", r.For("python").Set)
	}
	ch := Changed(before, goP)
	if !reflect.DeepEqual(ch, []Feature{Completion, SignatureHelp, SemanticTokens}) {
		t.Errorf("changed %v", ch)
	}
	if err := r.Unregister(json.RawMessage(`{"unregisterations":[{"id":"1","method":"textDocument/signatureHelp"},{"id":"2","method":"textDocument/completion"}]}`)); err != nil {
		t.Fatal(err)
	}
	after := r.For("go")
	if after.Set.Has(SignatureHelp) || !reflect.DeepEqual(after.CompletionTriggerCharacters, []string{"."}) {
		t.Errorf("after unregister %+v", after)
	}
	if ch := Changed(goP, after); !reflect.DeepEqual(ch, []Feature{Completion, SignatureHelp}) {
		t.Errorf("changed after unregister %v", ch)
	}
	// The static value is not aliased by callers.
	after.CompletionTriggerCharacters[0] = "X"
	if r.For("go").CompletionTriggerCharacters[0] != "." {
		t.Error("For leaks the registry's slice")
	}
}
