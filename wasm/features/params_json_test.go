package features

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// The params are sent through jsonrpc with their AppendJSON methods; they
// must mean what encoding/json would have sent.
func TestParamsAppendJSONMatchesEncodingJSON(t *testing.T) {
	pos := PositionRequest{URI: "inmemory://m", LineNumber: 3, Column: 5}
	sig, err := ParseSignatureHelpRequest(`{"uri":"m","lineNumber":2,"column":4,"context":{"triggerKind":2,"triggerCharacter":"(","isRetrigger":true,
		"activeSignatureHelp":{"signatures":[{"label":"f(a, b)","documentation":{"value":"**doc**"},"parameters":[{"label":[2,3],"documentation":"plain"},{"label":"b"}],"activeParameter":1}],"activeSignature":0,"activeParameter":1}}}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []jsonlite.Appender{
		CompletionRequest{PositionRequest: pos, TriggerKind: 1, TriggerCharacter: "."}.Params("file:///a.go"),
		CompletionRequest{PositionRequest: pos}.Params("file:///a.go"),
		pos.ReferenceParams("file:///a.go"),
		pos.SemanticTokensParams("file:///a.go"),
		pos.PositionParams("file:///a.go"),
		sig.Params("file:///a.go"),
		SignatureHelpRequest{PositionRequest: pos}.Params("file:///a.go"),
	} {
		got := a.AppendJSON(nil)
		want, _ := json.Marshal(a)
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("AppendJSON wrote invalid JSON %s: %v", got, err)
		}
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("AppendJSON = %s\nencoding/json = %s", got, want)
		}
	}
	var ctx struct {
		Context struct {
			ActiveSignatureHelp struct {
				Signatures []struct {
					Documentation any `json:"documentation"`
					Parameters    []struct {
						Label         any `json:"label"`
						Documentation any `json:"documentation"`
					} `json:"parameters"`
				} `json:"signatures"`
			} `json:"activeSignatureHelp"`
		} `json:"context"`
	}
	if err := json.Unmarshal(sig.Params("u").AppendJSON(nil), &ctx); err != nil {
		t.Fatal(err)
	}
	s := ctx.Context.ActiveSignatureHelp.Signatures[0]
	if !reflect.DeepEqual(s.Documentation, map[string]any{"kind": "markdown", "value": "**doc**"}) || s.Parameters[0].Documentation != "plain" || s.Parameters[1].Documentation != nil {
		t.Errorf("active signature help not converted to LSP: %+v", s)
	}
}
