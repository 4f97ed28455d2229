package navigate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kandev/lsp/internal/wire"
)

// Expected strings produced by monaco-editor 0.57.0's own
// URI.from({scheme:'kandev', authority, path:'/'+rel}).toString().
var monacoSpellings = []struct{ session, rel, uri string }{
	{"demo", "main.go", "kandev://demo/main.go"},
	{"Sess-1", "a b/ü#?.go", "kandev://sess-1/a%20b/%C3%BC%23%3F.go"},
	{"s", "x:y@z/[1]/+$&,;=~'!()*.go", "kandev://s/x%3Ay%40z/%5B1%5D/%2B%24%26%2C%3B%3D~%27%21%28%29%2A.go"},
	{"abc", "100%/é😀.ts", "kandev://abc/100%25/%C3%A9%F0%9F%98%80.ts"},
}

func TestModelURISpelling(t *testing.T) {
	for _, c := range monacoSpellings {
		if got := ModelURI(c.session, c.rel); got != c.uri {
			t.Errorf("ModelURI(%q, %q) = %q, Monaco says %q", c.session, c.rel, got, c.uri)
		}
		s, rel, ok := ParseModelURI(c.uri)
		if !ok || rel != c.rel || s != lower(c.session) {
			t.Errorf("ParseModelURI(%q) = %q, %q, %v", c.uri, s, rel, ok)
		}
	}
	for _, bad := range []string{"file:///a", "kandev://s", "kandev:///a.go", "kandev://s/", "kandev://s/../x", "kandev://s/%zz", "kandev://s/a/../../b"} {
		if _, _, ok := ParseModelURI(bad); ok {
			t.Errorf("ParseModelURI(%q) accepted", bad)
		}
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// Cross-check with Monaco itself when Node and the demo's monaco-editor
// are present (they are wherever the e2e tests run).
func TestModelURIMatchesMonacoInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	_, file, _, _ := runtime.Caller(0)
	uriJS := filepath.Join(filepath.Dir(file), "..", "..", "webdemo", "node_modules", "monaco-editor", "esm", "vs", "base", "common", "uri.js")
	if _, err := os.Stat(uriJS); err != nil {
		t.Skip("monaco-editor not installed")
	}
	cases := [][2]string{{"demo", "pkg/main.go"}, {"a1", "dir with space/file+1.go"}, {"x", "ünï/😀/%/#?.py"}}
	libs := [][2]string{{"demo", "/usr/lib/go/src/fmt/print.go"}, {"S1", "/root/go/pkg/mod/example.com/m@v1.2.3/a b+ü.go"}}
	docs := [][2]string{{"demo", "jdt://contents/rt.jar/java.lang/String.class?=x%3Cy"}, {"S2", "deno:/asset/lib.deno.d.ts"}, {"s", "fake-doc:///std/ü b.rs"}}
	in, _ := json.Marshal(cases)
	inLib, _ := json.Marshal(libs)
	inDoc, _ := json.Marshal(docs)
	script := `import { URI } from ` + strconvQuote("file://"+uriJS) + `;
const cases = ` + string(in) + `, libs = ` + string(inLib) + `, docs = ` + string(inDoc) + `;
console.log(JSON.stringify(cases.map(([s, p]) => URI.from({scheme: 'kandev', authority: s, path: '/' + p}).toString())
  .concat(libs.map(([s, p]) => URI.from({scheme: 'kandev-lib', authority: s, path: p}).toString()))
  .concat(docs.map(([s, p]) => URI.from({scheme: 'kandev-doc', authority: s, path: '/' + p}).toString()))));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, c := range cases {
		if got := ModelURI(c[0], c[1]); got != want[i] {
			t.Errorf("ModelURI(%q, %q) = %q, Monaco %q", c[0], c[1], got, want[i])
		}
	}
	for i, c := range libs {
		w := want[len(cases)+i]
		if got := LibraryURI(c[0], c[1]); got != w {
			t.Errorf("LibraryURI(%q, %q) = %q, Monaco %q", c[0], c[1], got, w)
		}
		if s, abs, ok := ParseLibraryURI(w); !ok || abs != c[1] || s != lower(c[0]) {
			t.Errorf("ParseLibraryURI(%q) = %q, %q, %v", w, s, abs, ok)
		}
	}
	for i, c := range docs {
		w := want[len(cases)+len(libs)+i]
		if got := ContentURI(c[0], c[1]); got != w {
			t.Errorf("ContentURI(%q, %q) = %q, Monaco %q", c[0], c[1], got, w)
		}
		if s, server, ok := ParseContentURI(w); !ok || server != c[1] || s != lower(c[0]) {
			t.Errorf("ParseContentURI(%q) = %q, %q, %v", w, s, server, ok)
		}
	}
}

// A server document of this session resolves to a read-only content
// target; another session's, or a content URI without a server scheme,
// does not.
func TestResolveServerDocument(t *testing.T) {
	w := Workspace{Session: "s1", Path: "/workspace"}
	u := ContentURI("s1", "fake-doc:///std/lib.rs")
	require.Equal(t, `{"handled":true,"path":"fake-doc:///std/lib.rs","content":true,"model":"`+u+`"}`, w.ResolveJSON(u))
	require.False(t, w.Resolve(ContentURI("s2", "fake-doc:///std/lib.rs")).Handled)
	require.False(t, w.Resolve("kandev-doc://s1/no-scheme").Handled)
	require.Equal(t, "", SchemeOf("/abs/path"))
	require.Equal(t, "jdt", SchemeOf("jdt://contents/x"))
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestTwoSessionsSameTaskHostPath(t *testing.T) {
	a := Workspace{Session: "s1", Path: "/workspace"}
	b := Workspace{Session: "s2", Path: "/workspace"}
	if a.ModelURI("main.go") == b.ModelURI("main.go") {
		t.Error("two sessions share a model")
	}
	if a.ServerURI("main.go") != "file:///workspace/main.go" || a.ServerURI("main.go") != b.ServerURI("main.go") {
		t.Errorf("servers must see the same clean URI: %q %q", a.ServerURI("main.go"), b.ServerURI("main.go"))
	}
	if u, ok := a.ModelToServer(a.ModelURI("pkg/x y.go")); !ok || u != "file:///workspace/pkg/x%20y.go" {
		t.Errorf("ModelToServer = %q, %v", u, ok)
	}
	if _, ok := a.ModelToServer(b.ModelURI("main.go")); ok {
		t.Error("another session's model mapped")
	}
}

func TestResolve(t *testing.T) {
	w := Workspace{Session: "s1", Path: "/srv/task", RepoSubpaths: []string{"repo", "libs/sub"}}
	cases := []struct {
		name string
		uri  string
		want Target
	}{
		{"session-scoped target", "kandev://s1/repo/pkg/a.go", Target{Handled: true, Path: "repo/pkg/a.go", Model: "kandev://s1/repo/pkg/a.go", Ancestors: []string{"repo", "repo/pkg"}, Repo: "repo", RepoPath: "pkg/a.go"}},
		{"server file URI inside", "file:///srv/task/libs/sub/x%20y.go", Target{Handled: true, Path: "libs/sub/x y.go", Model: "kandev://s1/libs/sub/x%20y.go", Ancestors: []string{"libs", "libs/sub"}, Repo: "libs/sub", RepoPath: "x y.go"}},
		{"Monaco file URI inside (other escaping)", "file:///srv/task/top%2Ego", Target{Handled: true, Path: "top.go", Model: "kandev://s1/top.go"}},
		{"outside the workspace", "file:///usr/lib/go/src/fmt/print.go", Target{}},
		{"prefix but not inside", "file:///srv/task2/a.go", Target{}},
		{"escaping the workspace", "file:///srv/task/../other/a.go", Target{}},
		{"another session", "kandev://s2/repo/a.go", Target{}},
		{"other scheme", "inmemory://model/1", Target{}},
		{"the workspace itself", "file:///srv/task", Target{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.Resolve(c.uri); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
	if got := w.ResolveJSON("file:///elsewhere"); got != `{"handled":false}` {
		t.Errorf("ResolveJSON unhandled = %s", got)
	}
	if got := w.ResolveJSON("kandev://s1/a/b.go"); got != `{"handled":true,"path":"a/b.go","model":"kandev://s1/a/b.go","ancestors":["a"]}` {
		t.Errorf("ResolveJSON = %s", got)
	}
}

func TestServerToModel(t *testing.T) {
	w := Workspace{Session: "s1", Path: "/srv/task/"}
	if got := w.ServerToModel("file:///srv/task/a/b.go"); got != "kandev://s1/a/b.go" {
		t.Errorf("inside: %q", got)
	}
	if got := w.ServerToModel("file:///usr/x.go"); got != "file:///usr/x.go" {
		t.Errorf("outside kept: %q", got)
	}
}

// A file outside the workspace opens read-only only when the page reads
// library files (Workspace.Library); its locations then name library
// models, which map back to the clean file:// URI the server knows.
func TestLibraryTargets(t *testing.T) {
	w := Workspace{Session: "S1", Path: "/srv/task", Library: true}
	print := "file:///usr/lib/go/src/fmt/print.go"
	want := Target{Handled: true, Path: "/usr/lib/go/src/fmt/print.go", Library: true, Model: "kandev-lib://s1/usr/lib/go/src/fmt/print.go"}
	for _, uri := range []string{print, want.Model, "file:///usr/lib/go/src/fmt/../fmt/print.go"} {
		if got := w.Resolve(uri); !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve(%q) = %+v", uri, got)
		}
	}
	if got := w.ResolveJSON(print); got != `{"handled":true,"path":"/usr/lib/go/src/fmt/print.go","library":true,"model":"kandev-lib://s1/usr/lib/go/src/fmt/print.go"}` {
		t.Errorf("ResolveJSON = %s", got)
	}
	if got := w.ServerToModel(print); got != want.Model {
		t.Errorf("ServerToModel = %q", got)
	}
	if got, ok := w.ModelToServer(want.Model); !ok || got != print {
		t.Errorf("ModelToServer = %q, %v", got, ok)
	}
	// Inside the workspace a file is a workspace file still.
	if got := w.Resolve("file:///srv/task/a.go"); got.Library || got.Path != "a.go" {
		t.Errorf("inside: %+v", got)
	}
	for _, uri := range []string{"kandev-lib://s2/usr/x.go", "kandev-lib://s1/", "kandev-lib://s1", "kandev-lib:///usr/x.go", "kandev-lib://s1/%zz"} {
		if got := w.Resolve(uri); got.Handled {
			t.Errorf("Resolve(%q) handled: %+v", uri, got)
		}
	}
	if _, ok := w.ModelToServer("kandev-lib://s2/usr/x.go"); ok {
		t.Error("another session's library model mapped")
	}
	// Without Library, nothing outside the workspace is handled, as before.
	w.Library = false
	if got := w.Resolve(print); got.Handled {
		t.Errorf("no library: %+v", got)
	}
	if got := w.Resolve(want.Model); got.Handled {
		t.Errorf("no library, library URI: %+v", got)
	}
	if got := w.ServerToModel(print); got != print {
		t.Errorf("no library: ServerToModel = %q", got)
	}
}

func TestAncestors(t *testing.T) {
	cases := map[string][]string{"a.go": nil, "a/b.go": {"a"}, "a/b/c/d.go": {"a", "a/b", "a/b/c"}}
	for rel, want := range cases {
		if got := Ancestors(rel); !reflect.DeepEqual(got, want) {
			t.Errorf("Ancestors(%q) = %q, want %q", rel, got, want)
		}
	}
}

func TestFindOpenUnderRepositoryIdentity(t *testing.T) {
	w := Workspace{Session: "s1", Path: "/srv/task", RepoSubpaths: []string{"repo"}}
	tabs := []Tab{{ID: "t1", Path: "README.md"}, {ID: "t2", Repo: "repo", Path: "x.go"}, {ID: "t3", Path: "repo/pkg/y.go"}}
	cases := []struct {
		rel, id string
		ok      bool
	}{
		{"repo/x.go", "t2", true},     // open repo-relative, target from the task root
		{"repo/pkg/y.go", "t3", true}, // open task-root-relative
		{"README.md", "t1", true},
		{"repo/z.go", "", false},
	}
	for _, c := range cases {
		id, ok := w.FindOpen(c.rel, tabs)
		if id != c.id || ok != c.ok {
			t.Errorf("FindOpen(%q) = %q, %v", c.rel, id, ok)
		}
	}
	// A target resolved from a server URI matches the tab opened from the
	// Files tree under its task-root identity.
	tgt := w.Resolve("file:///srv/task/repo/pkg/y.go")
	if id, ok := w.FindOpen(tgt.Path, tabs); !ok || id != "t3" {
		t.Errorf("resolved target not matched: %+v", tgt)
	}
	if r, s, ok := (Workspace{RepoSubpaths: []string{"."}}).RepoRelative("a/b.go"); !ok || r != "" || s != "a/b.go" {
		t.Errorf("workspace-as-repo: %q %q %v", r, s, ok)
	}
}

func TestFromReady(t *testing.T) {
	w, ok := FromReady("s", wire.Status{Status: "ready", WorkspaceURI: "file:///srv/my%20task", RepoSubpaths: []string{"r"}})
	if !ok || w.Path != "/srv/my task" || w.ServerURI("a.go") != "file:///srv/my%20task/a.go" {
		t.Errorf("FromReady uri: %+v %v", w, ok)
	}
	w, ok = FromReady("s", wire.Status{Status: "ready", WorkspacePath: "/w"})
	if !ok || w.Path != "/w" {
		t.Errorf("FromReady path: %+v", w)
	}
	if _, ok := FromReady("s", wire.Status{Status: "ready"}); ok {
		t.Error("ready without a workspace accepted")
	}
}
