package lsptypes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kandev/lsp/wasm/jsonlite"
	"github.com/stretchr/testify/require"
)

func TestLifecycleAppendJSONMatchesEncodingJSON(t *testing.T) {
	pid := int32(7)
	for _, v := range []jsonlite.Appender{
		InitializeParams{},
		InitializeParams{
			ProcessID:  &pid,
			ClientInfo: &ClientInfo{Name: "kandev", Version: "1"},
			RootURI:    "file:///w",
			Capabilities: ClientCapabilities{
				Workspace:    &WorkspaceClientCapabilities{WorkspaceFolders: true, Configuration: true, DidChangeConfiguration: &DynamicRegistration{}},
				TextDocument: jsonlite.Raw(`{"synchronization":{"didSave":true}}`),
				Window:       &WindowClientCapabilities{WorkDoneProgress: true},
			},
			WorkspaceFolders:      []WorkspaceFolder{{URI: "file:///w", Name: "w"}},
			WorkDoneToken:         jsonlite.Raw(`"tok"`),
			InitializationOptions: jsonlite.Raw(`{"a":[1]}`),
		},
		InitializeParams{ClientInfo: &ClientInfo{Name: "n"}, WorkspaceFolders: []WorkspaceFolder{},
			Capabilities: ClientCapabilities{Workspace: &WorkspaceClientCapabilities{DidChangeConfiguration: &DynamicRegistration{DynamicRegistration: true}}, Window: &WindowClientCapabilities{}}},
		DidChangeConfigurationParams{},
		DidChangeConfigurationParams{Settings: jsonlite.Raw(`{"x":true}`)},
	} {
		sameJSON(t, v, v)
	}
}

func TestLifecycleParseMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"uri":"file:///a","version":3,"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"severity":2,"code":"E1","source":"vet","message":"m"},{"message":"x","code":12},null]}`,
		`{"uri":"u","diagnostics":null}`, `{"uri":"u"}`, `null`, `{"uri":5}`, `{"version":"1"}`, `{"version":3000000000}`,
		`{"diagnostics":{}}`, `{"diagnostics":[{"severity":"high"}]}`, `{"diagnostics":[5]}`, `[]`, `{`,
	} {
		var want PublishDiagnosticsParams
		werr := json.Unmarshal([]byte(s), &want)
		got, err := ParsePublishDiagnosticsParams([]byte(s))
		for i := range got.Diagnostics {
			got.Diagnostics[i].Raw = nil // not a JSON member: the whole diagnostic
		}
		if (err == nil) != (werr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePublishDiagnosticsParams(%s) = %+v, %v; encoding/json %+v, %v", s, got, err, want, werr)
		}
	}
	for _, s := range []string{`{"items":[{"section":"gopls"},{"scopeUri":"file:///a"},null]}`, `{"items":null}`, `{}`, `{"items":[1]}`, `{"items":[{"section":2}]}`, `1`} {
		var want ConfigurationParams
		werr := json.Unmarshal([]byte(s), &want)
		got, err := ParseConfigurationParams([]byte(s))
		if (err == nil) != (werr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("ParseConfigurationParams(%s) = %+v, %v; encoding/json %+v, %v", s, got, err, want, werr)
		}
	}
	for _, s := range []string{`{"capabilities":{"hoverProvider":true},"serverInfo":{"name":"gopls","version":"v1"}}`, `{"capabilities":null}`, `{}`, `{"serverInfo":null}`, `{"serverInfo":{"name":1}}`, `{"serverInfo":[]}`, `"x"`} {
		var want InitializeResult
		werr := json.Unmarshal([]byte(s), &want)
		got, err := ParseInitializeResult([]byte(s))
		if (err == nil) != (werr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("ParseInitializeResult(%s) = %+v, %v; encoding/json %+v, %v", s, got, err, want, werr)
		}
	}
}

// LSP 3.18: a diagnostic's message may be MarkupContent; Monaco's markers
// show plain text, so Markdown loses its marks, not its words.
func TestMarkupDiagnosticMessage(t *testing.T) {
	for _, c := range []struct{ message, want string }{
		{`"plain"`, "plain"},
		{`{"kind":"plaintext","value":"a *b* [c](d)"}`, "a *b* [c](d)"},
		{"{\"kind\":\"markdown\",\"value\":\"Use `fmt.Println` instead of **print**; see [the docs](https://go.dev/doc) or \\\\*this\\\\*.\"}",
			"Use fmt.Println instead of print; see the docs or *this*."},
		{`{"kind":"markdown","value":"snake_case_name stays, _emphasis_ goes"}`, "snake_case_name stays, emphasis goes"},
		{`{"kind":"markdown","value":"[unclosed link"}`, "[unclosed link"},
	} {
		v, err := jsonlite.Parse([]byte(`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":` + c.message + `}`))
		require.NoError(t, err)
		d, ok := ParseDiagnostic(v)
		require.True(t, ok, c.message)
		require.Equal(t, c.want, d.Message, c.message)
	}
	v, _ := jsonlite.Parse([]byte(`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":{"kind":"markdown"}}`))
	_, ok := ParseDiagnostic(v)
	require.False(t, ok, "MarkupContent without a value")
}
