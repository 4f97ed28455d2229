package wire

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestFileURIRoundTrip(t *testing.T) {
	cases := []struct{ path, uri string }{
		{"/srv/task", "file:///srv/task"},
		{"/srv/my task/ü#1?", "file:///srv/my%20task/%C3%BC%231%3F"},
		{"C:/Users/dev/proj", "file:///C:/Users/dev/proj"},
		{"/a/b+c@d;e=f,g$h&i~j", "file:///a/b+c@d;e=f,g$h&i~j"},
		{"/100%/[x] {y}", "file:///100%25/%5Bx%5D%20%7By%7D"},
	}
	for _, c := range cases {
		if got := FileURI(c.path); got != c.uri {
			t.Errorf("FileURI(%q) = %q, want %q", c.path, got, c.uri)
		}
		back, ok := PathFromFileURI(c.uri)
		if !ok || back != c.path {
			t.Errorf("PathFromFileURI(%q) = %q, %v; want %q", c.uri, back, ok, c.path)
		}
	}
	for _, bad := range []string{"http://x/y", "file://host/share", "file:relative", "::", "file:///a%2", "file:///a%zz", "file:///a?q", "file:///a#f"} {
		if _, ok := PathFromFileURI(bad); ok {
			t.Errorf("PathFromFileURI(%q) accepted", bad)
		}
	}
}

func TestForFile(t *testing.T) {
	for name, want := range map[string]Language{
		"main.go": Go, "a/B.TSX": TypeScript, "x.pyi": Python, "build.gradle.kts": Kotlin, "lib.rs": Rust,
		"go.mod": Go, "sub/go.work": Go, "tsconfig.json": JSON, "a.jsonc": JSON, "s.SCSS": CSS, "x.less": CSS,
		"index.htm": HTML, "notes.md": Markdown, "ci.yml": YAML, "k.yaml": YAML, "run.sh": Shell, "x.bash": Shell,
		"Dockerfile": Dockerfile, "svc/Dockerfile.dev": Dockerfile, "app.dockerfile": Dockerfile, "dockerfile": Dockerfile,
		"m.c": C, "m.h": C, "m.cc": C, "m.cpp": C, "m.hpp": C, `win\dir\go.mod`: Go,
	} {
		l, ok := ForFile(name)
		if !ok || l.Language != want {
			t.Errorf("ForFile(%q) = %v, %v; want %v", name, l.Language, ok, want)
		}
	}
	for _, name := range []string{"README", "Makefile", "go.sum", "", "a/", "x.txt", "Dockerfiles", "my.dockerfile.bak"} {
		if l, ok := ForFile(name); ok {
			t.Errorf("ForFile(%q) found %s", name, l.Language)
		}
	}
}

func TestLanguageID(t *testing.T) {
	for name, want := range map[string]string{
		"a.ts": "typescript", "a.mts": "typescript", "a.tsx": "typescriptreact", "a.js": "javascript", "a.cjs": "javascript",
		"a.jsx": "javascriptreact", "main.go": "go", "go.mod": "go.mod", "go.work": "go.work", "a.py": "python",
		"a.rs": "rust", "a.kt": "kotlin", "a.json": "json", "a.jsonc": "jsonc", "a.css": "css", "a.scss": "scss",
		"a.less": "less", "a.html": "html", "a.htm": "html", "a.md": "markdown", "a.yml": "yaml", "a.sh": "shellscript",
		"a.bash": "shellscript", "Dockerfile": "dockerfile", "Dockerfile.prod": "dockerfile", "a.dockerfile": "dockerfile",
		"a.c": "c", "a.h": "c", "a.cc": "cpp", "a.cpp": "cpp", "a.hpp": "cpp", "README": "",
	} {
		if got := LanguageID(name); got != want {
			t.Errorf("LanguageID(%q) = %q, want %q", name, got, want)
		}
	}
}

