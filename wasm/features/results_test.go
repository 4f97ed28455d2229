package features

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func same(t *testing.T, got, want string) {
	t.Helper()
	if !reflect.DeepEqual(decode(t, got), decode(t, want)) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestHoverResult(t *testing.T) {
	r := `"range":{"start":{"line":0,"character":2},"end":{"line":0,"character":5}}`
	mr := `"range":{"startLineNumber":1,"startColumn":3,"endLineNumber":1,"endColumn":6}`
	cases := []struct{ name, raw, want string }{
		{"null", `null`, `null`},
		{"MarkupContent markdown", `{"contents":{"kind":"markdown","value":"**x**"},` + r + `}`, `{"contents":[{"value":"**x**"}],` + mr + `}`},
		{"MarkupContent plaintext escaped", `{"contents":{"kind":"plaintext","value":"a_b*c\nd"}}`, `{"contents":[{"value":"a\\_b\\*c\n\nd"}]}`},
		{"MarkedString string", `{"contents":"just *md*"}`, `{"contents":[{"value":"just *md*"}]}`},
		{"MarkedString code", `{"contents":{"language":"go","value":"func f()"}}`, "{\"contents\":[{\"value\":\"```go\\nfunc f()\\n```\"}]}"},
		{"MarkedString[]", `{"contents":[{"language":"ts","value":"let x: number"},"docs",""]}`, "{\"contents\":[{\"value\":\"```ts\\nlet x: number\\n```\"},{\"value\":\"docs\"}]}"},
		{"empty contents", `{"contents":[]}`, `null`},
		{"empty string", `{"contents":""}`, `null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := HoverResult(json.RawMessage(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			same(t, got, c.want)
		})
	}
	if f := fence("", "a ``` b"); !strings.HasPrefix(f, "````\n") {
		t.Errorf("fence around backticks: %q", f)
	}
}

func TestLocationsResult(t *testing.T) {
	lr := `{"start":{"line":4,"character":1},"end":{"line":4,"character":3}}`
	mr := `{"startLineNumber":5,"startColumn":2,"endLineNumber":5,"endColumn":4}`
	sel := `{"start":{"line":4,"character":2},"end":{"line":4,"character":3}}`
	msel := `{"startLineNumber":5,"startColumn":3,"endLineNumber":5,"endColumn":4}`
	mapURI := func(u string) string { return strings.Replace(u, "file:///w/", "kandev://s/", 1) }
	cases := []struct{ name, raw, want string }{
		{"null", `null`, `[]`},
		{"Location", `{"uri":"file:///w/a.go","range":` + lr + `}`, `[{"uri":"kandev://s/a.go","range":` + mr + `}]`},
		{"Location[]", `[{"uri":"file:///w/a.go","range":` + lr + `},{"uri":"file:///elsewhere/b.go","range":` + lr + `}]`,
			`[{"uri":"kandev://s/a.go","range":` + mr + `},{"uri":"file:///elsewhere/b.go","range":` + mr + `}]`},
		{"LocationLink[]", `[{"originSelectionRange":` + lr + `,"targetUri":"file:///w/pkg/c.go","targetRange":` + lr + `,"targetSelectionRange":` + sel + `}]`,
			`[{"uri":"kandev://s/pkg/c.go","range":` + mr + `,"targetSelectionRange":` + msel + `,"originSelectionRange":` + mr + `}]`},
		{"empty", `[]`, `[]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := LocationsResult(json.RawMessage(c.raw), mapURI)
			if err != nil {
				t.Fatal(err)
			}
			same(t, got, c.want)
		})
	}
}

func TestReferenceParamsIncludeDeclaration(t *testing.T) {
	req, err := ParsePositionRequest(`{"uri":"kandev://s/a.go","lineNumber":10,"column":3}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req.ReferenceParams("file:///w/a.go"))
	same(t, string(b), `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":9,"character":2},"context":{"includeDeclaration":true}}`)
	b, _ = json.Marshal(req.PositionParams("file:///w/a.go"))
	same(t, string(b), `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":9,"character":2}}`)
	b, _ = json.Marshal(req.SemanticTokensParams("file:///w/a.go"))
	same(t, string(b), `{"textDocument":{"uri":"file:///w/a.go"}}`)
}

func TestSignatureHelp(t *testing.T) {
	req, err := ParseSignatureHelpRequest(`{"uri":"kandev://s/a.go","lineNumber":2,"column":9,"context":{"triggerKind":2,"triggerCharacter":"(","isRetrigger":true,
		"activeSignatureHelp":{"signatures":[{"label":"f(a int)","documentation":{"value":"**d**"},"parameters":[{"label":[2,7],"documentation":"p"}]}],"activeSignature":0,"activeParameter":0}}}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req.Params("file:///w/a.go"))
	same(t, string(b), `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":1,"character":8},"context":{"triggerKind":2,"triggerCharacter":"(","isRetrigger":true,
		"activeSignatureHelp":{"signatures":[{"label":"f(a int)","documentation":{"kind":"markdown","value":"**d**"},"parameters":[{"label":[2,7],"documentation":"p"}]}],"activeSignature":0,"activeParameter":0}}}`)

	inv, _ := ParseSignatureHelpRequest(`{"uri":"u","lineNumber":1,"column":1,"context":{"triggerKind":1,"triggerCharacter":"(","isRetrigger":false}}`)
	b, _ = json.Marshal(inv.Params("file:///w/a.go"))
	same(t, string(b), `{"textDocument":{"uri":"file:///w/a.go"},"position":{"line":0,"character":0},"context":{"triggerKind":1,"isRetrigger":false}}`)

	cases := []struct{ name, raw, want string }{
		{"null", `null`, `null`},
		{"no signatures", `{"signatures":[]}`, `null`},
		{"offsets and strings", `{"signatures":[{"label":"f(a int, b string)","documentation":{"kind":"markdown","value":"F does"},"parameters":[{"label":[2,7]},{"label":"b string","documentation":"the b"}],"activeParameter":1}],"activeSignature":0,"activeParameter":1}`,
			`{"value":{"signatures":[{"label":"f(a int, b string)","documentation":{"value":"F does"},"parameters":[{"label":[2,7]},{"label":"b string","documentation":"the b"}],"activeParameter":1}],"activeSignature":0,"activeParameter":1}}`},
		{"defaults and out-of-range active signature", `{"signatures":[{"label":"g()"}],"activeSignature":5}`,
			`{"value":{"signatures":[{"label":"g()","parameters":[]}],"activeSignature":0,"activeParameter":0}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SignatureHelpResult(json.RawMessage(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			same(t, got, c.want)
		})
	}
}

func TestSemanticTokensResult(t *testing.T) {
	cases := []struct{ name, raw, want string }{
		{"empty data completes", `{"data":[]}`, `{"data":[]}`},
		{"null completes empty", `null`, `{"data":[]}`},
		{"no data completes empty", `{"resultId":"3"}`, `{"data":[],"resultId":"3"}`},
		{"data passes through", `{"resultId":"7","data":[0,4,3,1,0, 1,2,5,0,1]}`, `{"data":[0,4,3,1,0,1,2,5,0,1],"resultId":"7"}`},
		{"delta edits pass through", `{"resultId":"8","edits":[{"start":10,"deleteCount":5},{"start":0,"deleteCount":1,"data":[2,1]}]}`,
			`{"edits":[{"start":10,"deleteCount":5},{"start":0,"deleteCount":1,"data":[2,1]}],"resultId":"8"}`},
		{"delta with no edits", `{"resultId":"9","edits":[]}`, `{"edits":[],"resultId":"9"}`},
		{"a full answer to a delta request", `{"resultId":"9","data":[1,2,3,4,5],"edits":[]}`, `{"data":[1,2,3,4,5],"resultId":"9"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SemanticTokensResult(json.RawMessage(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			if got == "null" || got == "" {
				t.Fatal("an empty answer must not be null")
			}
			same(t, got, c.want)
		})
	}
	same(t, LegendJSON(Legend{}), `{"tokenTypes":[],"tokenModifiers":[]}`)
	if _, err := SemanticTokensResult(json.RawMessage(`{"edits":[{"start":1,}]}`)); err == nil {
		t.Error("malformed edits")
	}
}

func TestDiagnosticsResult(t *testing.T) {
	uri, markers, err := DiagnosticsResult(json.RawMessage(`{"uri":"file:///w/a.go","diagnostics":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":4}},"severity":2,"code":"U1000","source":"staticcheck","message":"unused"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if uri != "file:///w/a.go" {
		t.Errorf("uri %q", uri)
	}
	same(t, markers, `[{"startLineNumber":2,"startColumn":1,"endLineNumber":2,"endColumn":5,"message":"unused","severity":4,"source":"staticcheck","code":"U1000"}]`)
	_, markers, _ = DiagnosticsResult(json.RawMessage(`{"uri":"file:///w/a.go","diagnostics":[]}`))
	if markers != "[]" {
		t.Errorf("clearing markers: %s", markers)
	}
	if a, b := MarkerOwner("s1", "go"), MarkerOwner("s2", "go"); a == b {
		t.Error("two connections share a marker owner")
	}
}
