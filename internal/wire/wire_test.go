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
	for name, want := range map[string]Language{"main.go": Go, "a/B.TSX": TypeScript, "x.pyi": Python, "build.gradle.kts": Kotlin, "lib.rs": Rust} {
		l, ok := ForFile(name)
		if !ok || l.Language != want {
			t.Errorf("ForFile(%q) = %v, %v; want %v", name, l.Language, ok, want)
		}
	}
	for _, name := range []string{"README", "notes.md", "Makefile"} {
		if _, ok := ForFile(name); ok {
			t.Errorf("ForFile(%q) found a language", name)
		}
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
	b, err := json.Marshal(Status{Status: StatusReady, Server: "gopls", InitializationOptions: RawJSON(`{"a":[1,2]}`)})
	if err != nil || string(b) != `{"status":"ready","server":"gopls","initializationOptions":{"a":[1,2]}}` {
		t.Fatalf("%s, %v", b, err)
	}
	var st Status
	if err := json.Unmarshal(b, &st); err != nil || string(st.InitializationOptions) != `{"a":[1,2]}` {
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
