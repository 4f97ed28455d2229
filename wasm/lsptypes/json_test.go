package lsptypes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kandev/lsp/wasm/jsonlite"
)

// sameJSON checks that a hand-written encoding means what encoding/json's
// encoding of the same value means.
func sameJSON(t *testing.T, a jsonlite.Appender, v any) {
	t.Helper()
	got := a.AppendJSON(nil)
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("AppendJSON wrote invalid JSON %s: %v", got, err)
	}
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("AppendJSON = %s\nencoding/json = %s", got, want)
	}
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	r := Range{Start: Position{Line: 1, Character: 2}, End: Position{Line: 3, Character: 4}}
	text := "saved <text> & \"more\"\n"
	for _, v := range []jsonlite.Appender{
		r.Start, r, Location{URI: "file:///a", Range: r},
		TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: "file:///a"}, Position: r.End},
		DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: "file:///a", LanguageID: "go", Version: 3, Text: text}},
		DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{URI: "u", Version: -1}},
		DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{URI: "u", Version: 2},
			ContentChanges: []TextDocumentContentChangeEvent{{Range: &r, Text: "x"}, {Text: "whole"}}},
		DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: "u"}},
		DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: "u"}, Text: &text},
		DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: "u"}},
	} {
		sameJSON(t, v, v)
	}
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"uri":"file:///a","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}`,
		`{"uri":"file:///a"}`, `null`, `{"uri":1}`, `{"range":{"start":{"line":-1}}}`, `[]`,
		`{"range":{"start":{"line":4294967296}}}`, `{"range":{"end":{"character":1.5}}}`,
	} {
		v, err := jsonlite.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		var want Location
		werr := json.Unmarshal([]byte(s), &want)
		got, ok := ParseLocation(v)
		if ok != (werr == nil) || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("ParseLocation(%s) = %+v, %v; encoding/json %+v, %v", s, got, ok, want, werr)
		}
	}
	for _, s := range []string{
		`{"targetUri":"u","targetRange":{"start":{"line":1}},"targetSelectionRange":{},"originSelectionRange":{"end":{"line":2}}}`,
		`{"targetUri":"u","originSelectionRange":null}`, `{"originSelectionRange":5}`,
	} {
		v, _ := jsonlite.Parse([]byte(s))
		var want LocationLink
		werr := json.Unmarshal([]byte(s), &want)
		got, ok := ParseLocationLink(v)
		if ok != (werr == nil) || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("ParseLocationLink(%s) = %+v, %v; encoding/json %+v, %v", s, got, ok, want, werr)
		}
	}
	for _, s := range []string{`{"range":{},"newText":"x"}`, `{"newText":5}`, `{"kind":"markdown","value":"v"}`, `{"kind":true}`} {
		v, _ := jsonlite.Parse([]byte(s))
		var te TextEdit
		werr := json.Unmarshal([]byte(s), &te)
		if got, ok := ParseTextEdit(v); ok != (werr == nil) || ok && got != te {
			t.Errorf("ParseTextEdit(%s) = %+v, %v", s, got, ok)
		}
		var mc MarkupContent
		werr = json.Unmarshal([]byte(s), &mc)
		if got, ok := ParseMarkupContent(v); ok != (werr == nil) || ok && got != mc {
			t.Errorf("ParseMarkupContent(%s) = %+v, %v", s, got, ok)
		}
	}
}
