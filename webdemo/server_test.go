package webdemo

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page's routes reach the right piece: the relay, the agent (with the
// token added server-side and never sent by the page), and the assets.
func TestHandlerRoutes(t *testing.T) {
	var agentAuth, agentPath, agentMethod string
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agentAuth, agentPath, agentMethod = r.Header.Get("Authorization"), r.URL.RequestURI(), r.Method
		io.WriteString(w, `["main.go"]`)
	}))
	defer agent.Close()
	agentURL, _ := url.Parse(agent.URL)

	relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "relay "+r.URL.Path) })
	assets := t.TempDir()
	os.WriteFile(filepath.Join(assets, "lsp.wasm"), []byte("\x00asm"), 0o644)
	os.WriteFile(filepath.Join(assets, "wasm_exec.js"), []byte("// go"), 0o644)
	monaco := t.TempDir()
	os.MkdirAll(filepath.Join(monaco, "vs"), 0o755)
	os.WriteFile(filepath.Join(monaco, "vs", "loader.js"), []byte("// amd"), 0o644)

	srv := httptest.NewServer(Handler(Config{
		Relay: relay, AgentURL: agentURL, AgentToken: "secret",
		WASMDir: assets, MonacoDir: monaco, SessionID: "demo",
		TwinSessions: []string{"twin"}, PlainSessions: []string{"plain"},
	}))
	defer srv.Close()

	get := func(method, path string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader("body"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}

	if code, body, _ := get("GET", "/lsp/demo?language=go"); code != 200 || body != "relay /lsp/demo" {
		t.Errorf("relay route: %d %q", code, body)
	}
	for _, r := range []struct{ method, path string }{{"GET", "/api/v1/user/settings"}, {"PUT", "/api/v1/user/settings"}, {"GET", "/api/v1/lsp/runtime"}, {"GET", "/api/v1/sessions/demo/lsp/installers"}} {
		if code, body, _ := get(r.method, r.path); code != 200 || body != "relay "+r.path {
			t.Errorf("%s %s: %d %q", r.method, r.path, code, body)
		}
	}
	if code, body, _ := get("GET", "/api/v1/workspace/files"); code != 200 || body != `["main.go"]` || agentAuth != "Bearer secret" || agentPath != "/api/v1/workspace/files" {
		t.Errorf("files route: %d %q auth=%q path=%q", code, body, agentAuth, agentPath)
	}
	if code, _, _ := get("PUT", "/api/v1/workspace/file?path=main.go"); code != 200 || agentMethod != "PUT" || agentPath != "/api/v1/workspace/file?path=main.go" {
		t.Errorf("save route: %d %s %s", code, agentMethod, agentPath)
	}
	if code, _, h := get("GET", "/lsp.wasm"); code != 200 || h.Get("Content-Type") != "application/wasm" {
		t.Errorf("lsp.wasm: %d %q", code, h.Get("Content-Type"))
	}
	if code, body, _ := get("GET", "/monaco/vs/loader.js"); code != 200 || body != "// amd" {
		t.Errorf("monaco: %d %q", code, body)
	}
	if code, body, _ := get("GET", "/config.json"); code != 200 || body != `{"sessionId":"demo","sessions":[{"id":"demo","lsp":true},{"id":"twin","lsp":true},{"id":"plain","lsp":false}]}` {
		t.Errorf("config: %d %q", code, body)
	}
	if code, body, _ := get("GET", "/"); code != 200 || !strings.Contains(body, "/app.js") || strings.Contains(body, "secret") {
		t.Errorf("page: %d", code)
	}
}

// The demo edits a copy: the sample in the repository never changes.
func TestNewWorkspaceCopies(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "pkg"), 0o755)
	os.WriteFile(filepath.Join(src, "pkg", "a.go"), []byte("package pkg"), 0o644)
	ws, err := NewWorkspace(src)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(ws)
	if !filepath.IsAbs(ws) || ws == src {
		t.Fatalf("workspace %q", ws)
	}
	os.WriteFile(filepath.Join(ws, "pkg", "a.go"), []byte("changed"), 0o644)
	if b, _ := os.ReadFile(filepath.Join(src, "pkg", "a.go")); string(b) != "package pkg" {
		t.Fatalf("sample changed: %q", b)
	}
}

// The fake stands in under the real servers' names, first on PATH, and the
// rest of the environment is kept.
func TestWithFakeServers(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakelsp")
	os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755)
	env, err := WithFakeServers([]string{"HOME=/h", "PATH=/usr/bin"}, dir, fake)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fake-servers")
	if env[0] != "HOME=/h" || env[1] != "PATH="+bin+":/usr/bin" || len(env) != 2 {
		t.Fatalf("env = %q", env)
	}
	for _, name := range FakeServerNames {
		if target, err := os.Readlink(filepath.Join(bin, name)); err != nil || target != fake {
			t.Errorf("%s -> %q, %v", name, target, err)
		}
	}
}

func TestPrependPath(t *testing.T) {
	env, err := PrependPath([]string{"HOME=/h", "PATH=/usr/bin"}, "/a"+string(os.PathListSeparator)+"/b")
	if err != nil {
		t.Fatal(err)
	}
	want := "PATH=/a" + string(os.PathListSeparator) + "/b" + string(os.PathListSeparator) + "/usr/bin"
	if len(env) != 2 || env[0] != "HOME=/h" || env[1] != want {
		t.Fatalf("env = %q, want HOME and %q", env, want)
	}
	env, _ = PrependPath([]string{"HOME=/h"}, "/a")
	if env[len(env)-1] != "PATH=/a" {
		t.Fatalf("no PATH before: %q", env)
	}
}
