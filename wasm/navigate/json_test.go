package navigate

import (
	"encoding/json"
	"testing"
)

func TestTargetJSONMatchesEncodingJSON(t *testing.T) {
	for _, tg := range []Target{
		{},
		{Handled: true, Path: "a/b.go", Model: "kandev://s/a/b.go", Ancestors: []string{"a"}, Repo: "r", RepoPath: "b.go"},
		{Handled: true, Path: "x.go", Ancestors: []string{}},
		{Handled: true, Path: "/usr/lib/go/src/fmt/print.go", Library: true, Model: "kandev-lib://s/usr/lib/go/src/fmt/print.go"},
	} {
		want, _ := json.Marshal(tg)
		if got := string(tg.AppendJSON(nil)); got != string(want) {
			t.Errorf("AppendJSON = %s\nencoding/json = %s", got, want)
		}
	}
}
