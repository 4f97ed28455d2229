package wire

import (
	"net/url"
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
