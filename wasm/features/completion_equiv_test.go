package features

import (
	"encoding/json"
	"reflect"
	"testing"
)

var equivSeeds = []string{
	`null`, `[]`, `{"isIncomplete":true,"items":[]}`, `{"items":null}`,
	`[{"label":"a"}]`,
	`[{"label":"x","kind":7,"tags":[1],"detail":"d","documentation":"plain","sortText":"s","filterText":"f","preselect":true,"insertText":"x()","insertTextFormat":2,"commitCharacters":["."],"data":{"deep":[1,{"a":null}]},"command":{"title":"t","command":"c"}}]`,
	`[{"label":"y","labelDetails":{"detail":"(a)","description":"pkg"},"documentation":{"kind":"markdown","value":"**b**"},"textEdit":{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"newText":"yy"}}]`,
	`[{"label":"z","textEdit":{"newText":"zz","insert":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"replace":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}}},"additionalTextEdits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"import \"z\"\n"}]}]`,
	`{"isIncomplete":false,"itemDefaults":{"editRange":{"start":{"line":3,"character":1},"end":{"line":3,"character":2}},"commitCharacters":["("],"insertTextFormat":2,"data":1},"items":[{"label":"d","textEditText":"d$0"},{"label":"e","commitCharacters":[]}]}`,
	`{"items":[{"label":"\u00e9\ud83d\ude00\n\"q\"","documentation":{"kind":"plaintext","value":"a\tb"},"deprecated":true,"labelDetails":{"detail":""}}],"isIncomplete":true}`,
	` [ { "label" : "spaced" , "kind" : 25 } ] `,
	// LSP 3.18 applyKind: Merge joins the defaults' commit characters and
	// the item's own; Replace (and no applyKind) is 3.17's rule.
	`{"applyKind":{"commitCharacters":2,"data":2},"itemDefaults":{"commitCharacters":[ "(" ]},"items":[{"label":"m","commitCharacters":[ "." , ";" ]},{"label":"n"},{"label":"o","commitCharacters":[ ]}]}`,
	`{"applyKind":{"commitCharacters":1},"itemDefaults":{"commitCharacters":["("]},"items":[{"label":"r","commitCharacters":["."]},{"label":"s"}]}`,
	`{"applyKind":null,"items":[{"label":"t","commitCharacters":["."]}]}`,
}

// The scanner-based mapping agrees with the encoding/json reference.
func TestCompletionMatchesReference(t *testing.T) {
	req := CompletionRequest{PositionRequest: PositionRequest{LineNumber: 4, Column: 3}, WordStart: 2, WordEnd: 5}
	for _, seed := range equivSeeds {
		fast, err1 := CompletionResult(json.RawMessage(seed), req)
		ref, err2 := refCompletionResult(json.RawMessage(seed), req)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: fast %v, reference %v", seed, err1, err2)
		}
		if !reflect.DeepEqual(decode(t, fast), decode(t, ref)) {
			t.Errorf("%s\nfast %s\nref  %s", seed, fast, ref)
		}
	}
	for _, bad := range []string{`{`, `[{"label":"a"`, `[{"kind":1}]`, `[{"label":"a\x01"}]`, `[{"label":"a\q"}]`, `{"items":[1]}`, `"str"`, `[{"label":"a"},]`} {
		if out, err := CompletionResult(json.RawMessage(bad), req); err == nil {
			t.Errorf("%q accepted: %s", bad, out)
		}
	}
}

// Whatever the server sends, the result is an error or valid JSON in
// Monaco's shape. (On well-formed input the reference comparison above
// applies; on malformed items the two legitimately differ, e.g. the
// scanner drops an additional edit without newText.)
func FuzzCompletionResult(f *testing.F) {
	for _, s := range equivSeeds {
		f.Add(s)
	}
	req := CompletionRequest{PositionRequest: PositionRequest{LineNumber: 1, Column: 1}}
	f.Fuzz(func(t *testing.T, in string) {
		fast, err := CompletionResult(json.RawMessage(in), req)
		if err != nil {
			return
		}
		var v struct {
			Suggestions []map[string]any `json:"suggestions"`
			Incomplete  *bool            `json:"incomplete"`
		}
		if json.Unmarshal([]byte(fast), &v) != nil || v.Incomplete == nil {
			t.Fatalf("invalid result %q from %q", fast, in)
		}
		for _, s := range v.Suggestions {
			if s["label"] == nil || s["insertText"] == nil || s["range"] == nil || s["kind"] == nil {
				t.Fatalf("incomplete suggestion %v from %q", s, in)
			}
		}
	})
}

// ApplyKind Merge (LSP 3.18) gives each item the union of the defaults'
// commit characters and its own; an item with none, or an empty list,
// keeps the defaults'.
func TestCompletionApplyKindMergesCommitCharacters(t *testing.T) {
	out, err := CompletionResult(json.RawMessage(equivSeeds[len(equivSeeds)-3]), CompletionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Suggestions []struct {
			Label            string   `json:"label"`
			CommitCharacters []string `json:"commitCharacters"`
		} `json:"suggestions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"m": {"(", ".", ";"}, "n": {"("}, "o": {"("}}
	for _, s := range got.Suggestions {
		if !reflect.DeepEqual(s.CommitCharacters, want[s.Label]) {
			t.Errorf("%s: %v, want %v", s.Label, s.CommitCharacters, want[s.Label])
		}
	}
}
