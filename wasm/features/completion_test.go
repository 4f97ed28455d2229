package features

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestMonacoCompletionKindAll25(t *testing.T) {
	// LSP 3.17 CompletionItemKind → monaco-editor 0.57.0 CompletionItemKind
	// (monaco.d.ts: Method=0 … Snippet=28), spelled out by name.
	monaco := map[string]int{"Method": 0, "Function": 1, "Constructor": 2, "Field": 3, "Variable": 4, "Class": 5, "Struct": 6, "Interface": 7, "Module": 8, "Property": 9, "Event": 10, "Operator": 11, "Unit": 12, "Value": 13, "Constant": 14, "Enum": 15, "EnumMember": 16, "Keyword": 17, "Text": 18, "Color": 19, "File": 20, "Reference": 21, "Customcolor": 22, "Folder": 23, "TypeParameter": 24, "User": 25, "Issue": 26, "Tool": 27, "Snippet": 28}
	lsp := []string{1: "Text", 2: "Method", 3: "Function", 4: "Constructor", 5: "Field", 6: "Variable", 7: "Class", 8: "Interface", 9: "Module", 10: "Property", 11: "Unit", 12: "Value", 13: "Enum", 14: "Keyword", 15: "Snippet", 16: "Color", 17: "File", 18: "Reference", 19: "Folder", 20: "EnumMember", 21: "Constant", 22: "Struct", 23: "Event", 24: "Operator", 25: "TypeParameter"}
	for k := 1; k <= 25; k++ {
		t.Run(lsp[k], func(t *testing.T) {
			want := monaco[lsp[k]]
			if got := MonacoCompletionKind(k); got != want {
				t.Errorf("LSP %d (%s) → %d, want %d", k, lsp[k], got, want)
			}
			// And through the whole mapping.
			out, err := CompletionResult(json.RawMessage(`[{"label":"x","kind":`+strconv.Itoa(k)+`}]`), CompletionRequest{PositionRequest: PositionRequest{LineNumber: 1, Column: 1}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, `"kind":`+strconv.Itoa(want)+`,`) {
				t.Errorf("result %s lacks kind %d", out, want)
			}
		})
	}
	for _, k := range []int{0, -1, 26, 99} {
		if got := MonacoCompletionKind(k); got != 18 {
			t.Errorf("unknown kind %d → %d, want Text (18)", k, got)
		}
	}
}

func TestCompletionTriggerKinds(t *testing.T) {
	cases := []struct {
		name       string
		monacoKind int
		char       string
		wantKind   int
		wantChar   string
	}{
		{"invoke", 0, "", 1, ""},
		{"trigger character", 1, ".", 2, "."},
		{"incomplete", 2, "", 3, ""},
		{"incomplete drops a stray char", 2, ".", 3, ""},
		{"invoke drops a stray char", 0, ".", 1, ""},
		{"unknown is invoke", 7, "", 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js := `{"uri":"kandev://s/a.go","lineNumber":3,"column":5,"wordStart":4,"wordEnd":5,"triggerKind":` + strconv.Itoa(c.monacoKind) + `,"triggerCharacter":` + strconv.Quote(c.char) + `}`
			req, err := ParseCompletionRequest(js)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(req.Params("file:///w/a.go"))
			var got map[string]any
			_ = json.Unmarshal(b, &got)
			want := map[string]any{
				"textDocument": map[string]any{"uri": "file:///w/a.go"},
				"position":     map[string]any{"line": 2.0, "character": 4.0},
				"context":      map[string]any{"triggerKind": float64(c.wantKind)},
			}
			if c.wantChar != "" {
				want["context"].(map[string]any)["triggerCharacter"] = c.wantChar
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("params %s, want %v", b, want)
			}
		})
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return v
}

func rng(sl, sc, el, ec int) map[string]any {
	return map[string]any{"startLineNumber": float64(sl), "startColumn": float64(sc), "endLineNumber": float64(el), "endColumn": float64(ec)}
}

func TestCompletionResult(t *testing.T) {
	// Cursor at line 3 column 7, inside the word "fooba|r" starting at 4.
	inWord := CompletionRequest{PositionRequest: PositionRequest{URI: "kandev://s/a.go", LineNumber: 3, Column: 7}, WordStart: 4, WordEnd: 8}
	atEnd := CompletionRequest{PositionRequest: PositionRequest{URI: "kandev://s/a.go", LineNumber: 3, Column: 7}, WordStart: 4, WordEnd: 7}
	cases := []struct {
		name string
		raw  string
		req  CompletionRequest
		want string
	}{
		{"null", `null`, atEnd, `{"suggestions":[],"incomplete":false}`},
		{"empty array", `[]`, atEnd, `{"suggestions":[],"incomplete":false}`},
		{"list isIncomplete kept", `{"isIncomplete":true,"items":[]}`, atEnd, `{"suggestions":[],"incomplete":true}`},
		{"list complete", `{"isIncomplete":false,"items":[{"label":"a"}]}`, atEnd,
			`{"suggestions":[{"label":"a","kind":18,"insertText":"a","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"no textEdit: word before cursor", `[{"label":"foobar","kind":3}]`, atEnd,
			`{"suggestions":[{"label":"foobar","kind":1,"insertText":"foobar","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"no textEdit inside a word: insert/replace from the word", `[{"label":"foobar","insertText":"foobar()"}]`, inWord,
			`{"suggestions":[{"label":"foobar","kind":18,"insertText":"foobar()","range":{"insert":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7},"replace":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":8}}}],"incomplete":false}`},
		{"TextEdit is authoritative", `[{"label":"Println","insertText":"ignored","textEdit":{"range":{"start":{"line":2,"character":1},"end":{"line":2,"character":6}},"newText":"Println"}}]`, inWord,
			`{"suggestions":[{"label":"Println","kind":18,"insertText":"Println","range":{"startLineNumber":3,"startColumn":2,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"InsertReplaceEdit gives the dual range", `[{"label":"x","textEdit":{"newText":"xy","insert":{"start":{"line":2,"character":3},"end":{"line":2,"character":6}},"replace":{"start":{"line":2,"character":3},"end":{"line":2,"character":9}}}}]`, atEnd,
			`{"suggestions":[{"label":"x","kind":18,"insertText":"xy","range":{"insert":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7},"replace":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":10}}}],"incomplete":false}`},
		{"snippet rule", `[{"label":"for","kind":15,"insertTextFormat":2,"insertText":"for ${1:i} {\n\t$0\n}"}]`, atEnd,
			`{"suggestions":[{"label":"for","kind":28,"insertText":"for ${1:i} {\n\t$0\n}","insertTextRules":4,"range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"every field", `[{"label":"Fn","labelDetails":{"detail":"(a int)","description":"pkg"},"kind":2,"tags":[1],"detail":"func()","documentation":{"kind":"markdown","value":"**doc**"},"sortText":"0001","filterText":"fn","preselect":true,"insertText":"Fn","commitCharacters":["("],"additionalTextEdits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"import \"x\"\n"}],"data":{"k":1}}]`, atEnd,
			`{"suggestions":[{"label":{"label":"Fn","detail":"(a int)","description":"pkg"},"kind":0,"tags":[1],"detail":"func()","documentation":{"value":"**doc**"},"sortText":"0001","filterText":"fn","preselect":true,"insertText":"Fn","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7},"commitCharacters":["("],"additionalTextEdits":[{"range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1},"text":"import \"x\"\n"}]}],"incomplete":false}`},
		{"deprecated flag and plain documentation", `[{"label":"old","deprecated":true,"documentation":"plain *text*"}]`, atEnd,
			`{"suggestions":[{"label":"old","kind":18,"tags":[1],"documentation":"plain *text*","insertText":"old","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"plaintext MarkupContent stays plain", `[{"label":"a","documentation":{"kind":"plaintext","value":"a_b"}}]`, atEnd,
			`{"suggestions":[{"label":"a","kind":18,"documentation":"a_b","insertText":"a","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"itemDefaults editRange, textEditText, format, commit", `{"isIncomplete":true,"itemDefaults":{"editRange":{"insert":{"start":{"line":2,"character":3},"end":{"line":2,"character":6}},"replace":{"start":{"line":2,"character":3},"end":{"line":2,"character":7}}},"insertTextFormat":2,"commitCharacters":["."]},"items":[{"label":"a","textEditText":"a$0"},{"label":"b","textEdit":{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":1}},"newText":"bb"},"insertTextFormat":1,"commitCharacters":[]}]}`, atEnd,
			`{"suggestions":[{"label":"a","kind":18,"insertText":"a$0","insertTextRules":4,"range":{"insert":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7},"replace":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":8}},"commitCharacters":["."]},{"label":"b","kind":18,"insertText":"bb","range":{"startLineNumber":3,"startColumn":1,"endLineNumber":3,"endColumn":2}}],"incomplete":true}`},
		{"itemDefaults plain Range", `{"isIncomplete":false,"itemDefaults":{"editRange":{"start":{"line":2,"character":3},"end":{"line":2,"character":6}}},"items":[{"label":"a"}]}`, atEnd,
			`{"suggestions":[{"label":"a","kind":18,"insertText":"a","range":{"startLineNumber":3,"startColumn":4,"endLineNumber":3,"endColumn":7}}],"incomplete":false}`},
		{"escaping", "[{\"label\":\"q\\\"\\\\\\u0001\\u2028é😀\"}]", CompletionRequest{PositionRequest: PositionRequest{LineNumber: 1, Column: 1}},
			`{"suggestions":[{"label":"q\"\\\u0001\u2028é😀","kind":18,"insertText":"q\"\\\u0001\u2028é😀","range":{"startLineNumber":1,"startColumn":1,"endLineNumber":1,"endColumn":1}}],"incomplete":false}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CompletionResult(json.RawMessage(c.raw), c.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(decode(t, got), decode(t, c.want)) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	if _, err := CompletionResult(json.RawMessage(`{"items":5}`), atEnd); err == nil {
		t.Error("malformed result accepted")
	}
}

// The hand-written JSON must agree with encoding/json on every string.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\"back\\slash", "\x00\x1f\x7f", "tab\tnl\nret\r", "\u2028\u2029", "héllo 😀", "bad\xffutf8", "<>&"} {
		var back string
		if err := json.Unmarshal(appendString(nil, s), &back); err != nil {
			t.Fatalf("%q: %v (%s)", s, err, appendString(nil, s))
		}
		var want string
		enc, _ := json.Marshal(s)
		_ = json.Unmarshal(enc, &want)
		if back != want {
			t.Errorf("%q round-trips to %q, encoding/json to %q", s, back, want)
		}
	}
}
