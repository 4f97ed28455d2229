package watched

import (
	"testing"

	"github.com/kandev/lsp/internal/wire"
	j "github.com/kandev/lsp/wasm/jsonlite"
)

const root = "/srv/my task"

// frame is a files frame with five changes.
const frame = `{"files":[{"path":"greet/greet.go","type":2},{"path":"go.mod","type":1},{"path":"README.md","type":2},` +
	`{"path":"old.go","type":3},{"path":"web/node_modules/x/index.js","type":1}]}`

// params runs Frame over frame with the registrations' options.
func params(t *testing.T, options ...string) string {
	t.Helper()
	var regs []j.Raw
	for _, o := range options {
		regs = append(regs, j.Raw(o))
	}
	p, err := Frame([]byte(frame), root, regs, func(string, int) {})
	if err != nil {
		t.Fatal(err)
	}
	return string(p)
}

func TestFrameParams(t *testing.T) {
	if got := params(t); got != "" {
		t.Fatalf("no registration, yet %s", got)
	}
	cases := []struct {
		name, options string // registerOptions
		want          string // "" for no notification
	}{
		{
			name:    "relative pattern with a workspace folder base, as gopls registers",
			options: `{"watchers":[{"globPattern":{"baseUri":{"uri":"file:///srv/my%20task","name":"task"},"pattern":"**/*.{go,mod,sum,work,tmpl}"},"kind":7}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/greet/greet.go","type":2},{"uri":"file:///srv/my%20task/go.mod","type":1},{"uri":"file:///srv/my%20task/old.go","type":3}]}`,
		},
		{
			name:    "relative pattern with a URI base below the workspace",
			options: `{"watchers":[{"globPattern":{"baseUri":"file:///srv/my%20task/greet/","pattern":"*.go"}}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/greet/greet.go","type":2}]}`,
		},
		{
			name:    "plain patterns, matched against the absolute path",
			options: `{"watchers":[{"globPattern":"**/*.md"},{"globPattern":"/srv/my task/**/*.js"}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/README.md","type":2},{"uri":"file:///srv/my%20task/web/node_modules/x/index.js","type":1}]}`,
		},
		{
			name:    "watch kinds: deletions only; two watchers matching one change send it once",
			options: `{"watchers":[{"globPattern":"**/*.go","kind":4},{"globPattern":"**/old.*","kind":4}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/old.go","type":3}]}`,
		},
		{
			name:    "create and change kinds only",
			options: `{"watchers":[{"globPattern":"**/*.go","kind":3}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/greet/greet.go","type":2}]}`,
		},
		{
			name:    "a base elsewhere, or not a file URI, matches nothing here",
			options: `{"watchers":[{"globPattern":{"baseUri":"file:///srv/other","pattern":"**/*"}},{"globPattern":{"baseUri":"untitled:x","pattern":"**/*"}}]}`,
		},
		{
			name:    "malformed watchers are skipped",
			options: `{"watchers":[{"globPattern":1},{"globPattern":{"baseUri":"file:///srv/my%20task"}},{"kind":7},{"globPattern":"**/*.mod","kind":"all"}]}`,
			want:    `{"changes":[{"uri":"file:///srv/my%20task/go.mod","type":1}]}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := params(t, c.options); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// Two registrations: each change once, whichever asks.
func TestFrameAcrossRegistrations(t *testing.T) {
	got := params(t, `{"watchers":[{"globPattern":"**/*.go"}]}`, `{"watchers":[{"globPattern":"**/*.md"}]}`, `not json`)
	if want := `{"changes":[{"uri":"file:///srv/my%20task/greet/greet.go","type":2},{"uri":"file:///srv/my%20task/README.md","type":2},{"uri":"file:///srv/my%20task/old.go","type":3}]}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFrameEntries(t *testing.T) {
	var got []wire.FileChange
	_, err := Frame([]byte(`{"files":[{"path":"a/b.go","type":2},{"path":"../x","type":1},{"path":"/abs","type":1},
		{"path":"c","type":9},{"path":"","type":1},{"path":"d/./e","type":1},{"path":"f","type":"1"},{"path":"g","type":3}]}`),
		root, nil, func(rel string, typ int) { got = append(got, wire.FileChange{Path: rel, Type: typ}) })
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.FileChange{{Path: "a/b.go", Type: wire.FileChanged}, {Path: "g", Type: wire.FileDeleted}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{`{"files":{}}`, `{"status":"ready"}`, `{`} {
		if _, err := Frame([]byte(bad), root, nil, func(string, int) {}); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