// The language table is consistent: every file key is lower case and
// belongs to one language only, every LanguageIDs key is one of the
// language's own, every language has a valid default server and no server
// twice.
func TestLanguagesTable(t *testing.T) {
	owner := map[string]Language{}
	for _, l := range Languages {
		if len(l.MonacoIDs) == 0 {
			t.Errorf("%s: no Monaco id", l.Language)
		}
		keys := map[string]bool{}
		for _, list := range [][]string{l.Extensions, l.FileNames, l.Patterns} {
			for _, k := range list {
				if k != strings.ToLower(k) {
					t.Errorf("%s: %q is not lower case", l.Language, k)
				}
				if o, dup := owner[k]; dup {
					t.Errorf("%q belongs to %s and %s", k, o, l.Language)
				}
				owner[k], keys[k] = l.Language, true
			}
		}
		for k := range l.LanguageIDs {
			if !keys[k] {
				t.Errorf("%s: LanguageIDs key %q is none of its files", l.Language, k)
			}
		}
		if len(l.Servers) == 0 {
			t.Errorf("%s: no server", l.Language)
		}
		seen := map[string]bool{}
		for _, id := range l.Servers {
			if !ValidServerID(id) || seen[id] {
				t.Errorf("%s: server %q invalid or repeated", l.Language, id)
			}
			seen[id] = true
			if !BuiltinServes(l.Language, id) {
				t.Errorf("BuiltinServes(%s, %s) = false", l.Language, id)
			}
		}
		if d, ok := DefaultServer(l.Language); !ok || d != l.Servers[0] {
			t.Errorf("DefaultServer(%s) = %q, %v", l.Language, d, ok)
		}
	}
	if _, ok := DefaultServer("cobol"); ok || BuiltinServes("cobol", "gopls") || BuiltinServes(Go, "pyright") {
		t.Error("a server for an unknown language, or for another language's")
	}
	if langs, ok := BuiltinServer("tsgo"); !ok || len(langs) != 1 || langs[0] != TypeScript {
		t.Errorf("BuiltinServer(tsgo) = %v, %v", langs, ok)
	}
	if _, ok := BuiltinServer("ruff"); ok {
		t.Error("ruff is no built-in server")
	}
}

func TestValidServerID(t *testing.T) {
	for _, id := range []string{"gopls", "tsgo", "vscode-json-language-server", "a", "0x", "my_server.v2", strings.Repeat("a", 64)} {
		if !ValidServerID(id) {
			t.Errorf("ValidServerID(%q) = false", id)
		}
	}
	for _, id := range []string{"", "..", "a..b", "../gopls", "/usr/bin/gopls", `C:\x`, "a/b", `a\b`, "Gopls", "-x", ".x", "_x",
		"gopls serve", "gopls;rm", "a\x00", "ü", strings.Repeat("a", 65)} {
		if ValidServerID(id) {
			t.Errorf("ValidServerID(%q) = true", id)
		}
	}
}

func TestStatusRawJSON(t *testing.T) {
	b, err := json.Marshal(Status{Status: StatusReady, Server: "eslint", InitializationOptions: RawJSON(`{"a":[1,2]}`),
		Configuration: RawJSON(`{"validate":"on"}`)})
	if err != nil || string(b) != `{"status":"ready","server":"eslint","initializationOptions":{"a":[1,2]},"configuration":{"validate":"on"}}` {
		t.Fatalf("%s, %v", b, err)
	}
	var st Status
	if err := json.Unmarshal(b, &st); err != nil || string(st.InitializationOptions) != `{"a":[1,2]}` || string(st.Configuration) != `{"validate":"on"}` {
		t.Fatalf("%+v, %v", st, err)
	}
	if b, _ := json.Marshal(Status{Status: StatusReady}); string(b) != `{"status":"ready"}` {
		t.Fatalf("empty options not omitted: %s", b)
	}
}

func TestIsStatusFrame(t *testing.T) {
	if !IsStatusFrame([]byte(` {"status":"ready"}`)) {
		t.Error("ready frame not recognised")
	}
	if IsStatusFrame([]byte(`{"jsonrpc":"2.0","method":"status"}`)) {
		t.Error("JSON-RPC frame taken for status")
	}
}

// FileURI must agree with net/url's path escaping, which servers parse.
func TestFileURIMatchesNetURL(t *testing.T) {
	for _, p := range []string{"/srv/my task", "/ü/ß/🙂", "/a b/%/?/#/[]/{}/|/\\/^/`/\"/'", "/x:y@z"} {
		want := (&url.URL{Scheme: "file", Path: p}).String()
		if got := FileURI(p); got != want {
			t.Errorf("FileURI(%q) = %q, net/url says %q", p, got, want)
		}
	}
}

func TestIsFilesFrame(t *testing.T) {
	for _, f := range []string{`{"files":[]}`, "\n\t {\"files\":[{\"path\":\"a.go\",\"type\":2}]}"} {
		if !IsFilesFrame([]byte(f)) {
			t.Errorf("%q not recognised", f)
		}
		if IsStatusFrame([]byte(f)) {
			t.Errorf("%q taken for a status frame", f)
		}
	}
	for _, f := range []string{`{"jsonrpc":"2.0","method":"files"}`, `{"status":"ready"}`, `{"file`, ``, `[{"files":1}]`} {
		if IsFilesFrame([]byte(f)) {
			t.Errorf("%q taken for a files frame", f)
		}
	}
}
