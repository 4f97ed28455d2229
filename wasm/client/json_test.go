package client

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kandev/lsp/internal/wire"
	"github.com/kandev/lsp/wasm/navigate"
)

func TestParseStatusMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"status":"ready","language":"go","workspacePath":"/w","workspaceUri":"file:///w","repoSubpaths":["",".","a/b"]}`,
		`{"status":"install_failed","error":"exit 1"}`, `{"status":"ready","repoSubpaths":null}`, `null`,
		`{"status":1}`, `{"status":"ready","repoSubpaths":[1]}`, `{"status":"ready","repoSubpaths":"a"}`, `[]`, `{"status"`,
	} {
		var want wire.Status
		werr := json.Unmarshal([]byte(s), &want)
		got, err := parseStatus([]byte(s))
		if (err == nil) != (werr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("parseStatus(%s) = %+v, %v; encoding/json %+v, %v", s, got, err, want, werr)
		}
	}
}

func TestNavigateJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"source":"kandev://s/a.go","sessionId":"s","target":"file:///w/b.go","tabs":[{"id":"1","path":"b.go"},{"id":"2","repo":"r","path":"c.go"}]}`,
		`{"target":"x"}`, `{"tabs":null}`, `null`, `{"tabs":[1]}`, `{"tabs":[{"id":2}]}`, `{"source":false}`, `"x"`,
	} {
		var want NavigateRequest
		werr := json.Unmarshal([]byte(s), &want)
		got, ok := parseNavigateRequest(s)
		if ok != (werr == nil) || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("parseNavigateRequest(%s) = %+v, %v; encoding/json %+v, %v", s, got, ok, want, werr)
		}
	}
	for _, r := range []NavigateResult{
		{Target: navigate.Target{Handled: true, Path: "a.go", Model: "kandev://s/a.go", Ancestors: []string{"x"}}, Session: "s", TabID: "t1"},
		{Target: navigate.Target{Handled: true, Path: "a.go", Repo: "r", RepoPath: "a.go"}, Session: "s"},
		{},
	} {
		want, _ := json.Marshal(r)
		if got := string(r.AppendJSON(nil)); got != string(want) {
			t.Errorf("AppendJSON = %s\nencoding/json = %s", got, want)
		}
	}
}
