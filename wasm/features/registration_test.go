package features

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The editing features register late like any other: each registration
// adds exactly its feature with its options, Changed names exactly the
// features whose Monaco providers must be redone, and unregistering takes
// them away again.
func TestRegistryDynamicEditingFeatures(t *testing.T) {
	r, err := NewRegistry(json.RawMessage(`{"hoverProvider":true,"textDocumentSync":{"openClose":true,"change":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	before := r.For("go")
	cases := []struct {
		method, options string
		f               Feature
		json            string // OptionsJSON after registering it
	}{
		{"textDocument/codeAction", `"codeActionKinds":["quickfix","source.organizeImports"],"resolveProvider":true`, CodeAction, `{"kinds":["quickfix","source.organizeImports"]}`},
		{"textDocument/rename", `"prepareProvider":true`, Rename, `{}`},
		{"textDocument/formatting", ``, Formatting, `{}`},
		{"textDocument/rangeFormatting", `"rangesSupport":true`, RangeFormatting, `{"ranges":true}`},
		{"textDocument/onTypeFormatting", `"firstTriggerCharacter":"}","moreTriggerCharacter":[";"]`, OnTypeFormatting, `{"triggerCharacters":["}",";"]}`},
		{"textDocument/documentSymbol", ``, DocumentSymbol, `{}`},
		{"textDocument/foldingRange", ``, FoldingRange, `{}`},
		{"textDocument/documentHighlight", ``, DocumentHighlight, `{}`},
		{"textDocument/inlayHint", `"resolveProvider":true`, InlayHints, `{"resolve":true}`},
		{"textDocument/typeDefinition", ``, TypeDefinition, `{}`},
		{"textDocument/implementation", ``, Implementation, `{}`},
		{"textDocument/declaration", ``, Declaration, `{}`},
	}
	set := before.Set
	for _, c := range cases {
		t.Run(c.f.String(), func(t *testing.T) {
			prev := r.For("go")
			opts := `"documentSelector":[{"language":"go"}]`
			if c.options != "" {
				opts += "," + c.options
			}
			reg := `{"registrations":[{"id":"` + c.f.String() + `","method":"` + c.method + `","registerOptions":{` + opts + `}}]}`
			if err := r.Register(json.RawMessage(reg)); err != nil {
				t.Fatal(err)
			}
			next := r.For("go")
			set = set.With(c.f)
			if next.Set != set {
				t.Errorf("set %b, want %b", next.Set, set)
			}
			if ch := Changed(prev, next); !reflect.DeepEqual(ch, []Feature{c.f}) {
				t.Errorf("changed %v, want only %s", ch, c.f)
			}
			if got := OptionsJSON(next, c.f); got != c.json {
				t.Errorf("options %s, want %s", got, c.json)
			}
			if r.For("python").Set.Has(c.f) {
				t.Error("registered for another language")
			}
		})
	}
	after := r.For("go")
	if !after.CodeActionResolve || !after.RenamePrepare || !after.Resolves.Has(InlayHints) {
		t.Errorf("resolve and prepare flags: %+v", after)
	}

	// Withdrawn: code action, rename and formatting go, and only they.
	if err := r.Unregister(json.RawMessage(`{"unregisterations":[{"id":"codeAction","method":"textDocument/codeAction"},
		{"id":"rename","method":"textDocument/rename"},{"id":"formatting","method":"textDocument/formatting"}]}`)); err != nil {
		t.Fatal(err)
	}
	gone := r.For("go")
	if ch := Changed(after, gone); !reflect.DeepEqual(ch, []Feature{CodeAction, Rename, Formatting}) {
		t.Errorf("changed after unregister %v", ch)
	}
	for _, f := range []Feature{CodeAction, Rename, Formatting} {
		if gone.Allows(f) {
			t.Errorf("%s still allowed", f)
		}
	}
	if gone.CodeActionResolve || gone.RenamePrepare || len(gone.CodeActionKinds) != 0 {
		t.Errorf("withdrawn options linger: %+v", gone)
	}
	if !gone.Allows(RangeFormatting) || !gone.Allows(InlayHints) || !gone.Resolves.Has(InlayHints) {
		t.Errorf("other registrations lost: %+v", gone)
	}
}
